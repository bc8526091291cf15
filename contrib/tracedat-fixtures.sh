#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tracedat-fixtures.sh - (re)make tests/fixtures/tracedat/ on this machine.
#
# usage: contrib/tracedat-fixtures.sh [OUTDIR]   (default tests/fixtures/tracedat)
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

cc -O2 -Wall -o "$tmp/tinyguest" "$here/tinyguest.c"
rec() {
	"$here/record-host.sh" -g "$tmp/tinyguest" "$@"
}
convert() {
	# trace-cmd convert prints "Cannot find description for buffer" and
	# per-CPU notes on stderr even when it works.
	trace-cmd convert "$@" > "$tmp/convert.log" 2>&1 ||
		{ cat "$tmp/convert.log" >&2; exit 1; }
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

for f in "$outdir"/*.dat; do
	trace-cmd report -i "$f" > "$f.report" 2> /dev/null
	trace-cmd report -t -i "$f" > "$f.report-t" 2> /dev/null
done
ls -l "$outdir"
