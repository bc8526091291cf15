# requires: tracecmd
# tests/gen/gen-tracedat-classes.py nul (see there): as `trace-cmd report`
# a __data_loc string whose NUL lies just past its length: not corrupt
# prints it (its reference class-nul.dat.report, header line included)
$KTF tests/fixtures/tracedat/class-nul.dat | diff tests/fixtures/tracedat/class-nul.dat.report - && echo same as trace-cmd report
