$KTF tests/fixtures/kvmtrace/nul-text.bin
