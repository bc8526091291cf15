#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# exits-sqlite.sh — a real engine reads --exits=csv as it is: SQLite's
# `.import --csv` loads the rows of a fixture, a GROUP BY reason query sums
# them, and SQLite itself reads the --stats=json of the same input
# (json_each over readfile()) to compare: per reason count, total, min, max
# and unpaired equal, to the nanosecond. TAP out; without sqlite3 a TAP
# SKIP plan ("1..0 # SKIP", exit 0: the TAP driver takes exit 77 for an
# error).
set -u
: "${KTF:?}" "${KTF_SRCDIR:?}"
cd "$KTF_SRCDIR" || exit 99
if ! command -v sqlite3 > /dev/null; then
	echo "1..0 # SKIP needs sqlite3 (apt-get install sqlite3)"
	exit 0
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/ktf-exits-sqlite.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
fix=tests/fixtures
n=0
fail=0

# check NAME ARGS...
check() {
	name=$1
	shift
	n=$((n + 1))
	if ! $KTF --exits=csv "$@" > "$T/rows.csv" 2> "$T/err" ||
	   ! $KTF --stats=json "$@" > "$T/stats.json" 2>> "$T/err"; then
		echo "not ok $n - $name: kvmtrace_format failed"
		sed 's/^/# /' "$T/err"
		fail=$((fail + 1))
		return
	fi
	# the table as documented (doc/kvmtrace_format.1, FILES)
	sqlite3 -bail -batch > "$T/out" 2> "$T/err" <<SQL
CREATE TABLE exits (host TEXT, input TEXT, vm TEXT, vcpu INTEGER,
	reason INTEGER, reason_name TEXT, start_ns INTEGER,
	duration_ns INTEGER, guest_rip TEXT, guest_sym TEXT, domain TEXT);
.import --csv --skip 1 $T/rows.csv exits
CREATE VIEW by_reason AS
	SELECT domain, reason, reason_name,
	       count(NULLIF(duration_ns, '')) AS count,
	       sum(NULLIF(duration_ns, '')) AS total,
	       min(NULLIF(duration_ns, '')) AS min,
	       max(NULLIF(duration_ns, '')) AS max,
	       count(*) - count(NULLIF(duration_ns, '')) AS unpaired
	FROM exits GROUP BY domain, reason, reason_name;
CREATE TABLE doc AS SELECT readfile('$T/stats.json') AS j;
CREATE VIEW stats AS
	SELECT json_extract(value, '\$.domain') AS domain,
	       json_extract(value, '\$.value') AS reason,
	       json_extract(value, '\$.reason') AS reason_name,
	       json_extract(value, '\$.count') AS count,
	       CAST(round(json_extract(value, '\$.total_us') * 1000) AS INTEGER) AS total,
	       CAST(round(json_extract(value, '\$.min_us') * 1000) AS INTEGER) AS min,
	       CAST(round(json_extract(value, '\$.max_us') * 1000) AS INTEGER) AS max,
	       json_extract(value, '\$.unpaired') AS unpaired
	FROM doc, json_each(doc.j, '\$.exits_by_reason')
	WHERE json_extract(value, '\$.domain') != 'all';
SELECT 'reasons', count(*) FROM by_reason;
SELECT 'rows', count(*) FROM exits;
SELECT 'differ', r.domain, r.reason, r.reason_name, r.count, s.count,
       r.total, s.total, r.min, s.min, r.max, s.max, r.unpaired, s.unpaired
FROM by_reason r LEFT JOIN stats s
     ON s.domain = r.domain AND s.reason = r.reason
	AND s.reason_name = r.reason_name
WHERE s.count IS NOT r.count OR coalesce(s.total, 0) IS NOT coalesce(r.total, 0)
   OR s.min IS NOT r.min OR s.max IS NOT r.max OR s.unpaired IS NOT r.unpaired;
SELECT 'missing', s.domain, s.reason_name FROM stats s
WHERE NOT EXISTS (SELECT 1 FROM by_reason r WHERE r.domain = s.domain
		  AND r.reason = s.reason AND r.reason_name = s.reason_name);
SQL
	reasons=$(sed -n 's/^reasons|//p' "$T/out")
	rows=$(sed -n 's/^rows|//p' "$T/out")
	if [ -s "$T/err" ] || [ "${reasons:-0}" -eq 0 ] ||
	   grep -q '^differ\|^missing' "$T/out"; then
		echo "not ok $n - $name"
		sed 's/^/# /' "$T/out" "$T/err"
		fail=$((fail + 1))
	else
		echo "ok $n - $name: SQLite's GROUP BY over $rows rows is --stats' $reasons reasons"
	fi
}

check "kvmtrace with -c" -c 1000 $fix/exits/exits-elf.kvmtrace
check "kvmtrace sample" -c 1000 $fix/kvmtrace/sample.bin
if [ -n "${KTF_HAVE_TRACECMD:-}" ]; then
	check "trace.dat" $fix/exits/host-exits.dat
	check "perf.data" $fix/perf/gen-stats.data
fi
echo "1..$n"
[ "$fail" -eq 0 ]
