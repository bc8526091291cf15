$KTF tests/fixtures/kvmtrace/no-template.formats < tests/fixtures/kvmtrace/sample.bin
