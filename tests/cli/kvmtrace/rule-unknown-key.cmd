$KTF tests/fixtures/kvmtrace/unknown-key.formats < tests/fixtures/kvmtrace/sample.bin
