$KTF tests/fixtures/kvmtrace/huge-width.formats < tests/fixtures/kvmtrace/sample.bin
