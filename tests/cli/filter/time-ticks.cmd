$KTF --time-range 1001100~1003110 tests/fixtures/sinks/exits.kvmtrace
