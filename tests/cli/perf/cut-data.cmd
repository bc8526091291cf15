# requires: tracecmd
# a normal file cut within its data section: refused before any output
$KTF tests/fixtures/perf/gen-cut-data.data
