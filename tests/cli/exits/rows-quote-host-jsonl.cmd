# the same in JSON lines: escaped
$KTF --exits=jsonl "--host=rack \"7\", row	3" -c 1000 tests/fixtures/kvmtrace/vm.kvmtrace.0
