# requires: tracecmd
# a normal perf.data through a pipe: its formats follow the data
cat tests/fixtures/perf/kvm.data | $KTF
