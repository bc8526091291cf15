# requires: tracecmd
# issue 34 items 16-17: tests/gen/gen-tracedat-overread.py big: blob_load
# declares `char load[200000000]` printed with %s, its records hold 16
# bytes. libtraceevent would copy 200 MB from the record (trace-cmd report
# crashes; so did this input, at its first such record, losing the rest):
# each said once, printed as [FAILED TO PARSE] and the fields inside the
# record, every good record before and after printed (the softirq_raise
# lines are trace-cmd report's of the same file without the two records)
d=$(mktemp -d) && python3 tests/gen/gen-tracedat-overread.py big >"$d/big.dat" && cd "$d" && $KTF big.dat; rc=$?; rm -rf "$d"; exit $rc
