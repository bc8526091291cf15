# requires: tracecmd
# --counters without an rdtsc line or --counters-start: time 0 is the first event of the timeline, and the run says so
$KTF --chrome --counters=tests/fixtures/perfstat/stat-human.txt tests/fixtures/perf/gen-le.data | python3 -c 'import json,sys; e=[x for x in json.load(sys.stdin)["traceEvents"] if x["ph"]=="C"]; print(len(e), e[0]["ts"])'
