#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# stats-merge.sh — saved --stats=json files merge as one run: a generated
# exit stream (gen-kvmtrace -x: each exit followed by its entry) is cut
# into parts at pair boundaries, --stats=json runs on each part, and
# `--stats=json PART.json …` must print the exits_by_reason and events of
# one run over the whole stream exactly: counts, totals, min, max,
# percentiles, histogram buckets, the longest exits. In ns (-c) and in
# ticks; parts that keep fewer longest exits than asked. Then what must
# be refused: different units, a histogram that does not hold its count,
# saved statistics beside a trace. TAP out.
set -u
: "${KTF:?}" "${KTF_SRCDIR:?}"
cd "$KTF_SRCDIR" || exit 99
gen=${KTF_BUILDDIR:-.}/tests/gen/gen-kvmtrace
if ! command -v python3 > /dev/null || [ ! -x "$gen" ]; then
	echo "1..0 # SKIP needs python3 and tests/gen/gen-kvmtrace"
	exit 0
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/ktf-stats-merge.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
n=0
fail=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		sed 's/^/# /' "$T/why" 2> /dev/null
		fail=$((fail + 1))
	fi
	: > "$T/why"
}

# same A.json B.json: the tables one run and the merge both print
same() {
	python3 - "$1" "$2" > "$T/why" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
bad = 0
for t in ("exits_by_reason", "events"):
    if a[t] != b[t]:
        bad = 1
        for x, y in zip(a[t], b[t]):
            if x != y:
                print(t, "whole:", x, "merged:", y)
        if len(a[t]) != len(b[t]):
            print(t, len(a[t]), "rows, merged", len(b[t]))
for k in ("duration_unit", "histogram", "entries_unpaired"):
    if a[k] != b[k]:
        bad = 1
        print(k, a[k], b[k])
# the longest exits: the merge's rows are the whole run's, each with its
# file (and start, in whatever unit that file's ts has)
la = [{("start" if k.startswith("start_") else k): v for k, v in r.items()}
      for r in a.get("longest_exits", [])]
lb = [{k: v for k, v in r.items() if k != "file"} for r in b.get("longest_exits", [])]
if la != lb or not la:
    bad = 1
    print("longest_exits whole:", la)
    print("longest_exits merged:", lb)
if not sum(len(r["hist"]) for r in a["exits_by_reason"]):
    bad = 1
    print("no histogram buckets")
sys.exit(bad)
PY
}

# 40000 exits in pairs of 52 bytes (exit: 32, entry: 20), no magic word
"$gen" -n 80000 -r -x -s 5 > "$T/whole.kvmtrace"
split -b $((52 * 13001)) -d "$T/whole.kvmtrace" "$T/part."
parts=$(ls "$T"/part.* | wc -l)
for unit in ns ticks; do
	c=
	[ $unit = ns ] && c="-c 2400"
	# shellcheck disable=SC2086
	$KTF --stats=json $c "$T/whole.kvmtrace" > "$T/whole.json" &&
	for p in "$T"/part.??; do
		$KTF --stats=json $c "$p" > "$p.$unit.json" || exit 99
	done
	$KTF --stats=json "$T"/part.??.$unit.json > "$T/merged.json" 2> "$T/why"
	rc=$?
	[ $rc -eq 0 ] && same "$T/whole.json" "$T/merged.json"
	ok $? "$unit: $parts parts merged = one run over the whole (buckets, percentiles, totals, longest exits)"
	# a merged file merges again; the text table is the whole run's
	$KTF --stats "$T/merged.json" | sed -n '/^Exits:/,/^all /{p;/^all /q;}' > "$T/m.txt"
	# shellcheck disable=SC2086
	$KTF --stats $c "$T/whole.kvmtrace" | sed -n '/^Exits:/,/^all /{p;/^all /q;}' > "$T/w.txt"
	diff "$T/w.txt" "$T/m.txt" > "$T/why" && [ -s "$T/w.txt" ]
	ok $? "$unit: the text table of the merge is the whole run's"
done

# parts that keep fewer longest exits of each reason than the merge shows
# (1, the default, for 3): a note says from which row on some may be
# missing; saved with 3 and merged for 3: the whole run's 3 of each
$KTF --stats --stats-top=3 "$T"/part.??.ns.json > "$T/out" 2> "$T/why"
grep -q "^(rows past the first 1 of a reason may be missing: .*part.00.ns.json keeps the longest 1 of each; save each with --stats-top=3)$" "$T/out"
ok $? "parts saved with 1 of each reason, merged for 3: the note names the part"
for p in "$T"/part.??; do
	$KTF --stats=json --stats-top=3 -c 2400 "$p" > "$p.top3.json" || exit 99
done
$KTF --stats=json --stats-top=3 "$T"/part.??.top3.json > "$T/m3.json" &&
	$KTF --stats=json --stats-top=3 -c 2400 "$T/whole.kvmtrace" > "$T/w3.json" &&
	$KTF --stats --stats-top=3 "$T"/part.??.top3.json > "$T/out" &&
	! grep -q "may be missing" "$T/out" &&
	python3 - "$T/w3.json" "$T/m3.json" > "$T/why" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
