$KTF -c 1000 --time-range 0.0010011~0.00100311 tests/fixtures/sinks/exits.kvmtrace
