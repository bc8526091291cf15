$KTF --time-range 5~3 tests/fixtures/sinks/exits.kvmtrace
