# --counters without a trace: the counters alone, on perf stat's own
# seconds (standard input was read as a kvmtrace stream, then --chrome
# refused for want of a TSC rate); the 'rdtsc N' line needs no rate here;
# with --stats, only the counters table
$KTF --chrome --counters=tests/fixtures/perfstat/stat-x-hash.txt < /dev/null | python3 -c 'import json,sys; e=json.load(sys.stdin)["traceEvents"]; c=[x for x in e if x["ph"]=="C"]; print(len(e), len(c)); [print(json.dumps(x, sort_keys=True)) for x in c[:3]+c[-3:]]'
$KTF --stats --counters=tests/fixtures/perfstat/stat-human.txt
