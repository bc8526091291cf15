$KTF -c 2394.5 tests/fixtures/kvmtrace/fast-paths.formats < tests/fixtures/kvmtrace/random.bin
