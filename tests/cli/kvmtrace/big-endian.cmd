$KTF formats/kvmtrace < tests/fixtures/kvmtrace/sample-be.bin
