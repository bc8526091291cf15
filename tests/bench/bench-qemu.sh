#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench-qemu.sh — kvmtrace_format on a QEMU simple trace against QEMU's
# scripts/simpletrace.py on the same file, in one run: records per second
# of each (best of RUNS wall times) and their ratio, our output checked
# equal to simpletrace.py's, and our peak memory on a file of N records
# and of 4 N (flat: it must not grow with the file).
#
#   QEMU_SRC=~/src/qemu sh tests/bench/bench-qemu.sh
#
# QEMU_SRC is a QEMU source tree (for scripts/simpletrace.py and its
# tracetool), or SIMPLETRACE the path of a simpletrace.py with tracetool/
# beside it; without either only our side runs. Run from the build directory
# (or set KTF_SRCDIR/KTF_BUILDDIR). N records (default 500000), RUNS.
set -eu
N=${N:-500000}
RUNS=${RUNS:-3}
top=${KTF_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${KTF_BUILDDIR:-$(pwd)}
ktf=$build/kvmtrace_format
events=$top/tests/fixtures/qemu/trace-events
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktf-bench-qemu.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

python3 "$top/tests/bench/gen-big-qemu-simple.py" "$N" "$tmp/trace"
python3 "$top/tests/bench/gen-big-qemu-simple.py" $((4 * N)) "$tmp/trace4"
echo "file: $N records, $(($(wc -c < "$tmp/trace") / 1048576)) MiB"

best() {
	local bw= i t0 t1 w
	for i in $(seq "$RUNS"); do
		t0=$(date +%s%N)
		"$@" > /dev/null
		t1=$(date +%s%N)
		w=$((t1 - t0))
		if [ -z "$bw" ] || [ "$w" -lt "$bw" ]; then bw=$w; fi
	done
	echo "$bw"
}
row() {
	awk -v n="$N" -v w="$2" -v name="$1" 'BEGIN {
		printf "%-46s %8.3f s  %8.3f M records/s\n", name, w / 1e9,
		       n / (w / 1e9) / 1e6 }'
}

kw=$(best "$ktf" --qemu-events="$events" "$tmp/trace")
row "kvmtrace_format --qemu-events=EV FILE" "$kw"
fields='* %(ts)d %(pid)d %(name)s %(cpu_index)d'
printf '%s\n' "$fields" > "$tmp/rules"
fw=$(best "$ktf" --qemu-events="$events" -f "$tmp/rules" "$tmp/trace")
row "kvmtrace_format -f rules FILE (4 keys)" "$fw"
st=${SIMPLETRACE:-${QEMU_SRC:+$QEMU_SRC/scripts/simpletrace.py}}
if [ -n "$st" ] && [ -f "$st" ]; then
	sw=$(RUNS=1 best python3 "$st" "$events" "$tmp/trace")
	row "simpletrace.py EV FILE" "$sw"
	awk -v a="$kw" -v b="$sw" 'BEGIN {
		printf "ratio: kvmtrace_format is %.1fx as fast as simpletrace.py\n", b / a }'
	"$ktf" --qemu-events="$events" "$tmp/trace" > "$tmp/ours"
	python3 "$st" "$events" "$tmp/trace" > "$tmp/theirs"
	if cmp -s "$tmp/ours" "$tmp/theirs"; then
		echo "check: the same $(wc -l < "$tmp/ours") lines as simpletrace.py"
	else
		echo "check: OUTPUT DIFFERS from simpletrace.py"
		exit 1
	fi
else
	echo "simpletrace.py: not run (set QEMU_SRC to a QEMU source tree, or SIMPLETRACE to its simpletrace.py)"
fi
for f in trace trace4; do
	/usr/bin/time -o "$tmp/time" -f '%M' "$ktf" --qemu-events="$events" \
		"$tmp/$f" > /dev/null
	echo "memory: $(cat "$tmp/time") KiB peak for $(($(wc -c < "$tmp/$f") / 1048576)) MiB"
done
