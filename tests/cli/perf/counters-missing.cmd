# requires: tracecmd
# a counters file that cannot be opened: usage, exit 2
$KTF --stats --counters=tests/cli/perf/no-such-file.txt tests/fixtures/perf/gen-le.data
