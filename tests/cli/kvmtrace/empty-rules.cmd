$KTF tests/fixtures/kvmtrace/empty.formats < tests/fixtures/kvmtrace/sample.bin
