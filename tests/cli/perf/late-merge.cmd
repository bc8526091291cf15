# requires: tracecmd
# the same file merged with another: the step back is said once, naming the sample by its place among the input's events from 0 (the 8th line of perf script's, index 7; it said 19, the count of records queued when it went out)
$KTF tests/fixtures/perf/gen-late.data tests/fixtures/perf/gen-single.data > /dev/null
