#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench-merge.sh — merging 8 kvmtrace inputs of 1M records each into one
# timeline, beside rendering the same 8 inputs one after another. Target:
# the merge takes at most 1.5x the time. Run from the build directory.
# N=records per input (default 1000000), K=inputs (default 8).
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
best() {
	local b= t0 t1 t i
	for i in $(seq "$RUNS"); do
		t0=$(date +%s%N)
		"$@" > /dev/null
		t1=$(date +%s%N)
		t=$((t1 - t0))
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
	done
	echo "$b"
}
one_by_one() { for f in $files; do "$ktf" -f "$top/formats/kvmtrace" "$f"; done; }
merged=$(best "$ktf" -f "$top/formats/kvmtrace" $files)
apart=$(best one_by_one)
total=$((N * K))
awk -v m="$merged" -v a="$apart" -v n="$total" 'BEGIN {
	printf "%-36s %8.3f s %7.2f M records/s\n", "merged into one timeline", m / 1e9, n / (m / 1e9) / 1e6
	printf "%-36s %8.3f s %7.2f M records/s\n", "rendered one after another", a / 1e9, n / (a / 1e9) / 1e6
	printf "ratio: %.3f (target <= 1.5)\n", m / a }'
