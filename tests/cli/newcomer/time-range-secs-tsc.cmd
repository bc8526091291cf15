# seconds on a TSC timeline without -c: refused, naming -c
$KTF --time-range 1s~2s tests/fixtures/kvmtrace/vm.kvmtrace.0
