#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""exits-rows.py ROWS.csv STATS.json [ROWS.jsonl]: do the rows of
--exits=csv add up to the exits_by_reason table of --stats=json? Per reason
(domain, number, name) and for all: the rows with a duration are its
count, their sum its total, their least and greatest its min and max; the
rows without one its unpaired. Durations of the JSON are µs with three
decimals (or ticks), read exactly. With ROWS.jsonl, the JSON lines must
hold the same rows as the CSV, value for value. TAP out; exit 1 on a
difference."""
import csv
import json
import sys
from decimal import Decimal

COLS = ["host", "input", "vm", "vcpu", "reason", "reason_name", "start_ns",
        "duration_ns", "guest_rip", "guest_sym", "domain"]


def ns(v, unit):
    if v is None:
        return None
    d = Decimal(str(v))
    return int(d * 1000) if unit == "us" else int(d)


def main():
    with open(sys.argv[1], newline="") as f:
        rd = csv.reader(f)
        head = next(rd)
        rows = list(rd)
    stats = json.load(open(sys.argv[2]))
    unit = stats["duration_unit"]
    n = 0
    bad = 0

    def check(ok, what):
        nonlocal n, bad
        n += 1
        print(("ok %d - " if ok else "not ok %d - ") % n + what)
        bad += not ok

    check(head == COLS, "the CSV header is the documented schema")
    agg = {}
    for r in rows:
        rec = dict(zip(head, r))
        for key in ((rec["domain"], int(rec["reason"]), rec["reason_name"]),
                    "all"):
            a = agg.setdefault(key, [0, 0, None, None, 0])
            if rec["duration_ns"] == "":
                a[4] += 1
                continue
            d = int(rec["duration_ns"])
            a[0] += 1
            a[1] += d
            a[2] = d if a[2] is None else min(a[2], d)
            a[3] = d if a[3] is None else max(a[3], d)
    seen = set()
    for r in stats["exits_by_reason"]:
        key = "all" if r["domain"] == "all" else (r["domain"], r["value"],
                                                  r["reason"])
        seen.add(key)
        want = [r["count"], ns(r["total_" + unit], unit) or 0,
                ns(r["min_" + unit], unit), ns(r["max_" + unit], unit),
                r["unpaired"]]
        got = agg.get(key, [0, 0, None, None, 0])
        check(got == want, "%s: rows %s, --stats %s" % (key, got, want))
    check(set(agg) <= seen, "every reason of the rows is in --stats: %s"
          % sorted(map(str, set(agg) - seen)))
    if len(sys.argv) > 3:
        lines = [json.loads(l) for l in open(sys.argv[3])]
        conv = []
        for o in lines:
            conv.append(["" if o[c] is None else str(o[c]) for c in COLS])
        check(conv == rows, "the JSON lines hold the CSV's %d rows" % len(rows))
    print("1..%d" % n)
    return 1 if bad else 0


sys.exit(main())
