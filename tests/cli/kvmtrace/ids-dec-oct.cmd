$KTF tests/fixtures/kvmtrace/ids.formats < tests/fixtures/kvmtrace/random.bin
