$KTF -c 2400 formats/kvmtrace < tests/fixtures/kvmtrace/sample.bin
