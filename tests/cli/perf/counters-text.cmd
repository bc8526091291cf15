# requires: tracecmd
# --counters needs a sink that draws them
$KTF --counters=tests/fixtures/perfstat/stat-human.txt tests/fixtures/perf/gen-le.data
