# requires: tracecmd
$KTF --chrome --time-range ~7263327400000 --guest tests/fixtures/tracedat/guest.kvmtrace --tsc-offset 0 tests/fixtures/tracedat/host-kvm-v7.dat
