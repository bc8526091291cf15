# issue 38: inputs whose spans overlap (the two per-CPU files of one kvmtrace run): no warning
$KTF tests/cli/clocks/clock.formats tests/fixtures/kvmtrace/vm.kvmtrace.0 tests/fixtures/kvmtrace/vm.kvmtrace.1 | wc -l
