# requires: tracecmd
# the same written big-endian: PERFFILE says nothing of the byte order; the attr size tells it
$KTF tests/fixtures/perf/gen-v1-be.data | diff tests/fixtures/perf/gen-le.data.out - && echo same as gen-le
