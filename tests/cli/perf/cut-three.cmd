# requires: tracecmd
# cut within its build-id (feature 2), so that the host name (3) and the
# events' names (12) after it are gone too: all three said, every sample
# printed as perf script prints it (gen-cut-three.data.out), status 1
$KTF tests/fixtures/perf/gen-cut-three.data > /dev/null; echo "status $?"
$KTF tests/fixtures/perf/gen-cut-three.data 2> /dev/null | diff tests/fixtures/perf/gen-cut-three.data.out - && echo same as perf script
