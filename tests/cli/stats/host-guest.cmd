$KTF --stats -c 1000 --guest tests/fixtures/sinks/guest.kvmtrace --tsc-offset 1000000000 tests/fixtures/sinks/exits.kvmtrace
