# requires: tracecmd
# issue 38: a trace.dat with a DATE offset is wall-clock, not CLOCK_MONOTONIC: refused beside perf record -k mono (1.8e18 ns away)
$KTF tests/cli/clocks/clock.formats tests/fixtures/clocks/host-date.dat tests/fixtures/perf/kvm-mono.data
