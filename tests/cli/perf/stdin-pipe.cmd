# requires: tracecmd
# a pipe file (perf record -o -) read from a pipe, as it was written
cat tests/fixtures/perf/kvm-zstd-pipe.data | $KTF | diff tests/fixtures/perf/kvm-zstd-pipe.data.out - && echo same as perf script
