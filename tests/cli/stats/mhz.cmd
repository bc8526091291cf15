$KTF --stats -c 1000 tests/fixtures/sinks/exits.kvmtrace
