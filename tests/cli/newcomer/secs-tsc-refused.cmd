# secs on TSC ticks of no known rate: refused before output, naming -c
$KTF tests/cli/newcomer/secs.formats tests/fixtures/kvmtrace/vm.kvmtrace.0
