# requires: tracecmd
# a uftrace guest on CLOCK_MONOTONIC is not taken for the TSC
$KTF --guest tests/fixtures/uftrace/args --tsc-offset 2600 tests/fixtures/tracedat/host-kvm-v7.dat
