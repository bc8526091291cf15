#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench-tracedat.sh [BIG.dat] — kvmtrace_format beside `trace-cmd report` on
# a large trace.dat, side by side in one run: a template of fields only
# (ts, cpu, comm, pid, name) and a template with %(info)s. Without an
# argument it records one with contrib/record-big.sh (root, /dev/kvm,
# tracefs; about 540k kvm events). KTF: the binary (default ./kvmtrace_format).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
ktf=${KTF:-./kvmtrace_format}
RUNS=${RUNS:-3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktf-bench-td.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
dat=${1:-}
if [ -z "$dat" ]; then
	sh "$top/contrib/record-big.sh" "$tmp/big" > /dev/null
	dat=$tmp/big/big.dat
fi
printf '* %%(ts)d %%(cpu)d %%(comm)s %%(pid)d %%(name)s\n' > "$tmp/fields"
printf '* %%(comm)s-%%(pid)d [%%(cpu)03d] %%(ts)d: %%(name)s: %%(info)s\n' > "$tmp/info"
n=$("$ktf" -f "$tmp/fields" "$dat" | wc -l)
echo "trace: $dat, $n events"

best() {
	local b= t0 t1 t i
	for i in $(seq "$RUNS"); do
		t0=$(date +%s%N)
		"$@" > /dev/null 2>&1
		t1=$(date +%s%N)
		t=$((t1 - t0))
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
	done
	echo "$b"
}
line() { awk -v l="$1" -v ns="$2" -v n="$n" -v r="$3" 'BEGIN { printf "%-44s %8.3f s %7.2f M events/s  %s\n", l, ns / 1e9, n / (ns / 1e9) / 1e6, r }'; }
tc=$(best trace-cmd report -i "$dat")
fi_=$(best "$ktf" -f "$tmp/fields" "$dat")
in_=$(best "$ktf" -f "$tmp/info" "$dat")
line "trace-cmd report" "$tc" ""
line "kvmtrace_format, fields only" "$fi_" "$(awk -v a="$fi_" -v b="$tc" 'BEGIN { printf "ratio %.3f (target <= 0.25)", a / b }')"
line "kvmtrace_format, with %(info)s" "$in_" "$(awk -v a="$in_" -v b="$tc" 'BEGIN { printf "ratio %.3f (target <= 0.8)", a / b }')"