n = (a["longest_per_reason"], b["longest_per_reason"])
a, b = a["longest_exits"], b["longest_exits"]
a = [{("start" if k.startswith("start_") else k): v for k, v in r.items()} for r in a]
b = [{k: v for k, v in r.items() if k != "file"} for r in b]
print("whole:", a)
print("merged:", b)
sys.exit(not (a == b and len(a) > 3 and n == (3, 3)))
PY
ok $? "parts saved with 3 of each reason, merged for 3: the whole run's, no note"
# a file saved before --stats kept the longest exits: the note says so
python3 - "$T/part.00.ns.json" > "$T/old.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
del d["longest_exits"], d["longest_per_reason"]
print(json.dumps(d))
PY
$KTF --stats "$T/old.json" "$T/part.01.ns.json" > "$T/out" 2> "$T/why"
grep -q "^(rows may be missing: .*old.json has no longest exits; it was saved before --stats kept them)$" "$T/out"
ok $? "a file saved without longest exits: the note names it"
$KTF --stats=json "$T/old.json" > "$T/out" 2> "$T/why" &&
	grep -q '^"longest_exits":\[\],$' "$T/out"
ok $? "json of a file saved without longest exits: an empty longest_exits"

# two hosts (their UNAME options differ; the same pids): one run over both
# inputs and the merge of their saved statistics agree
if [ -n "${KTF_HAVE_TRACECMD:-}" ]; then
	f=tests/fixtures/exits
	$KTF --stats=json $f/host-a.dat $f/host-b7.dat > "$T/both.json" &&
	$KTF --stats=json $f/host-a.stats.json $f/host-b7.stats.json > "$T/m2.json" &&
	same "$T/both.json" "$T/m2.json"
	ok $? "two hosts in one run = the merge of their saved statistics"
fi

# refusals, each with the file named
$KTF --stats=json "$T/part.00.ns.json" "$T/part.01.ticks.json" > /dev/null 2> "$T/err"
rc=$?
grep -q "part.01.ticks.json:.*durations in ticks.*part.00.ns.json's in us" "$T/err"
g=$?
cp "$T/err" "$T/why"
[ $rc -eq 2 ] && [ $g -eq 0 ]
ok $? "different units refused, the file named"

python3 - "$T/part.00.ns.json" > "$T/bad.json" <<'PY'
import sys
t = open(sys.argv[1]).read()
i = t.index('"hist":[[') + 9
j = t.index(',', i)
k = t.index(']', j)
print(t[:j + 1] + str(int(t[j + 1:k]) + 1) + t[k:], end="")
PY
$KTF --stats "$T/bad.json" > "$T/out" 2> "$T/err"
rc=$?
cp "$T/err" "$T/why"
[ $rc -eq 2 ] && [ ! -s "$T/out" ] &&
	grep -q 'bad.json:[0-9]*:[0-9]*: the row.s histogram holds' "$T/err"
ok $? "a histogram that does not hold its count refused, with line:column"

head -c 300 "$T/part.00.ns.json" > "$T/cut.json"
$KTF --stats "$T/cut.json" > /dev/null 2> "$T/err"
rc=$?
cp "$T/err" "$T/why"
[ $rc -eq 2 ] && grep -q 'cut.json:' "$T/err"
ok $? "a cut file refused"

$KTF --stats -c 2400 "$T/part.00.ns.json" "$T/part.00" > /dev/null 2> "$T/err"
rc=$?
cp "$T/err" "$T/why"
[ $rc -eq 2 ] && grep -q 'part.00.ns.json: statistics saved by --stats=json' "$T/err"
ok $? "saved statistics beside a trace refused"

$KTF "$T/part.00.ns.json" > /dev/null 2> "$T/err"
rc=$?
cp "$T/err" "$T/why"
[ $rc -eq 2 ] && grep -q 'with --stats' "$T/err"
ok $? "saved statistics without --stats: told to give it"
# hostile documents: refused quickly, with where, nothing written
hostile() {
	printf '%s' "$2" > "$T/h.json"
	$KTF --stats "$T/h.json" > "$T/out" 2> "$T/err"
	rc=$?
	cp "$T/err" "$T/why"
	[ $rc -eq 2 ] && [ ! -s "$T/out" ] && grep -q "h.json:1:[0-9]*: $3" "$T/err"
	ok $? "refused: $1"
}
head='{"version":1,"generator":"kvmtrace_format x","duration_unit":"us","histogram":{"layout":"log-linear","sub_bits":6,"buckets":3776,"unit":"ns"}'
deep=$(python3 -c 'print("[" * 100000)')
hostile "nesting 100000 deep" "$head,\"x\":$deep" "nested more than 64 deep"
row='{"domain":"host","reason":"HLT","value":12,"count":1,"total_us":0.001,"min_us":0.001,"max_us":0.001,"unpaired":0,"hist"'
hostile "a bucket beyond the layout" "$head,\"exits_by_reason\":[$row:[[99999,1]]}]}" "bucket \\[99999,1\\]"
hostile "buckets not rising" "$head,\"exits_by_reason\":[$row:[[1,1],[1,1]]}]}" "bucket \\[1,1\\]"
hostile "a count beyond 2^64" "$head,\"exits_by_reason\":[{\"count\":99999999999999999999}]}" "expected a whole number below 2^64"
hostile "a min outside its bucket" "$head,\"exits_by_reason\":[$row:[[5,1]]}]}" "the row's min is not in its first bucket"
hostile "a duration below the ns" "$head,\"exits_by_reason\":[{\"total_us\":0.0001}]}" "not a duration in us"
hostile "another layout" '{"version":1,"generator":"kvmtrace_format x","duration_unit":"us","histogram":{"sub_bits":5}}' "a histogram of another layout"
hostile "an exponent" "$head,\"exits_by_reason\":[{\"count\":1e3}]}" "a number with an exponent"
hostile "a longest exit without its duration" "$head,\"longest_exits\":[{\"start_ns\":5,\"reason\":\"HLT\"}]}" "a longest_exits row without its duration_us"
hostile "a longest exit's start not a number" "$head,\"longest_exits\":[{\"start_ns\":[1]}]}" "expected a number"
echo "1..$n"
[ "$fail" -eq 0 ]
