# --tsc-mhz alone: a TSC input on nanoseconds (ts * 1000 / MHZ, floored:
# 1000001611 ticks at 2400 MHz = 416667337 ns)
$KTF --tsc-mhz 2400 formats/kvmtrace tests/fixtures/kvmtrace/sample.bin | head -3
