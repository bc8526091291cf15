$KTF --chrome -c 1000 tests/fixtures/sinks/truncated.kvmtrace
