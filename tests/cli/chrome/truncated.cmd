$KTF --chrome tests/fixtures/sinks/truncated.kvmtrace
