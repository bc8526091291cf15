# counts of 1e308 print as the shortest number that reads back (they were
# cut to 255 digits), a total past a double is none, null in JSON, with a
# warning (it was "inf"); the counters alone, without a trace, are a run
# (tests/gen/gen-perfstat-hostile.py overflow)
$KTF --stats --counters=tests/fixtures/perfstat/stat-overflow.txt | sed -n '/^Counters/,/^$/p'
$KTF --stats=json --counters=tests/fixtures/perfstat/stat-overflow.txt 2>/dev/null | python3 -c 'import json,sys; [print(json.dumps(r, sort_keys=True)) for r in json.load(sys.stdin)["counters"]]'
