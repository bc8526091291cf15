# requires: tracecmd
# issue 38: trace_clock local beside trace_clock mono: refused
$KTF tests/cli/clocks/clock.formats tests/fixtures/tracedat/host-local-clock.dat tests/fixtures/qemu/host-mono.dat
