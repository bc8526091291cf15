# requires: tracecmd
# a normal file cut short: its names and formats follow the data, so it is refused with the reason before any output
$KTF tests/fixtures/perf/gen-cut.data
