$KTF tests/fixtures/kvmtrace/record-words.formats < tests/fixtures/kvmtrace/words.bin
