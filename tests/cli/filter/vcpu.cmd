$KTF --vcpu 1 --time-range ~1000400 tests/fixtures/sinks/exits.kvmtrace
