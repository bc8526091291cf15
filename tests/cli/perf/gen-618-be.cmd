# requires: tracecmd
# the same, big-endian
$KTF tests/fixtures/perf/gen-618-be.data | diff tests/fixtures/perf/gen-618.data.out - && echo same as perf script of gen-618
