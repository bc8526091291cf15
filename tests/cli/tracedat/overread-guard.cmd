# requires: tracecmd
# tests/gen/gen-tracedat-overread.py divzero: a print fmt that divides by
# a field, zero in one record: libtraceevent dies of SIGFPE printing it
# (trace-cmd report too). The guard's trap, the last line of defence,
# catches it: the record prints as [FAILED TO PARSE] and its fields, the
# message is said once, and that input stops there
d=$(mktemp -d) && python3 tests/gen/gen-tracedat-overread.py divzero >"$d/dz.dat" && cd "$d" && $KTF dz.dat; rc=$?; rm -rf "$d"; exit $rc
