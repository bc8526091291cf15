#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tracedat-fixtures.sh - (re)make tests/fixtures/tracedat/ on this machine.
#
# usage: contrib/tracedat-fixtures.sh [OUTDIR [symbols]]
#        (default tests/fixtures/tracedat; "symbols": only step 5)
#
# Needs root, /dev/kvm, tracefs, trace-cmd (3.1.6 was used), cc.
# Every recording is made by contrib/record-host.sh; see contrib/README.
#
#   host-kvm-v7.dat          kvm:* on x86-tsc, 20 guest samples, v7 uncompressed
#   host-kvm-v7-zstd.dat     the same recording, v7 zstd-compressed
#   host-kvm-v6.dat          the same recording, v6
#   guest.kvmtrace           the guest's samples of that run (kvmtrace stream)
#   guest-samples.txt        tinyguest's output of that run
#   host-kvm-tsc-change.dat  kvm:*, guest TSC set with KVM_SET_MSRS before
#                            the run and again before sample 10 (three
#                            kvm_write_tsc_offset events), v7 uncompressed;
#                            guest-tsc-change.kvmtrace / -samples.txt
#   host-local-clock.dat     kvm:* on trace_clock=local (ns), v7 uncompressed
#   mixed-sched.dat          kvm:*, sched_switch/wakeup, irq:*, ftrace:print
#                            (trace_marker) with load on both CPUs, v7
#                            uncompressed
#   timer-symbols-v6.dat     timer and workqueue events, whose text names
#   timer-symbols-v7-zstd.dat  a kernel function (%ps), no guest; kallsyms
#                            holds the functions a first recording of
#                            the same load named (found with trace-cmd
#                            report), so the files stay small; v6 and v7
#                            zstd. Only this step: `$0 OUTDIR symbols`
# and for each .dat: .report (`trace-cmd report`) and .report-t
# (`trace-cmd report -t`).
#
# There is no zlib variant: this trace-cmd supports zstd only
# (`trace-cmd list -c`).

set -eu

here=$(cd "$(dirname "$0")" && pwd)
outdir=${1:-$here/../tests/fixtures/tracedat}
nsamples=20

mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

convert() {
	# trace-cmd convert prints "Cannot find description for buffer" and
	# per-CPU notes on stderr even when it works.
	trace-cmd convert "$@" > "$tmp/convert.log" 2>&1 ||
		{ cat "$tmp/convert.log" >&2; exit 1; }
}
reports() {
	for f; do
		trace-cmd report -i "$f" > "$f.report" 2> /dev/null
		trace-cmd report -t -i "$f" > "$f.report-t" 2> /dev/null
	done
}

# 5. events whose text names a kernel function (libtraceevent looks it up
# in the file's kallsyms): timers and work items while a shell sleeps. No
# guest (/bin/true stands in for tinyguest). A first recording with the
# whole kallsyms tells which functions such a load names; the fixture
# keeps only those (a function missing from it would print as its
# neighbour, alike in both tools).
symbols() {
	ev='-e timer:hrtimer_start -e timer:hrtimer_expire_entry -e timer:timer_start -e workqueue:workqueue_execute_start'
	# shellcheck disable=SC2086 # ev is a list of options
	"$here/record-host.sh" -g /bin/true -n 1 -K full $ev \
		-W 'sleep 0.05' -o "$tmp/pilot.dat"
	trace-cmd report -i "$tmp/pilot.dat" 2> /dev/null |
		sed -n 's/.*function[= ]\([A-Za-z0-9_.]*\).*/\1/p' | sort -u \
		> "$tmp/names"
	awk 'NR == FNR { want[$1] = 1; next }
	     $3 in want || $3 == "_text" || $3 == "_stext" || $3 == "_etext"' \
		"$tmp/names" /proc/kallsyms > "$tmp/kallsyms"
	# shellcheck disable=SC2086
	"$here/record-host.sh" -g /bin/true -n 1 -K "$tmp/kallsyms" $ev \
		-W 'sleep 0.05' -o "$tmp/symbols.dat"
	convert -i "$tmp/symbols.dat" -o "$outdir/timer-symbols-v7-zstd.dat" \
		--file-version 7 --compression zstd
	convert -i "$tmp/symbols.dat" -o "$outdir/timer-symbols-v6.dat" \
		--file-version 6
	reports "$outdir/timer-symbols-v7-zstd.dat" "$outdir/timer-symbols-v6.dat"
}
if [ "${2:-}" = symbols ]; then
	symbols
	exit 0
fi

cc -O2 -Wall -o "$tmp/tinyguest" "$here/tinyguest.c"
rec() {
	"$here/record-host.sh" -g "$tmp/tinyguest" "$@"
}

# 1. the main recording, in three file versions
rec -o "$tmp/host-kvm.dat" -n $nsamples \
	-G "$outdir/guest.kvmtrace" -S "$outdir/guest-samples.txt"
convert -i "$tmp/host-kvm.dat" -o "$outdir/host-kvm-v7.dat" \
	--file-version 7 --compression none
convert -i "$tmp/host-kvm.dat" -o "$outdir/host-kvm-v7-zstd.dat" \
	--file-version 7 --compression zstd
convert -i "$tmp/host-kvm.dat" -o "$outdir/host-kvm-v6.dat" \
	--file-version 6

# 2. TSC offset written three times (vCPU creation, -t, -T)
rec -o "$tmp/tsc.dat" -n $nsamples \
	-G "$outdir/guest-tsc-change.kvmtrace" \
	-S "$outdir/guest-tsc-change-samples.txt" \
	-- -t 1000000000 -T 10:10000000000000
convert -i "$tmp/tsc.dat" -o "$outdir/host-kvm-tsc-change.dat" \
	--file-version 7 --compression none

# 3. nanosecond clock
rec -o "$tmp/local.dat" -n $nsamples -C local \
	-S "$outdir/host-local-clock-samples.txt"
convert -i "$tmp/local.dat" -o "$outdir/host-local-clock.dat" \
	--file-version 7 --compression none

# 4. a mix of subsystems on both CPUs
# shellcheck disable=SC2016 # run by sh -c
load='for c in 0 1; do
	taskset -c $c sh -c "sleep 0.002; i=0; while [ \$i -lt 300 ]; do i=\$((i+1)); done; sleep 0.001" &
done; wait'
# clocks whose time stamps read differently: "uptime" (jiffies, under a
# second since boot in trace-cmd's s.us form) and "counter" (a raw count;
# as version 6, whose trace_clock text follows the CPU data table)
rec -o "$outdir/clock-uptime.dat" -n 3 -C uptime
rec -o "$tmp/counter.dat" -n 3 -C counter
convert -i "$tmp/counter.dat" -o "$outdir/clock-counter-v6.dat" \
	--file-version 6

rec -o "$tmp/mixed.dat" -n $nsamples \
	-e 'kvm:*' -e sched:sched_switch -e sched:sched_wakeup -e 'irq:*' \
	-W "$load" -S "$outdir/mixed-sched-samples.txt" -- -m
convert -i "$tmp/mixed.dat" -o "$outdir/mixed-sched.dat" \
	--file-version 7 --compression none

symbols
reports "$outdir"/*.dat
ls -l "$outdir"
