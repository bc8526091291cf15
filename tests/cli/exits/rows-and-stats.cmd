$KTF --exits --stats tests/fixtures/sinks/exits.kvmtrace
