#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# record-big.sh - record a large host trace (500k+ kvm events) for
# benchmarks. Not committed: run it where you need it.
#
# usage: contrib/record-big.sh [OUTDIR] [SAMPLES]
#   OUTDIR   default ./big; gets big.dat (v7, zstd, as trace-cmd extract
#            writes it), big-v6.dat (v6, uncompressed), big.kvmtrace and
#            big-samples.txt (the guest's samples)
#   SAMPLES  guest samples (default 25000; about 21.5 kvm events each, so
#            about 540k events)
#
# Needs root, /dev/kvm, tracefs, trace-cmd. Uses contrib/record-host.sh
# with a 96 MB per-CPU buffer (the buffer must hold the whole run: tracefs
# overwrites the oldest events when it is full, and `trace-cmd extract`
# reads only what is left at the end).

set -eu

here=$(cd "$(dirname "$0")" && pwd)
outdir=${1:-big}
nsamples=${2:-25000}

mkdir -p "$outdir"
start=$(date +%s.%N)
"$here/record-host.sh" -b 98304 -n "$nsamples" -o "$outdir/big.dat" \
	-G "$outdir/big.kvmtrace" -S "$outdir/big-samples.txt"
recorded=$(date +%s.%N)
trace-cmd convert -i "$outdir/big.dat" -o "$outdir/big-v6.dat" \
	--file-version 6 > /dev/null 2>&1
done_=$(date +%s.%N)

events=$(trace-cmd report -i "$outdir/big.dat" 2> /dev/null | grep -c ': kvm_')
lost=$(trace-cmd report --stat -i "$outdir/big.dat" 2> /dev/null |
	sed -n 's/^overrun: *//p' | awk '{s += $1} END {print s + 0}')
echo "record-big.sh: $events kvm events, $lost overrun," \
	"recorded in $(echo "$recorded - $start" | bc) s," \
	"v6 copy in $(echo "$done_ - $recorded" | bc) s" >&2
ls -l "$outdir" >&2
