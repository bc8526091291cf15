# requires: tracecmd
# one event, no PERF_SAMPLE_ID, big-endian: gen-single's text
$KTF tests/fixtures/perf/gen-single-be.data | diff tests/fixtures/perf/gen-single.data.out - && echo same as perf script of gen-single
