#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# record-host.sh - record a host trace.dat of contrib/tinyguest by hand.
#
# `trace-cmd record` cannot be used on these machines (it fails to write
# /proc/sys/kernel/ftrace_enabled), so this script drives tracefs itself:
# mount it if needed, save the settings it touches, set the clock, buffer
# size and events, turn tracing on, run tinyguest, turn tracing off,
# `trace-cmd extract`, and restore every setting on exit (also on error
# or Ctrl-C).
#
# usage: record-host.sh [options] [-- tinyguest options]
#   -o FILE     output trace.dat (default host.dat)
#   -C CLOCK    trace_clock (default x86-tsc)
#   -b KB       per-CPU buffer_size_kb while recording (default 1024)
#   -e EVENT    event to enable, set_event syntax (kvm:*, sched:sched_switch,
#               irq:*); repeatable; default kvm:*
#   -n N        guest samples (default 20)
#   -G FILE     write the guest samples as a kvmtrace stream (tinyguest -o)
#   -S FILE     write tinyguest's stdout (the samples) to FILE
#   -W CMD      run CMD in the background while tinyguest runs (load for
#               sched/irq events on other CPUs); waited for before stopping
#   -g PATH     tinyguest binary (default: build contrib/tinyguest.c)
#   -K FILE     kallsyms to store in the file: "full" keeps /proc/kallsyms
#               (5 MB here), FILE replaces it; default: a 3-line stub
#               (_text, _stext, _etext) so that fixtures stay small.
#               Done by bind-mounting over /proc/kallsyms in a private
#               mount namespace (unshare -m) around trace-cmd extract.
#   -F SYSTEMS  event systems whose formats go into the file (space or
#               comma separated); "all" keeps all (about 100 systems, 2 MB
#               uncompressed); default: the systems of the -e events plus
#               ftrace. Done like -K, by bind-mounting a copy of the
#               chosen events/*/*/format files over tracefs events/.
#   -v          show trace-cmd extract's messages
#
# Must run as root. Leaves trace_clock, buffer_size_kb, set_event,
# current_tracer and tracing_on as they were, and unmounts tracefs if it
# mounted it.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
out=host.dat
clock=x86-tsc
bufkb=1024
events=
nsamples=20
guestout=
samplesout=
workload=
tinyguest=
verbose=
kallsyms=
systems=

while getopts o:C:b:e:n:G:S:W:g:K:F:vh opt; do
	case $opt in
	o) out=$OPTARG ;;
	C) clock=$OPTARG ;;
	b) bufkb=$OPTARG ;;
	e) events="$events $OPTARG" ;;
	n) nsamples=$OPTARG ;;
	G) guestout=$OPTARG ;;
	S) samplesout=$OPTARG ;;
	W) workload=$OPTARG ;;
	g) tinyguest=$OPTARG ;;
	K) kallsyms=$OPTARG ;;
	F) systems=$(echo "$OPTARG" | tr , ' ') ;;
	v) verbose=1 ;;
	h) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ -n "$events" ] || events="kvm:*"

T=/sys/kernel/tracing
tmp=$(mktemp -d)
mounted=
saved=

restore() {
	set +e
	if [ -n "$saved" ]; then
		echo 0 > $T/tracing_on
		echo > $T/set_event
		while IFS= read -r ev; do
			[ -n "$ev" ] && echo "$ev" >> $T/set_event
		done < "$tmp/set_event"
		cat "$tmp/current_tracer" > $T/current_tracer
		cat "$tmp/trace_clock" > $T/trace_clock
		cat "$tmp/buffer_size_kb" > $T/buffer_size_kb
		cat "$tmp/tracing_on" > $T/tracing_on
	fi
	if [ -n "$mounted" ]; then
		umount $T
	fi
	rm -rf "$tmp"
}
trap restore EXIT
trap 'exit 130' INT TERM HUP

# Only one recording at a time (other users of this script wait).
exec 9> /tmp/kvmtrace-record-host.lock
flock -w 120 9 || { echo "record-host.sh: tracefs is busy" >&2; exit 1; }

