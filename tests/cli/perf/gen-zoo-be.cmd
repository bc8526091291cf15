# requires: tracecmd
# the same, big-endian
$KTF tests/fixtures/perf/gen-zoo-be.data | diff tests/fixtures/perf/gen-zoo.data.out - && echo same as perf script of gen-zoo
