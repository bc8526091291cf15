# requires: tracecmd
# no rule matches: every event as `trace-cmd report` prints it (its
# reference mixed-sched.dat.report, header line included)
$KTF tests/fixtures/tracedat/mixed-sched.dat | diff tests/fixtures/tracedat/mixed-sched.dat.report - && echo same as trace-cmd report
