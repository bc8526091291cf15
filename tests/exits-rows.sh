#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# exits-rows.sh — the rows of --exits add up to --stats=json: on every
# fixture with exits (kvmtrace streams, trace.dat, perf.data) and on
# generated streams, per reason and in all, the rows with a duration are
# its count, their sum its total, their min and max its min and max, the
# rows without one its unpaired (tests/exits-rows.py); and --exits=jsonl
# holds the CSV's rows value for value; start_ns and duration_ns at the
# edges of seconds are the exact roundings (tests/exits-ns.py). TAP out;
# SKIP without python3.
set -u
: "${KTF:?}" "${KTF_SRCDIR:?}"
cd "$KTF_SRCDIR" || exit 99
if ! command -v python3 > /dev/null; then
	echo "1..0 # SKIP needs python3"
	exit 0
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/ktf-exits-rows.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
fix=tests/fixtures
n=0
fail=0

# check NAME ARGS...: rows of --exits ARGS against --stats=json ARGS
check() {
	name=$1
	shift
	n=$((n + 1))
	# bad data (a truncated input): exit 1, every row before it written
	$KTF --exits "$@" > "$T/rows.csv" 2> "$T/err"
	r1=$?
	$KTF --exits=jsonl "$@" > "$T/rows.jsonl" 2>> "$T/err"
	r2=$?
	$KTF --stats=json "$@" > "$T/stats.json" 2>> "$T/err"
	r3=$?
	if [ $r1 -gt 1 ] || [ $r1 -ne $r2 ] || [ $r1 -ne $r3 ]; then
		echo "not ok $n - $name: kvmtrace_format failed ($r1 $r2 $r3)"
		sed 's/^/# /' "$T/err"
		fail=$((fail + 1))
		return
	fi
	python3 tests/exits-rows.py "$T/rows.csv" "$T/stats.json" \
		"$T/rows.jsonl" > "$T/tap"
	rc=$?
	rows=$(($(wc -l < "$T/rows.csv") - 1))
	if [ "$rc" -eq 0 ] && [ "$rows" -gt 0 ]; then
		echo "ok $n - $name: $rows rows add up to --stats ($(grep -c '^ok' "$T/tap") checks)"
	else
		echo "not ok $n - $name ($rows rows)"
		grep -v '^ok' "$T/tap" | sed 's/^/# /'
		fail=$((fail + 1))
	fi
}

for f in $fix/exits/exits-elf.kvmtrace $fix/kvmtrace/sample.bin \
	 $fix/kvmtrace/sample-be.bin $fix/kvmtrace/random.bin \
	 $fix/kvmtrace/truncated.bin $fix/sinks/exits.kvmtrace \
	 $fix/sinks/truncated.kvmtrace; do
	check "$f" -c 1000 "$f"
done
check "two kvmtrace inputs on one timeline" -c 2400 $fix/sinks/exits.kvmtrace \
	$fix/exits/exits-elf.kvmtrace
check "per-CPU kvmtrace files" -c 1000 $fix/kvmtrace/vm.kvmtrace.0 \
	$fix/kvmtrace/vm.kvmtrace.1
check "--guest-syms" -c 1000 --guest-syms $fix/exits/guest.elf \
	$fix/exits/exits-elf.kvmtrace
# start_ns and duration_ns at the edges of seconds, against exact sums
for mhz in 2400 1000 1234.567; do
	n=$((n + 1))
	python3 tests/exits-ns.py gen $mhz "$T/ns.kvmtrace"
	if $KTF --exits -c $mhz "$T/ns.kvmtrace" > "$T/ns.csv" 2> "$T/err" &&
	   python3 tests/exits-ns.py check $mhz "$T/ns.csv" > "$T/tap"; then
		echo "ok $n - -c $mhz: $(cat "$T/tap"): start_ns and duration_ns rounded as --stats rounds"
	else
		echo "not ok $n - -c $mhz: start_ns and duration_ns"
		sed 's/^/# /' "$T/err" "$T/tap"
		fail=$((fail + 1))
	fi
done
gen=${KTF_BUILDDIR:-.}/tests/gen/gen-kvmtrace
if [ -x "$gen" ]; then
	"$gen" -n 40000 -r -m -u 0 -s 7 > "$T/gen.kvmtrace"
	check "generated kvmtrace, 40000 records" -c 2400 "$T/gen.kvmtrace"
fi
if [ -n "${KTF_HAVE_TRACECMD:-}" ]; then
	for f in $fix/exits/host-exits.dat $fix/exits/host-exits-anon.dat \
		 $fix/perf/gen-stats.data $fix/perf/gen-zoo.data \
		 $fix/perf/gen-618-be.data $fix/perf/gen-zstd-pipe.data; do
		check "$f" "$f"
	done
	python3 tests/gen/gen-exits.py tracedat $fix/tracedat/host-kvm-v6.dat \
		$fix/exits/guest.kallsyms --seed 3 --exits 3000 > "$T/h.dat"
	check "generated trace.dat, 3000 exits" "$T/h.dat"
	check "two hosts (UNAME host-a, host-b), the same pids" \
		$fix/exits/host-a.dat $fix/exits/host-b7.dat
	check "trace.dat with --guest-syms" --guest-syms $fix/exits/guest.kallsyms \
		$fix/exits/host-exits.dat
fi
echo "1..$n"
[ "$fail" -eq 0 ]
