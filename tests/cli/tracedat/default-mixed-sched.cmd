# requires: tracecmd
# no rule matches: every event as `trace-cmd report` prints it (its
# reference mixed-sched.dat.report, after the "cpus=2" line)
$KTF tests/fixtures/tracedat/mixed-sched.dat | { echo cpus=2; cat; } | diff tests/fixtures/tracedat/mixed-sched.dat.report - && echo same as trace-cmd report
