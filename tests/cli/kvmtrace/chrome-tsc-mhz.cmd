# --chrome takes --tsc-mhz as the rate, as its message says (µs: ns / 1000)
$KTF --chrome --tsc-mhz 2400 tests/fixtures/kvmtrace/sample.bin | grep -m1 '"ts":'
