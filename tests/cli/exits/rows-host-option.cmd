# requires: tracecmd
# --host wins over what the input records
$KTF --exits --host=fleet-7 tests/fixtures/perf/gen-hostname.data
