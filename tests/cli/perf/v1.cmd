# requires: tracecmd
# perf.data version 1 (perf 3.x: magic PERFFILE, the byte order told by the attr size, 72-byte attrs): read as perf 6.1 reads it (it was taken for a kvmtrace stream: thousands of "unknown" lines)
$KTF tests/fixtures/perf/gen-v1.data | diff tests/fixtures/perf/gen-le.data.out - && echo same as perf script
