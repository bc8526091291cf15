# requires: tracecmd
# tests/gen/gen-tracedat-classes.py damaged: four damaged records on CPU 0
# (a __data_loc past its record, a string without NUL, two records too
# short for their format): each said on stderr and counted, every other
# record read on; the default output prints what trace-cmd report prints,
# damaged records included (class-damaged.dat.report); exit 1
d=$(mktemp -d) && $KTF tests/fixtures/tracedat/class-damaged.dat >"$d/out"; rc=$?; diff tests/fixtures/tracedat/class-damaged.dat.report "$d/out" && echo same as trace-cmd report; rm -rf "$d"; exit $rc
