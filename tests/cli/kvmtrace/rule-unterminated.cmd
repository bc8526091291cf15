$KTF tests/fixtures/kvmtrace/unterminated.formats < tests/fixtures/kvmtrace/sample.bin
