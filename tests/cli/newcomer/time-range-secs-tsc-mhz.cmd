# seconds with -c on a TSC timeline
$KTF -c 2400 --time-range 0.4166676s~0.4166696s tests/cli/newcomer/secs.formats tests/fixtures/kvmtrace/vm.kvmtrace.0
