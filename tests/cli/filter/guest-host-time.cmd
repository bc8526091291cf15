$KTF --time-range 1005000~1005200 --guest tests/fixtures/sinks/guest.kvmtrace --tsc-offset 1000000000 tests/fixtures/sinks/exits.kvmtrace
