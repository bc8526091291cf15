$KTF --events VMENTRY --vcpu 0 tests/fixtures/sinks/exits.kvmtrace
