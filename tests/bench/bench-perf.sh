#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench-perf.sh [BIG.data] — kvmtrace_format beside `perf script` on a
# perf.data of 1 M tracepoint samples, in one run: the default text (what
# `perf script -F trace:comm,tid,cpu,time,event,trace` prints; the two
# outputs are compared) and a template of fields only; records per second
# and the largest resident size of each (memory must stay flat).
# Without an argument the file is made by tests/gen/gen-perfdata.py
# (250000 kvm_exit/kvm_entry pairs on each of 2 vCPUs, 100 MB, in rounds
# out of time order). Needs perf (linux-perf) and /usr/bin/time.
# KTF: the binary (default ./kvmtrace_format); RUNS: best of (default 3).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
ktf=${KTF:-./kvmtrace_format}
RUNS=${RUNS:-3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktf-bench-perf.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
data=${1:-}
if [ -z "$data" ]; then
	python3 "$top/tests/gen/gen-perfdata.py" --pairs 250000 "$tmp/big.data"
	data=$tmp/big.data
fi
printf '* %%(ts)d %%(cpu)d %%(comm)s %%(pid)d %%(name)s\n' > "$tmp/fields"
"$ktf" "$data" > "$tmp/ours"
perf script -i "$data" -F trace:comm,tid,cpu,time,event,trace \
	> "$tmp/perf" 2> /dev/null
n=$(wc -l < "$tmp/perf")
if cmp -s "$tmp/ours" "$tmp/perf"; then same="same text"; else same="TEXT DIFFERS"; fi
echo "perf.data: $data, $n samples ($same)"

# best wall time in ns, and the largest RSS in KiB of that run
best() {
	local b= rss= t0 t1 t i
	for i in $(seq "$RUNS"); do
		t0=$(date +%s%N)
		/usr/bin/time -f %M -o "$tmp/rss" "$@" > /dev/null 2>&1
		t1=$(date +%s%N)
		t=$((t1 - t0))
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; rss=$(tail -1 "$tmp/rss"); fi
	done
	echo "$b $rss"
}
line() {
	awk -v l="$1" -v ns="$2" -v kb="$3" -v n="$n" -v r="$4" 'BEGIN {
		printf "%-36s %7.3f s %7.2f M records/s %8d KiB  %s\n",
		       l, ns / 1e9, n / (ns / 1e9) / 1e6, kb, r }'
}
read -r ps ps_kb < <(best perf script -i "$data" -F trace:comm,tid,cpu,time,event,trace)
read -r df df_kb < <(best "$ktf" "$data")
read -r fi_ fi_kb < <(best "$ktf" -f "$tmp/fields" "$data")
line "perf script -F trace:…" "$ps" "$ps_kb" ""
line "kvmtrace_format, default text" "$df" "$df_kb" "$(awk -v a="$df" -v b="$ps" 'BEGIN { printf "%.2fx faster (target >= 3x)", b / a }')"
line "kvmtrace_format, fields only" "$fi_" "$fi_kb" "$(awk -v a="$fi_" -v b="$ps" 'BEGIN { printf "%.2fx faster", b / a }')"
