#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# perf-fixtures.sh - (re)make the recorded files of tests/fixtures/perf/.
#
# usage: contrib/perf-fixtures.sh [OUTDIR]   (default tests/fixtures/perf)
#
# Needs root, /dev/kvm, tracefs, perf (linux-perf 6.1.192 was used), cc.
# The guest is contrib/tinyguest.c (3 samples: a real-mode guest, which
# this nested KVM emulates, so kvm_pio, kvm_emulate_insn,
# kvm_userspace_exit… but no kvm_exit/kvm_entry pairs; those come from
# tests/gen/gen-perfdata.py).
#
#   kvm.data          perf record -e 'kvm:*' (normal file)
#   kvm-pipe.data     the same, perf record -o - (pipe file)
#   kvm-zstd.data     perf record -z -e 'kvm:*' -e sched:sched_switch
#   kvm-zstd-pipe.data  perf record -z -o - -e 'kvm:*'
#   kvm-stat.data     perf kvm stat record
#   kvm-mono.data     perf record -k mono -e 'kvm:*'
#   kvm-mono-pipe.data  the same, perf record -o - (its clock in a
#                     HEADER_FEATURE record)
#   mixed.data        perf record -e 'kvm:*' -e cpu-clock (a software
#                     event perf script -F trace:… prints nothing for)
#   sched-g.data      perf record -g -e sched:sched_switch
#                     -e sched:sched_wakeup -e sched:sched_process_fork
#                     of a shell that forks (callchains, FORK, COMM)
# and for each FILE: FILE.out, what
#   perf script -i FILE -F trace:comm,tid,cpu,time,event,trace
# prints (with -F sw: for mixed.data, so that its cpu-clock samples print
# nothing; perf refuses -F sw: for a file without software events).
# Standard error is dropped: perf 6.1 complains of the kvm_inj_exception
# format and of missing kallsyms.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
outdir=${1:-$here/../tests/fixtures/perf}
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -d /sys/kernel/tracing/events ] ||
	mount -t tracefs nodev /sys/kernel/tracing
cc -O2 -Wall -o "$tmp/tinyguest" "$here/tinyguest.c"
g="$tmp/tinyguest -q -n 3"

# shellcheck disable=SC2086 # $g is a command line
{
	perf record -q -e 'kvm:*' -o "$outdir/kvm.data" $g
	perf record -q -e 'kvm:*' -o - $g > "$outdir/kvm-pipe.data"
	perf record -q -z -e 'kvm:*' -e sched:sched_switch \
		-o "$outdir/kvm-zstd.data" $g
	perf record -q -z -e 'kvm:*' -o - $g > "$outdir/kvm-zstd-pipe.data"
	perf kvm stat record -q -o "$outdir/kvm-stat.data" $g
	perf record -q -k mono -e 'kvm:*' -o "$outdir/kvm-mono.data" $g
	perf record -q -k mono -e 'kvm:*' -o - $g > "$outdir/kvm-mono-pipe.data"
	perf record -q -e 'kvm:*' -e cpu-clock -o "$outdir/mixed.data" $g
	perf record -q -g -e sched:sched_switch -e sched:sched_wakeup \
		-e sched:sched_process_fork -o "$outdir/sched-g.data" \
		sh -c 'sleep 0.01; (sleep 0.01); /bin/true'
} > "$tmp/log" 2>&1 || { cat "$tmp/log" >&2; exit 1; }

for f in "$outdir"/*.data; do
	sw=
	[ "${f##*/}" = mixed.data ] && sw='-F sw:'
	# shellcheck disable=SC2086 # $sw is one option or none
	perf script -i "$f" -F trace:comm,tid,cpu,time,event,trace $sw \
		> "$f.out" 2> /dev/null
done
ls -l "$outdir"
