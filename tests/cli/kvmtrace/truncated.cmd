$KTF formats/kvmtrace < tests/fixtures/kvmtrace/truncated.bin
