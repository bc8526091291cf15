# requires: tracecmd
# the data ends within a record split between COMPRESSED records: what perf script prints, then the damage, exit 1
$KTF tests/fixtures/perf/gen-zstd-lose-tail.data
