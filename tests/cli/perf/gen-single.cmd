# requires: tracecmd
# one event, no PERF_SAMPLE_ID in its samples: what perf script prints
$KTF tests/fixtures/perf/gen-single.data | diff tests/fixtures/perf/gen-single.data.out - && echo same as perf script
