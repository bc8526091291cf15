# requires: tracecmd
# the same in a pipe file read from standard input
$KTF - < tests/fixtures/perf/gen-zstd-split-pipe.data | diff tests/fixtures/perf/gen-le.data.out - && echo same as perf script
