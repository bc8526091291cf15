# requires: tracecmd
# --counters in each layout perf stat -I writes (-x'#' with merge.py's rdtsc line, -x, with -o's header, -x';', the human format with its repeated headers, <not counted>, <not supported>, (50.00%)): the same table
$KTF --stats --counters-start=5000123000000 --counters=tests/fixtures/perfstat/stat-x-hash.txt --counters=tests/fixtures/perfstat/stat-x-comma.txt --counters=tests/fixtures/perfstat/stat-x-semi.txt --counters=tests/fixtures/perfstat/stat-human.txt tests/fixtures/perf/gen-le.data | sed -n '/^Counters/,/^$/p'
