# requires: tracecmd
# no rule matches: every event as `trace-cmd report` prints it (its
# reference clock-uptime.dat.report, header line included)
$KTF tests/fixtures/tracedat/clock-uptime.dat | diff tests/fixtures/tracedat/clock-uptime.dat.report - && echo same as trace-cmd report
