$KTF --chrome --events VMEXIT --vcpu 0 < tests/fixtures/sinks/exits.kvmtrace
