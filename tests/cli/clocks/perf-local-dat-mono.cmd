# requires: tracecmd
# issue 38: perf.data on perf's default clock (no -k) beside a trace.dat of trace-cmd record -C mono: refused, naming each clock and what to record
$KTF tests/cli/clocks/clock.formats tests/fixtures/perf/kvm.data tests/fixtures/qemu/host-mono.dat
