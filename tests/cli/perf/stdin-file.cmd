# requires: tracecmd
# a normal perf.data on standard input: a file, so it can seek
$KTF < tests/fixtures/perf/kvm.data | diff tests/fixtures/perf/kvm.data.out - && echo same as perf script
