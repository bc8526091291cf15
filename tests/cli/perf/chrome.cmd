# requires: tracecmd
# --chrome: exits and entries make slices
$KTF --chrome tests/fixtures/perf/gen-le.data | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["traceEvents"]) > 0)'
