$KTF --events VMEXIT,,HLT tests/fixtures/sinks/exits.kvmtrace
