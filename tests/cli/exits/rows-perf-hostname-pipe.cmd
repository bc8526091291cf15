# requires: tracecmd
# the host column from a pipe perf.data's HEADER_FEATURE record (HOSTNAME)
$KTF --exits=jsonl tests/fixtures/perf/gen-hostname-pipe.data
