# requires: tracecmd
# no rule matches: every event as `trace-cmd report` prints it (its
# reference host-local-clock.dat.report, header line included)
$KTF tests/fixtures/tracedat/host-local-clock.dat | diff tests/fixtures/tracedat/host-local-clock.dat.report - && echo same as trace-cmd report
