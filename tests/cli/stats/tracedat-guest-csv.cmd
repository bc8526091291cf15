# requires: tracecmd
$KTF --stats=csv --guest tests/fixtures/tracedat/guest.kvmtrace --tsc-offset 0 tests/fixtures/tracedat/host-kvm-v7.dat
