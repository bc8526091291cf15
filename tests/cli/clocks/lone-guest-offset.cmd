# one guest input alone, its TSC offset taken off each stamp in batches
$KTF --guest=tests/fixtures/kvmtrace/sample.bin --tsc-offset=1000 -f tests/cli/clocks/relts.formats
