# requires: tracecmd
# tests/gen/gen-tracedat-classes.py fgraph (see there); the reference is
# `trace-cmd report` of it (trace-cmd 3.1.6), whose function graph plugin
# prints an entry and the exit after it as one leaf line: libtracecmd's
# iterators must stand where its reading of every record leaves them
# when the first entry is printed, after 700 records read without it
# (tracecmd-pages.c)
d=$(mktemp -d) && python3 tests/gen/gen-tracedat-classes.py fgraph >"$d/class-fgraph.dat" && $KTF "$d/class-fgraph.dat"; rc=$?; rm -rf "$d"; exit $rc
