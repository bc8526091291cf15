$KTF --events 0x1000g tests/fixtures/sinks/exits.kvmtrace
