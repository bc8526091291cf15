$KTF formats/kvmtrace tests/fixtures/kvmtrace
