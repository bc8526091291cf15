$KTF --chrome -c 1000 --events VMEXIT --vcpu 0 < tests/fixtures/sinks/exits.kvmtrace
