# requires: tracecmd
# no rule matches: every event as `trace-cmd report` prints it (its
# reference clock-counter-v6.dat.report, header line included)
$KTF tests/fixtures/tracedat/clock-counter-v6.dat | diff tests/fixtures/tracedat/clock-counter-v6.dat.report - && echo same as trace-cmd report
