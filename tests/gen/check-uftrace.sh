#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-uftrace.sh KTF DIR... — compare what kvmtrace_format reads from
# uftrace data directories with `uftrace dump`, record by record: time
# stamp, tid, type (entry, exit, event, lost), function or event name,
# address, depth, and on exits the duration since the matching entry
# (computed here from the dump's depths). Exits 0 when every directory
# matches, 77 without uftrace.
#
# Our side prints every event through the rule
#   * %(tid)d %(ts)d %(type)s %(symbol)s %(addr)x %(depth)d %(duration)d
# The dump lists the tasks one after the other ("reading TID.dat"); ours is
# one time order, so both sides are sorted by tid, stably. The argument,
# return value and event data lines of the dump, and its perf-cpu*.dat
# and kernel-cpu* sections (perf sched events; the kernel records of
# record -k, which tests/cli/uftrace/kernel-* compare), are left out, and
# so are those on our side (ids 200000-200009; kernel function addresses
# from 0xffff000000000000; kernel events of record -k -E are not told
# apart). A function without a symbol is "<ADDR>" in the dump and
# "0xADDR" in our symbol field. Lost-records records are stamped 0 by libmcount and
# with the time of the record before them by us: their times are not
# compared.
#
# The dump's depth is the depth field as written; ours comes from a call
# stack. They agree for `uftrace record` data, not for QEMU's plugin
# (depths from 1, exits at the caller's depth) or rftrace (always 0): set
# NODEPTH=1 to leave depth and duration out for those.
set -u
ktf=${1:?usage: check-uftrace.sh KTF DIR...}
shift
command -v uftrace >/dev/null || { echo "check-uftrace: no uftrace"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-uftrace.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

printf '%s\n' '* %(tid)d %(ts)d %(type)s %(symbol)s %(addr)x %(depth)d %(duration)d' \
	>"$tmp/rules"

# "SEC.NSEC  TID: [TYPE] NAME(ADDR) depth: D" -> "TID TS TYPE NAME ADDR D DUR"
norm_dump() {
	awk -v nodepth="${NODEPTH:-}" '
	/^reading / { inperf = ($2 ~ /^perf-/ || $2 ~ /^kernel/); next }
	inperf { next }
	!/^ *[0-9]+\.[0-9]+ +-?[0-9]+: \[(entry|exit |event|lost )\] / { next }
	{
		ts = $1; sub(/:$/, "", $2); tid = $2
		sec = ts; sub(/\..*/, "", sec)
		ns = ts; sub(/.*\./, "", ns)
		line = $0
		type = substr(line, index(line, "[") + 1, 5); sub(/ +$/, "", type)
		rest = substr(line, index(line, "] ") + 2)
		# NAME(ADDR) depth: D, NAME may hold parentheses
		d = rest; sub(/.* depth: /, "", d)
		sub(/ depth: [0-9]+$/, "", rest)
		addr = rest; sub(/.*\(/, "", addr); sub(/\)$/, "", addr)
		name = substr(rest, 1, length(rest) - length(addr) - 2)
		t = sec ns; sub(/^0+/, "", t); if (t == "") t = "0"
		# libmcount stamps lost records 0; we give them the time before
		if (type == "lost") t = "-"
		dur = 0
		if (type == "entry") {
			s[tid, d] = sec; n[tid, d] = ns
		} else if (type == "exit" && ((tid, d) in s)) {
			dur = (sec - s[tid, d]) * 1000000000 + (ns - n[tid, d])
			delete s[tid, d]
		}
		if (nodepth)
			printf "%s %s %s %s %s\n", tid, t, type, name, addr
		else
			printf "%s %s %s %s %s %s %d\n", tid, t, type, name, addr, d, dur
	}'
}

norm_ours() {
	awk -v nodepth="${NODEPTH:-}" '{
		if (($3 == "entry" || $3 == "exit") && length($5) == 16 &&
		    substr($5, 1, 4) == "ffff")
			next	# a kernel function (record -k)
		if ($3 == "event" && $0 ~ / 30d4[0-9] -?[0-9]+ -?[0-9]+$/)
			next	# a perf event (linux:sched-in, ...)
		if ($4 == "0x" $5) $4 = "<" $5 ">"
		if ($3 == "lost") $2 = "-"
		if (nodepth)
			print $1, $2, $3, $4, $5
		else
			print
	}'
}

status=0
for dir in "$@"; do
	if ! uftrace dump -d "$dir" >"$tmp/dump" 2>"$tmp/dump.err"; then
		echo "SKIP $dir: uftrace dump fails: $(head -1 "$tmp/dump.err")"
		continue
	fi
	norm_dump <"$tmp/dump" | sort -s -n -k1,1 >"$tmp/want"
	if ! "$ktf" -f "$tmp/rules" "$dir" >"$tmp/got.raw" 2>"$tmp/got.err"; then
		echo "FAIL $dir: kvmtrace_format: $(head -1 "$tmp/got.err")"
		status=1
		continue
	fi
	norm_ours <"$tmp/got.raw" | sort -s -n -k1,1 >"$tmp/got"
	n=$(wc -l <"$tmp/want")
	if cmp -s "$tmp/want" "$tmp/got"; then
		echo "ok   $dir: $n records match uftrace dump"
	else
		echo "FAIL $dir: differs from uftrace dump ($n records):"
		diff "$tmp/want" "$tmp/got" | head -10 | sed 's/^/     /'
		status=1
	fi
done
exit $status
