# requires: tracecmd
# perf record -z cuts a record that wraps around its ring buffer between two COMPRESSED records: the tail of one block is carried into the next, as perf does (it was called damage, and the next block lost)
$KTF tests/fixtures/perf/gen-zstd-split.data | diff tests/fixtures/perf/gen-le.data.out - && echo same as perf script
