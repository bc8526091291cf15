$KTF < tests/fixtures/kvmtrace/sample.bin
