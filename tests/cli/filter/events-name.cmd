$KTF --events HLT,PAGE_FAULT,0x0abcdef tests/fixtures/sinks/exits.kvmtrace
