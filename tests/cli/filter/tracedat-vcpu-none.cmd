# requires: tracecmd
# --vcpu on a trace.dat: most of its events have no vCPU (no vcpu_id
# field), and the warning counts them apart
$KTF --vcpu 3 tests/fixtures/tracedat/host-kvm-v7.dat
