# requires: tracecmd
# an rdtsc line (TSC ticks) on a nanosecond timeline: refused before output unless --tsc-mhz or --counters-start says how
$KTF --stats --counters=tests/fixtures/perfstat/stat-x-hash.txt tests/fixtures/perf/gen-le.data
