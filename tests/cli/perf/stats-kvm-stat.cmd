# requires: tracecmd
# --stats of a perf kvm stat record file
$KTF --stats tests/fixtures/perf/kvm-stat.data
