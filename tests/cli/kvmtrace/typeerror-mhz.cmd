$KTF -c 1000 tests/fixtures/kvmtrace/hex-ts.formats < tests/fixtures/kvmtrace/random.bin
