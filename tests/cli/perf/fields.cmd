# requires: tracecmd
# template keys of perf samples: format fields, common_*, comm, info, tid, ts in ns
$KTF tests/cli/perf/fields.formats tests/fixtures/perf/gen-le.data
