#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench-sinks.sh — the cost of --chrome and --stats against plain text
# output (--chrome needs the TSC's rate: -c or --tsc-mhz), on the same
# generated kvmtrace stream (gen-kvmtrace -n N), each
# the best of RUNS runs, written to /dev/null. Target: both at most 1.5
# times the text output's time.
#
# Run from the build directory, or set KTF (the binary) and GEN
# (gen-kvmtrace). N=records (default 2000000), RUNS (default 5).
set -eu
N=${N:-2000000}
RUNS=${RUNS:-5}
build=${KTF_BUILDDIR:-$(pwd)}
ktf=${KTF:-$build/kvmtrace_format}
gen=${GEN:-$build/tests/gen/gen-kvmtrace}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktf-bench-sinks.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$gen" -m -r -n "$N" -s 7 > "$tmp/trace.bin"
echo "trace: $N records, $(($(stat -c %s "$tmp/trace.bin") / 1048576)) MiB (gen-kvmtrace -m -r -n $N -s 7: VMX exit reasons 0..69); best of $RUNS runs"

now() { date +%s%N; }
# best wall-clock ns of: $ktf "$@" trace > /dev/null
best() {
	local b= t0 t1 t i
	for i in $(seq "$RUNS"); do
		t0=$(now)
		"$ktf" "$@" "$tmp/trace.bin" > /dev/null
		t1=$(now)
		t=$((t1 - t0))
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
	done
	echo "$b"
}
secs() { awk -v ns="$1" 'BEGIN { printf "%.3f", ns / 1e9 }'; }
size() { "$ktf" "$@" "$tmp/trace.bin" | wc -c | awk '{ printf "%.1f MiB", $1 / 1048576 }'; }

text=$(best)
chrome=$(best --chrome --tsc-mhz 2400)
stats=$(best --stats)
chrome_c=$(best --chrome -c 2400)
stats_c=$(best --stats -c 2400)

printf '%-26s %8s s   %-10s %s\n' "mode" "time" "output" "ratio to text"
printf '%-26s %8s s   %-10s %s\n' "text (built-in rules)" "$(secs "$text")" "$(size)" "1.000"
for m in chrome stats chrome_c stats_c; do
	case $m in
	chrome) args="--chrome --tsc-mhz 2400" ;;
	stats) args="--stats" ;;
	chrome_c) args="--chrome -c 2400" ;;
	stats_c) args="--stats -c 2400" ;;
	esac
	t=${!m}
	# shellcheck disable=SC2086
	printf '%-26s %8s s   %-10s %s\n' "$args" "$(secs "$t")" "$(size $args)" \
		"$(awk -v a="$t" -v b="$text" 'BEGIN { r = a / b; printf "%.3f%s", r, r <= 1.5 ? "" : "  (over the 1.5 target)" }')"
done
