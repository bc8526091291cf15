# requires: tracecmd
# tests/gen/gen-tracedat-classes.py damaged: four damaged records on CPU 0
# (a __data_loc past its record, a string without NUL, two records too
# short for their format): each said on stderr and counted, every other
# record read on; the default output prints what trace-cmd report prints
# (class-damaged.dat.report), damaged records included, from their own
# bytes only: the string without a NUL stops at its record's end, where
# trace-cmd prints the next record's bytes after it (the one line of the
# diff); exit 1
d=$(mktemp -d) && $KTF tests/fixtures/tracedat/class-damaged.dat >"$d/out"; rc=$?; diff tests/fixtures/tracedat/class-damaged.dat.report "$d/out"; rm -rf "$d"; exit $rc
