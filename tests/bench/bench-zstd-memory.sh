#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench-zstd-memory.sh [EVENTS] — peak memory (maximum resident set) of
# kvmtrace_format beside `trace-cmd report` on one zstd trace.dat of
# EVENTS events (default 10 M) as trace-cmd 3.2 and later write it (each
# CPU's size counts the chunk count), and the rate of each, in one run.
# The file: tests/bench/gen-big-tracedat.py (version 6, from the recorded
# fixture), `trace-cmd convert --compression zstd` (Debian's 3.1.6 writes
# 3.1's sizes), tests/gen/mangle-tracedat.py sizes-3.2. kvmtrace_format
# reads it through its uncompressed copy in TMPDIR (about 40 bytes an
# event on disk, gone when it ends); the target is a peak under 64 MiB.
# KTF: the binary (default ./kvmtrace_format). Needs GNU time.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
ktf=${KTF:-./kvmtrace_format}
events=${1:-10000000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktf-bench-zm.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
python3 "$top/tests/bench/gen-big-tracedat.py" \
	"$top/tests/fixtures/tracedat/host-kvm-v6.dat" "$tmp/v6.dat" "$events" \
	> /dev/null
trace-cmd convert -i "$tmp/v6.dat" -o "$tmp/v7.dat" --file-version 7 \
	--compression zstd > /dev/null 2>&1
rm -f "$tmp/v6.dat"
python3 "$top/tests/gen/mangle-tracedat.py" sizes-3.2 "$tmp/v7.dat" "$tmp/big.dat"
rm -f "$tmp/v7.dat"
printf '* %%(ts)d %%(cpu)d %%(name)s\n' > "$tmp/fields"
echo "trace: $(stat -c %s "$tmp/big.dat") bytes, zstd, trace-cmd 3.2 sizes"

# run LABEL CMD...: its records per second and its peak resident set
run() {
	local label=$1 t0 t1 n kb
	shift
	t0=$(date +%s%N)
	n=$(/usr/bin/time -f '%M' -o "$tmp/rss" "$@" 2> /dev/null | wc -l)
	t1=$(date +%s%N)
	kb=$(tail -n 1 "$tmp/rss")
	awk -v l="$label" -v n="$n" -v ns="$((t1 - t0))" -v kb="$kb" 'BEGIN {
		printf "%-36s %9d lines %7.2f M/s  peak %7.1f MiB%s\n", l, n,
		       n / (ns / 1e9) / 1e6, kb / 1024,
		       l ~ /^kvmtrace/ ? (kb < 65536 ? "  (target < 64 MiB: ok)" : "  (target < 64 MiB: OVER)") : ""
	}'
}
run "trace-cmd report" trace-cmd report -i "$tmp/big.dat"
run "kvmtrace_format, default text" "$ktf" "$tmp/big.dat"
run "kvmtrace_format, fields only" "$ktf" -f "$tmp/fields" "$tmp/big.dat"
