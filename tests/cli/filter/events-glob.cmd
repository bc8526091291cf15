$KTF --events '*_WRITE' --vcpu 0-0 tests/fixtures/sinks/exits.kvmtrace
