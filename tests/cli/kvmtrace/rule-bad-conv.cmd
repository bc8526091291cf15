$KTF tests/fixtures/kvmtrace/bad-conv.formats < tests/fixtures/kvmtrace/sample.bin
