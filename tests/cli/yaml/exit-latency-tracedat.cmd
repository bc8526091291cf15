# requires: tracecmd yaml
# this nested-KVM recording has no kvm_exit/kvm_entry records: nothing to
# print, but the rules bind against the kvm_exit and kvm_entry formats;
# every event goes to the file's catch-all skip rule, and a warning says
# that nothing was printed, and why
$KTF formats/exit-latency.yaml tests/fixtures/tracedat/host-kvm-v7.dat
