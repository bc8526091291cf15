# requires: tracecmd
# two perf.data inputs merged by time (their rules' templates)
$KTF -f tests/cli/perf/fields.formats tests/fixtures/perf/gen-single.data tests/fixtures/perf/gen-le.data
