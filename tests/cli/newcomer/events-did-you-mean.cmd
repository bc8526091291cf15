# issue 28: an --events name that matches nothing: did you mean (kvmtrace names)
$KTF --events VMEXTI,VMENTRY tests/fixtures/kvmtrace/vm.kvmtrace.0
