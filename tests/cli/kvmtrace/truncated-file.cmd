$KTF -f formats/kvmtrace tests/fixtures/kvmtrace/truncated.bin
