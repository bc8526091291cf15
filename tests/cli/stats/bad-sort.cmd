$KTF --stats --stats-sort=mean tests/fixtures/sinks/exits.kvmtrace
