$KTF --stats=csv tests/fixtures/sinks/exits.kvmtrace
