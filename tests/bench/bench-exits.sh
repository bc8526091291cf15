#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-exits.sh — peak RSS and time of --stats on about 1 M and 10 M
# exits (random kvmtrace streams with realistic VMX reasons, piped from
# gen-kvmtrace): memory must stay flat in trace length.
#   KTF=… GEN=… bash tests/bench/bench-exits.sh
set -eu
: "${KTF:?}" "${GEN:?}"
printf '%-10s %12s %12s %10s %8s\n' records exits paired peak_rss time
for n in 3500000 35000000; do
	out=$(mktemp)
	t=$( { "$GEN" -n $n -r -m -u 0 | /usr/bin/time -f '%M %e' "$KTF" --stats=json -c 2400 > "$out"; } 2>&1 | tail -1)
	python3 - "$out" $n "$t" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
a = [r for r in d["exits_by_reason"] if r["domain"] == "all"][0]
rss, secs = sys.argv[3].split()
print("%-10s %12d %12d %7.1f MiB %7ss" % (sys.argv[2], a["count"] + a["unpaired"],
      a["count"], int(rss) / 1024, secs))
PY
	rm -f "$out"
done
