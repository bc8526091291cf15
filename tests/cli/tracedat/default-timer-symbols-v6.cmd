# requires: tracecmd
# events whose text names kernel functions (%ps through the file's
# kallsyms; version 6: kallsyms read with the headers):
# as `trace-cmd report` prints them (timer-symbols-v6.dat.report)
$KTF tests/fixtures/tracedat/timer-symbols-v6.dat | diff tests/fixtures/tracedat/timer-symbols-v6.dat.report - && echo same as trace-cmd report
