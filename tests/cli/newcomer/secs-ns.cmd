# requires: tracecmd
# issue 28: secs on a nanosecond trace.dat: ns / 1e9
$KTF tests/cli/newcomer/secs.formats tests/fixtures/tracedat/host-local-clock.dat | head -3
