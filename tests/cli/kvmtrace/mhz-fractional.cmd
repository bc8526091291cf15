$KTF -c 2394.5 formats/kvmtrace < tests/fixtures/kvmtrace/random.bin
