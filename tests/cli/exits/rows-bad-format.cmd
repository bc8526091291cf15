$KTF --exits=tsv tests/fixtures/sinks/exits.kvmtrace
