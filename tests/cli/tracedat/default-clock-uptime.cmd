# requires: tracecmd
# no rule matches: every event as `trace-cmd report` prints it (its
# reference clock-uptime.dat.report, after the "cpus=2" line)
$KTF tests/fixtures/tracedat/clock-uptime.dat | { echo cpus=2; cat; } | diff tests/fixtures/tracedat/clock-uptime.dat.report - && echo same as trace-cmd report
