# requires: tracecmd
# a pipe file cut within a record: every sample before the cut (what perf
# script prints), then the file and offset, exit 1
t=${TMPDIR:-/tmp}/ktf-perf-cut.$$; $KTF tests/fixtures/perf/gen-cut-pipe.data > "$t"; rc=$?; diff tests/fixtures/perf/gen-cut-pipe.data.out "$t" && echo same as perf script; rm -f "$t"; exit $rc
