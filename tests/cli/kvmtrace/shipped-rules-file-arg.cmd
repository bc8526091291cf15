$KTF -f formats/kvmtrace tests/fixtures/kvmtrace/sample.bin
