# requires: tracecmd
$KTF --chrome -c 2400 --time-range ~3026.386416667 --guest tests/fixtures/tracedat/guest.kvmtrace --tsc-offset 0 tests/fixtures/tracedat/host-kvm-v7.dat
