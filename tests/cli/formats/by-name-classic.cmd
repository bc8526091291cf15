# the classic rules by name, and a rule file of the current directory first
KVMTRACE_FORMAT_PATH=formats $KTF -f kvmtrace tests/fixtures/kvmtrace/vm.kvmtrace.0 | head -3 && cd tests/fixtures/kvmtrace && KVMTRACE_FORMAT_PATH=../../../formats $KTF -f hex-ts.formats random.bin | head -2
