$KTF --events HLT --events IO_WRITE --time-range ~1003000 tests/fixtures/sinks/exits.kvmtrace
