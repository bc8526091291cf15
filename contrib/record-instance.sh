#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# record-instance.sh - record tests/fixtures/tracedat/instance*.dat: a
# trace.dat whose events sit in an instance buffer, as `trace-cmd record
# -B NAME` writes it (issue 35): two instances, the top buffer empty.
#
# usage: contrib/record-instance.sh [OUTDIR]   (default tests/fixtures/tracedat)
#
#   instance-v7.dat   `trace-cmd record -d --no-filter -C local
#                     -B ktf -e sched:sched_switch -f '...sleep...'
#                     -B wake -e sched:sched_wakeup -f 'comm == "sleep"'
#                     -e sched:sched_process_exec
#                     sh -c 'for i in 1 2 3 4 5 6; do sleep 0.01; done'`:
#                     the switches to and from six sleep processes in
#                     instance "ktf", their wakeups and every exec in instance
#                     "wake", nothing in the top buffer; v7, zstd
#                     (trace-cmd record's default). (Events in the top
#                     buffer too fail here: trace-cmd then stops at the
#                     top's set_ftrace_filter before the instances record.)
#   instance-v6.dat   the same file, `trace-cmd convert --file-version 6`
# and for each: .report, `trace-cmd report -i FILE` (3.1.6 was used);
# instance-v7+v6.report: `trace-cmd report -i instance-v7.dat -i
# instance-v6.dat`.
#
# Plain `trace-cmd record` fails on these machines (it cannot write
# /proc/sys/kernel/ftrace_enabled or set_ftrace_pid): -d --no-filter
# avoids both. trace-cmd 3.1.6 still fails at the end, opening the
# instance's set_ftrace_filter to reset it, after the file is written:
# the exit status is not trusted, the file is checked instead, and the
# instance it leaves is removed. To keep the file small, kallsyms is a
# 3-line stub and only the ftrace and sched formats go in (bind-mounted
# over the real ones in a private mount namespace, as record-host.sh
# does). Must run as root; the machine's own load makes the events.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
outdir=${1:-$here/../tests/fixtures/tracedat}
T=/sys/kernel/tracing
name=ktf
name2=wake

mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
tmp=$(mktemp -d)
cleanup() {
	for n in "$name" "$name2"; do
		if [ -d "$T/instances/$n" ]; then rmdir "$T/instances/$n"; fi
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

[ -e $T/trace_clock ] || { echo "record-instance.sh: no tracefs at $T" >&2; exit 1; }
for n in "$name" "$name2"; do
	[ ! -e "$T/instances/$n" ] ||
		{ echo "record-instance.sh: instance $n exists already" >&2; trap - EXIT; rm -rf "$tmp"; exit 1; }
done

grep -E ' (_text|_stext|_etext)$' /proc/kallsyms > "$tmp/kallsyms"
evdir=$tmp/events
mkdir "$evdir"
cp $T/events/header_page $T/events/header_event "$evdir/"
# each event's format, and its enable and filter files (trace-cmd record
# looks for them in the top directory before it enables the instance's)
for sys in ftrace sched; do
	cp $T/events/$sys/enable $T/events/$sys/filter "$evdir/" 2>/dev/null || true
	for f in "$T/events/$sys"/*/format; do
		d=${f%/format}
		e=$evdir/$sys/${d##*/}
		mkdir -p "$e"
		for g in format enable filter id; do
			if [ -e "$d/$g" ]; then cat "$d/$g" > "$e/$g"; fi
		done
	done
	if [ -e "$T/events/$sys/enable" ]; then cat "$T/events/$sys/enable" > "$evdir/$sys/enable"; fi
done
rm -f "$evdir/enable" "$evdir/filter"
cat $T/events/enable > "$evdir/enable"

# shellcheck disable=SC2016 # expanded by the inner sh
unshare -m sh -c '
	mount --bind "$1" /proc/kallsyms || exit 1
	mount --bind "$2" "$3" || exit 1
	shift 3
	exec "$@"' sh "$tmp/kallsyms" "$evdir" "$T/events" \
	trace-cmd record -d --no-filter -C local \
	-B "$name" -e sched:sched_switch \
	-f 'prev_comm == "sleep" || next_comm == "sleep"' \
	-B "$name2" -e sched:sched_wakeup -f 'comm == "sleep"' \
	-e sched:sched_process_exec \
	-o "$tmp/rec.dat" sh -c 'for i in 1 2 3 4 5 6; do sleep 0.01; done' \
	> "$tmp/record.log" 2>&1 || true
trace-cmd report -i "$tmp/rec.dat" 2> /dev/null | grep -q "^ *$name: " ||
	{ cat "$tmp/record.log" >&2; echo "record-instance.sh: no events in buffer $name" >&2; exit 1; }

cp "$tmp/rec.dat" "$outdir/instance-v7.dat"
trace-cmd convert -i "$tmp/rec.dat" -o "$outdir/instance-v6.dat" \
	--file-version 6 > "$tmp/convert.log" 2>&1 ||
	{ cat "$tmp/convert.log" >&2; exit 1; }
for f in "$outdir/instance-v7.dat" "$outdir/instance-v6.dat"; do
	trace-cmd report -i "$f" > "$f.report" 2> /dev/null
	echo "record-instance.sh: wrote $f ($(wc -c < "$f") bytes, $(wc -l < "$f.report") lines of report)" >&2
done
# both as two inputs: each file's name before its top buffer's lines, the
# instance names before theirs, one width for all
(cd "$outdir" && trace-cmd report -i instance-v7.dat -i instance-v6.dat \
	> instance-v7+v6.report 2> /dev/null)
