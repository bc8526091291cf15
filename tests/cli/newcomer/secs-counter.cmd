# requires: tracecmd
# secs on a counter clock (trace_clock=counter): no seconds, refused before output
$KTF tests/cli/newcomer/secs.formats tests/fixtures/tracedat/clock-counter-v6.dat
