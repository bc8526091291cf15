$KTF -f tests/fixtures/kvmtrace/percpu.formats tests/fixtures/kvmtrace/vm.kvmtrace.0 tests/fixtures/kvmtrace/vm.kvmtrace.1
