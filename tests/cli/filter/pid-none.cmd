# --pid that no event has: the pids the events had, in the warning
$KTF --pid 1 formats/kvmtrace tests/fixtures/kvmtrace/sample.bin
