# requires: tracecmd
# --tsc-mhz says how: the offset of 2600 ticks at 2600 MHz is 1000 ns
$KTF tests/cli/hostguest/ns-guest.formats --guest tests/fixtures/uftrace/args --tsc-offset 2600 --tsc-mhz 2600 --events uftrace:* tests/fixtures/tracedat/host-kvm-v7.dat
