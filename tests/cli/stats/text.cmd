$KTF --stats tests/fixtures/sinks/exits.kvmtrace
