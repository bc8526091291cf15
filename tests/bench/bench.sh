#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench.sh — kvmtrace_format against what a user would otherwise run, side
# by side in one run, on the same generated trace:
#   - a hand-written C loop that decodes the records and printf()s them with
#     the same templates (tests/bench/printf-loop.c),
#   - the 2008 Python tool's logic under Python 3 (tests/gen/ref_kvmtrace_format.py),
#     on a slice of the trace (it is slow), scaled per record.
# Prints records per second and ratios; checks that the outputs are equal.
# Run from the build directory (make bench). N=records (default 2000000).
set -eu
N=${N:-2000000}
RUNS=${RUNS:-3}
top=${KTF_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${KTF_BUILDDIR:-$(pwd)}
ktf=$build/kvmtrace_format
gen=$build/tests/gen/gen-kvmtrace
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktf-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

${CC:-cc} -O2 -o "$tmp/printf-loop" "$top/tests/bench/printf-loop.c"
"$gen" -n "$N" -s 7 -r > "$tmp/trace.bin"
echo "trace: $N records, $(($(stat -c %s "$tmp/trace.bin") / 1048576)) MiB; rules: formats/kvmtrace"

now() { date +%s%N; }
# best of RUNS wall-clock nanoseconds of: $@ < trace > /dev/null; the CPU
# time (user + sys) of that run goes to $tmp/cpu (a loaded machine stretches
# wall time, not CPU time)
best() {
	local b= t0 t1 t i c
	for i in $(seq "$RUNS"); do
		t0=$(now)
		c=$( { /usr/bin/time -f "%U %S" "$@" < "$tmp/trace.bin" > /dev/null; } 2>&1 | tail -1)
		t1=$(now)
		t=$((t1 - t0))
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then
			b=$t
			echo "$c" | awk '{ printf "%d", ($1 + $2) * 1e9 }' > "$tmp/cpu"
		fi
	done
	echo "$b"
}
rate() { awk -v n="$1" -v ns="$2" 'BEGIN { printf "%.2f", n / (ns / 1e9) / 1e6 }'; }
secs() { awk -v ns="$1" 'BEGIN { printf "%.3f", ns / 1e9 }'; }

ours=$(best "$ktf" "$top/formats/kvmtrace"); ours_cpu=$(cat "$tmp/cpu")
base=$(best "$tmp/printf-loop"); base_cpu=$(cat "$tmp/cpu")
printf '%-34s %9s s wall %7s M records/s   %6s s CPU\n' "kvmtrace_format formats/kvmtrace" "$(secs "$ours")" "$(rate "$N" "$ours")" "$(secs "$ours_cpu")"
printf '%-34s %9s s wall %7s M records/s   %6s s CPU\n' "printf loop (C, same templates)" "$(secs "$base")" "$(rate "$N" "$base")" "$(secs "$base_cpu")"
awk -v a="$ours" -v b="$base" -v ac="$ours_cpu" -v bc="$base_cpu" 'BEGIN { printf "ratio: kvmtrace_format takes %.3f of the printf loop'"'"'s wall time, %.3f of its CPU time (target <= 0.333)\n", a / b, (bc ? ac / bc : 0) }'

ref=$top/tests/gen/ref_kvmtrace_format.py
if command -v python3 > /dev/null && [ -f "$ref" ]; then
	M=$((N / 20))
	"$gen" -n "$M" -s 7 -r > "$tmp/slice.bin"
	t0=$(now)
	python3 "$ref" "$top/formats/kvmtrace" < "$tmp/slice.bin" > "$tmp/ref.out"
	t1=$(now)
	py=$((t1 - t0))
	printf '%-34s %9s s  %7s M records/s  (%d records)\n' "2008 tool's logic, Python 3" "$(secs "$py")" "$(rate "$M" "$py")" "$M"
	awk -v a="$ours" -v n="$N" -v p="$py" -v m="$M" 'BEGIN { printf "ratio: kvmtrace_format is %.0f times faster per record than the Python tool\n", (p / m) / (a / n) }'
	"$ktf" "$top/formats/kvmtrace" < "$tmp/slice.bin" | cmp -s - "$tmp/ref.out" &&
		echo "check: output equal to the Python tool's on the slice" ||
		{ echo "check: OUTPUT DIFFERS from the Python tool's"; exit 1; }
fi

a=$("$ktf" "$top/formats/kvmtrace" < "$tmp/trace.bin" | md5sum)
b=$("$tmp/printf-loop" < "$tmp/trace.bin" | md5sum)
[ "$a" = "$b" ] && echo "check: output equal to the printf loop's" ||
	{ echo "check: OUTPUT DIFFERS from the printf loop's"; exit 1; }

# memory: the same at a quarter of the trace as at all of it
head -c $(($(stat -c %s "$tmp/trace.bin") / 4)) "$tmp/trace.bin" > "$tmp/quarter.bin"
m1=$( { /usr/bin/time -f %M "$ktf" "$top/formats/kvmtrace" < "$tmp/quarter.bin" > /dev/null; } 2>&1 | tail -1)
m2=$( { /usr/bin/time -f %M "$ktf" "$top/formats/kvmtrace" < "$tmp/trace.bin" > /dev/null; } 2>&1 | tail -1)
echo "memory: max RSS $m1 KiB on a quarter of the trace, $m2 KiB on all of it"
