$KTF --chrome tests/fixtures/sinks/exits.kvmtrace
