$KTF tests/fixtures/kvmtrace/comments.formats < tests/fixtures/kvmtrace/sample.bin
