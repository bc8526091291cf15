$KTF tests/fixtures/kvmtrace/crlf.formats < tests/fixtures/kvmtrace/random.bin
