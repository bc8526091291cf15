# secs on TSC ticks with -c: ticks / (MHz * 1e6), as ts then prints
$KTF -c 2400 tests/cli/newcomer/secs.formats tests/fixtures/kvmtrace/vm.kvmtrace.0 | head -3