if [ ! -e $T/trace_clock ]; then
	mount -t tracefs nodev $T
	mounted=1
fi

# Save what we touch. trace_clock shows "[local] global ...";
# buffer_size_kb may read "7 (expanded: 1408)": the buffer is still at its
# boot minimum and grows to the expanded size as soon as anything traces,
# so the expanded size is the one to restore.
sed -n 's/.*\[\(.*\)\].*/\1/p' $T/trace_clock > "$tmp/trace_clock"
sed -n 's/.*expanded: \([0-9]*\)).*/\1/p; t; s/^\([0-9]*\).*/\1/p' \
	$T/buffer_size_kb > "$tmp/buffer_size_kb"
cat $T/set_event > "$tmp/set_event"
cat $T/current_tracer > "$tmp/current_tracer"
cat $T/tracing_on > "$tmp/tracing_on"
saved=1

if [ -z "$tinyguest" ]; then
	tinyguest=$tmp/tinyguest
	cc -O2 -Wall -o "$tinyguest" "$here/tinyguest.c"
fi

echo 0 > $T/tracing_on
echo > $T/set_event
echo nop > $T/current_tracer
echo "$clock" > $T/trace_clock
echo "$bufkb" > $T/buffer_size_kb
echo > $T/trace
set -f
for ev in $events; do
	echo "$ev" >> $T/set_event
done
set +f

set -- -n "$nsamples" ${guestout:+-o "$guestout"} "$@"
echo 1 > $T/tracing_on
wpid=
if [ -n "$workload" ]; then
	sh -c "$workload" &
	wpid=$!
fi
status=0
"$tinyguest" "$@" > "$tmp/samples" || status=$?
if [ -n "$wpid" ]; then
	wait "$wpid" || true
fi
echo 0 > $T/tracing_on

# Someone else driving tracefs at the same time would spoil the recording.
if ! grep -q "\[$clock\]" $T/trace_clock; then
	echo "record-host.sh: trace_clock changed during the recording" >&2
	exit 1
fi

if [ -n "$samplesout" ]; then
	cp "$tmp/samples" "$samplesout"
fi
if [ "$status" -ne 0 ]; then
	echo "record-host.sh: tinyguest failed (exit $status)" >&2
	exit 1
fi

# Keep the file small: a stub kallsyms and only the formats we need,
# bind-mounted over the real ones in a private mount namespace.
if [ -z "$kallsyms" ]; then
	kallsyms=$tmp/kallsyms
	grep -E ' (_text|_stext|_etext)$' /proc/kallsyms > "$kallsyms"
fi
[ "$kallsyms" = full ] && kallsyms=
if [ -z "$systems" ]; then
	systems=ftrace
	set -f
	for ev in $events; do
		systems="$systems ${ev%%:*}"
	done
	set +f
fi
evdir=
if [ "$systems" != all ]; then
	evdir=$tmp/events
	mkdir "$evdir"
	cp $T/events/header_page $T/events/header_event "$evdir/"
	for sys in $(echo "$systems" | tr ' ' '\n' | sort -u); do
		[ -d "$T/events/$sys" ] || continue
		for f in "$T/events/$sys"/*/format; do
			d=${f%/format}
			d=$evdir/$sys/${d##*/}
			mkdir -p "$d"
			cp "$f" "$d/format"
		done
	done
fi
set -- trace-cmd extract -o "$out"
if [ -n "$kallsyms$evdir" ]; then
	# shellcheck disable=SC2016 # expanded by the inner sh
	set -- unshare -m sh -c '
		if [ -n "$1" ]; then mount --bind "$1" /proc/kallsyms || exit 1; fi
		if [ -n "$2" ]; then mount --bind "$2" "$3" || exit 1; fi
		shift 3
		exec "$@"' sh "$kallsyms" "$evdir" "$T/events" "$@"
fi
if [ -n "$verbose" ]; then
	"$@"
else
	"$@" > "$tmp/extract.log" 2>&1 || { cat "$tmp/extract.log" >&2; exit 1; }
fi
echo "record-host.sh: wrote $out ($(wc -c < "$out") bytes)" >&2
