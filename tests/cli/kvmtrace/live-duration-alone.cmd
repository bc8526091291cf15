$KTF --duration=2 tests/fixtures/kvmtrace/sample.bin
