# requires: tracecmd
# the same with a pipe file's HEADER_TRACING_DATA record in the data
$KTF - < tests/fixtures/perf/gen-tdata-past-end.data
