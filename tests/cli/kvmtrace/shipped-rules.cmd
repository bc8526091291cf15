$KTF formats/kvmtrace < tests/fixtures/kvmtrace/sample.bin
