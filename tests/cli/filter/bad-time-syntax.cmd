$KTF --time-range 100 tests/fixtures/sinks/exits.kvmtrace
