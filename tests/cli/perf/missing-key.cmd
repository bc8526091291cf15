# requires: tracecmd
# a key no perf event has: found against the file's formats before any output
$KTF tests/cli/perf/missing-key.formats tests/fixtures/perf/gen-le.data
