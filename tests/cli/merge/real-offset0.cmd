# requires: tracecmd
# the real recording: under nested KVM the guest reads the host TSC
$KTF -f tests/fixtures/merge/pio-samples.formats tests/fixtures/tracedat/host-kvm-v7.dat --guest tests/fixtures/tracedat/guest.kvmtrace --tsc-offset 0 | sh tests/gen/check-merge.sh
