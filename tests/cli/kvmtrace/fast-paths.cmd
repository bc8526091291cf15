$KTF tests/fixtures/kvmtrace/fast-paths.formats < tests/fixtures/kvmtrace/random.bin
