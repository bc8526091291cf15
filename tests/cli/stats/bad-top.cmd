$KTF --stats-top=0 tests/fixtures/sinks/exits.kvmtrace
