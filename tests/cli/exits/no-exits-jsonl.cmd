# requires: tracecmd
# The same as JSON lines: nothing on standard output, and the warning
$KTF --exits=jsonl -c 2600 tests/fixtures/tracedat/host-kvm-v7.dat
