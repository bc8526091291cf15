$KTF --stats --vcpu 0 --time-range 1000000~1020000 tests/fixtures/sinks/exits.kvmtrace
