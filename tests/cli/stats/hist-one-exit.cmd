# One exit of a reason: its histogram is headed "1 exit"
$KTF --stats=hist --time-range 7263327256666~7263327330000 tests/fixtures/kvmtrace/sample.bin
