# requires: tracecmd
# events whose text names kernel functions (%ps through the file's
# kallsyms; v7 zstd: our copy leaves kallsyms out, parsed at the first text):
# as `trace-cmd report` prints them (timer-symbols-v7-zstd.dat.report)
$KTF tests/fixtures/tracedat/timer-symbols-v7-zstd.dat | diff tests/fixtures/tracedat/timer-symbols-v7-zstd.dat.report - && echo same as trace-cmd report
