$KTF tests/fixtures/kvmtrace/bad-id.formats < tests/fixtures/kvmtrace/sample.bin
