# requires: tracecmd
# -c on a nanosecond timeline converts nothing: a warning
$KTF -c 2400 tests/fixtures/tracedat/host-local-clock.dat | head -1
