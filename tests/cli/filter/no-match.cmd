$KTF --events kvm:kvm_exit tests/fixtures/sinks/exits.kvmtrace
