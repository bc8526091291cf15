$KTF -f tests/fixtures/kvmtrace/nul.formats < tests/fixtures/kvmtrace/sample.bin
