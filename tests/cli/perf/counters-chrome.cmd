# requires: tracecmd
# --counters as Chrome counter tracks: C events at the start the rdtsc line names (TSC ticks put on ns by --tsc-mhz), counts scaled by the share each ran
$KTF --chrome --tsc-mhz=1000 --counters=tests/fixtures/perfstat/stat-x-hash.txt tests/fixtures/perf/gen-le.data | python3 -c 'import json,sys; e=[x for x in json.load(sys.stdin)["traceEvents"] if x["ph"]=="C"]; print(len(e)); [print(json.dumps(x, sort_keys=True)) for x in e[:4]+e[9:12]]'
