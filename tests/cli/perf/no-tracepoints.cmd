# requires: tracecmd
# a perf.data of cpu-clock samples only: exit 2 before output, naming what it holds
$KTF tests/fixtures/perf/gen-notp.data
