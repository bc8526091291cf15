# requires: tracecmd
# --tsc-mhz puts a TSC trace.dat on ns: secs from those
$KTF --tsc-mhz 2600 tests/cli/newcomer/secs.formats tests/fixtures/tracedat/host-kvm-v6.dat | head -2
