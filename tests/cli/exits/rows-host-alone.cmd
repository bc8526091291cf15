$KTF --host=h1 -c 1000 tests/fixtures/sinks/exits.kvmtrace
