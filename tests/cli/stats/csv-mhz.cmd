$KTF --stats=csv -c 1000 tests/fixtures/sinks/exits.kvmtrace
