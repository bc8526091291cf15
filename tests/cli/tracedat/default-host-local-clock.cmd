# requires: tracecmd
# no rule matches: every event as `trace-cmd report` prints it (its
# reference host-local-clock.dat.report, after the "cpus=2" line)
$KTF tests/fixtures/tracedat/host-local-clock.dat | { echo cpus=2; cat; } | diff tests/fixtures/tracedat/host-local-clock.dat.report - && echo same as trace-cmd report
