$KTF --exits=jsonl -c 1000 tests/fixtures/sinks/exits.kvmtrace
