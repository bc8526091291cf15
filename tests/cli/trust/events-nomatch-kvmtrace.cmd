$KTF --events=NOPE formats/kvmtrace tests/fixtures/kvmtrace/sample.bin
