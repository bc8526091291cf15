# requires: tracecmd
$KTF tests/fixtures/tracedat/host-local-clock.dat tests/fixtures/kvmtrace/sample-magic.bin
