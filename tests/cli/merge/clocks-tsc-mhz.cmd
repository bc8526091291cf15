# requires: tracecmd
$KTF --tsc-mhz 2400 -f tests/fixtures/merge/pio-samples.formats tests/fixtures/tracedat/host-local-clock.dat tests/fixtures/kvmtrace/sample-magic.bin | grep -c .
