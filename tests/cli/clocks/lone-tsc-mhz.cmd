# one TSC input put on a nanosecond timeline (--tsc-mhz), read in batches
# and mapped: relts are the ns between stamps, not the reader's ticks
# (sample.bin at 2000 MHz: every ts and relts half the ticks)
$KTF --tsc-mhz 2000 -f tests/cli/clocks/relts.formats tests/fixtures/kvmtrace/sample.bin
