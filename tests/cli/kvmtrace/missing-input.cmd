$KTF formats/kvmtrace tests/fixtures/kvmtrace/no-such.bin
