$KTF formats/kvmtrace < tests/fixtures/kvmtrace/notsc.bin
