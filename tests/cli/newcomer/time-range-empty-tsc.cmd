# the same on TSC ticks
$KTF --time-range 5~6 tests/fixtures/kvmtrace/vm.kvmtrace.0
