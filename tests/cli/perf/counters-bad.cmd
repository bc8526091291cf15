# requires: tracecmd
# a line that is no perf stat -I output: its file and line, exit 1 before output
$KTF --stats --counters=tests/cli/perf/counters-bad.txt tests/fixtures/perf/gen-le.data
