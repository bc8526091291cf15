$KTF --time-range 1534000~ tests/fixtures/sinks/exits.kvmtrace
