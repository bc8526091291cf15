# requires: tracecmd
# the host column: perf.data's HOSTNAME feature (perf report --header-only says perf-host-c)
$KTF --exits tests/fixtures/perf/gen-hostname.data
