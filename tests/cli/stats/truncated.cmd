$KTF --stats tests/fixtures/sinks/truncated.kvmtrace
