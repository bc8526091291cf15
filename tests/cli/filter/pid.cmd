$KTF --pid 1001 --events VMEXIT tests/fixtures/sinks/exits.kvmtrace
