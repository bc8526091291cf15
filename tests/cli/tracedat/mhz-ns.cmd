# requires: tracecmd
# -c on a nanosecond clock (trace_clock=local): ts stays in ns
$KTF -c 2599.998 tests/cli/tracedat/ts.formats tests/fixtures/tracedat/host-local-clock.dat | grep -v '^ '
