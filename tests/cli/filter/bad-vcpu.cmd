$KTF --vcpu 1,x tests/fixtures/sinks/exits.kvmtrace
