# requires: tracecmd
$KTF --events 'kvm:kvm_*_exit' --time-range ~7263327400000 tests/fixtures/tracedat/host-kvm-v7.dat
