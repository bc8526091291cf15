$KTF --events 0x20006 tests/fixtures/sinks/exits.kvmtrace
