$KTF -o /dev/stdout formats/kvmtrace < tests/fixtures/kvmtrace/sample.bin
