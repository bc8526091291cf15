$KTF formats/kvmtrace < tests/fixtures/kvmtrace/sample-magic.bin
