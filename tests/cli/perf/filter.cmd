# requires: tracecmd
# --events and --pid filters on perf samples
$KTF --events=kvm:kvm_exit --pid=4244 tests/fixtures/perf/gen-le.data
