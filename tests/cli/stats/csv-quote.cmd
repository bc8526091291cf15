$KTF --stats=csv --guest tests/fixtures/sinks/comma,name.kvmtrace --tsc-offset 1000000000 tests/fixtures/sinks/exits.kvmtrace
