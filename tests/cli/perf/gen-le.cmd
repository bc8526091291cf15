# requires: tracecmd
# generated, little-endian: what perf script prints
$KTF tests/fixtures/perf/gen-le.data | diff tests/fixtures/perf/gen-le.data.out - && echo same as perf script
