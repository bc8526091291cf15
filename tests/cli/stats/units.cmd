# each time column in the unit that suits its largest value (µs below
# 10 ms, ms below 10 s, else s), named in its heading
$KTF --stats -c 0.001 tests/fixtures/sinks/exits.kvmtrace
