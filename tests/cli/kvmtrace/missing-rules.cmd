$KTF tests/fixtures/kvmtrace/no-such-rules < /dev/null
