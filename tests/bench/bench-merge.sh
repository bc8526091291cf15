#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench-merge.sh — merging 8 kvmtrace inputs of 1M records each into one
# timeline, beside rendering the same 8 inputs one after another. Target
# (issue 37): the merge takes at most 1.05 times as long, wall and CPU
# (user + sys). Run from the build directory.
# N=records per input (default 1000000), K=inputs (default 8), RUNS=runs
# of each, the best kept (default 3). CALLGRIND=1 counts the instructions
# of both under valgrind's callgrind as well, and names the functions
# that take the most in the merged run: the measure to trust on a loaded
# machine, or one without hardware counters (take N=200000: it runs about
# 50 times slower).
set -eu
N=${N:-1000000}
K=${K:-8}
RUNS=${RUNS:-3}
top=$(cd "$(dirname "$0")/../.." && pwd)
ktf=${KTF:-./kvmtrace_format}
gen=${GEN:-./tests/gen/gen-kvmtrace}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktf-bench-merge.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
files=
for i in $(seq 0 $((K - 1))); do
	"$gen" -r -n "$N" -s $((i + 11)) > "$tmp/vm.kvmtrace.$i"
	files="$files $tmp/vm.kvmtrace.$i"
done
echo "inputs: $K x $N records (per-CPU kvmtrace files, interleaved TSCs)"
# best CMD...: "wall_ns cpu_ns" of the run with the least CPU time
best() {
	local b= bw= t0 t1 c i
	for i in $(seq "$RUNS"); do
		t0=$(date +%s%N)
		/usr/bin/time -o "$tmp/time" -f '%U %S' "$@" > /dev/null
		t1=$(date +%s%N)
		c=$(awk '{ printf "%.0f", ($1 + $2) * 1e9 }' "$tmp/time")
		if [ -z "$b" ] || [ "$c" -lt "$b" ]; then
			b=$c
			bw=$((t1 - t0))
		fi
	done
	echo "$bw $b"
}
merged=$(best "$ktf" -f "$top/formats/kvmtrace" $files)
apart=$(best sh -c 'for f; do "$0" -f "'"$top"'/formats/kvmtrace" "$f"; done' "$ktf" $files)
total=$((N * K))
awk -v m="$merged" -v a="$apart" -v n="$total" 'BEGIN {
	split(m, mm, " "); split(a, aa, " ")
	printf "%-28s %8.3f s wall %8.3f s CPU %7.2f M records/s\n", "merged into one timeline", mm[1] / 1e9, mm[2] / 1e9, n / (mm[1] / 1e9) / 1e6
	printf "%-28s %8.3f s wall %8.3f s CPU %7.2f M records/s\n", "rendered one after another", aa[1] / 1e9, aa[2] / 1e9, n / (aa[1] / 1e9) / 1e6
	printf "ratio: %.3f wall, %.3f CPU (target <= 1.05)\n", mm[1] / aa[1], mm[2] / aa[2] }'
if [ -n "${CALLGRIND:-}" ]; then
	cg() { # cg OUT CMD...: the instructions CMD ran
		local out=$1
		shift
		valgrind --tool=callgrind --callgrind-out-file="$out" "$@" \
			2>&1 > /dev/null | awk '/I *refs:/ { gsub(",", "", $NF); print $NF }'
	}
	im=$(cg "$tmp/cg.merged" "$ktf" -f "$top/formats/kvmtrace" $files)
	ia=0
	for f in $files; do
		ia=$((ia + $(cg "$tmp/cg.one" "$ktf" -f "$top/formats/kvmtrace" "$f")))
	done
	awk -v m="$im" -v a="$ia" -v n="$total" 'BEGIN {
		printf "instructions: merged %.0f M (%.0f a record), one by one %.0f M (%.0f a record), ratio %.3f\n", m / 1e6, m / n, a / 1e6, a / n, m / a }'
	echo "the merged run's top functions (callgrind, self):"
	callgrind_annotate --auto=no "$tmp/cg.merged" 2>/dev/null |
		awk '/file:function/ { on = 1; getline; next } on && NF { print "  " $0 }' | head -8
fi
