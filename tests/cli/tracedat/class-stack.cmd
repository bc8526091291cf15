# requires: tracecmd
# tests/gen/gen-tracedat-classes.py stack (see there): as `trace-cmd report`
# kernel_stack records stop within caller[8] (0 to 8 entries): not corrupt
# prints it (its reference class-stack.dat.report, header line included)
$KTF tests/fixtures/tracedat/class-stack.dat | diff tests/fixtures/tracedat/class-stack.dat.report - && echo same as trace-cmd report
