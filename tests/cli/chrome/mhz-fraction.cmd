$KTF --chrome -c 2394.5 --vcpu 0 --events VMEXIT,VMENTRY tests/fixtures/sinks/exits.kvmtrace
