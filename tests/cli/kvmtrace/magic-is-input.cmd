$KTF tests/fixtures/kvmtrace/sample-magic.bin
