# requires: tracecmd
# a normal file cut short in its last feature section (EVENT_DESC, the
# events' names): the samples and the event formats come before it, so
# every sample prints as `perf script -F trace:comm,tid,cpu,time,event,trace`
# prints it (perf leaves the section out without a word: gen-cut.data.out);
# the cut section is said at the end, status 1. A cut in the formats
# (TRACING_DATA) is refused before any output (perf cannot read it either)
$KTF tests/fixtures/perf/gen-cut.data > /dev/null; echo "status $?"
$KTF tests/fixtures/perf/gen-cut.data 2> /dev/null | diff tests/fixtures/perf/gen-cut.data.out - && echo same as perf script
