# requires: tracecmd
# -c on an x86-tsc file: ts becomes seconds (ts / (MHZ * 1e6)); relts stays
# in ticks
$KTF -c 2599.998 tests/cli/tracedat/ts.formats tests/fixtures/tracedat/host-kvm-v7.dat | grep -v '^ '
