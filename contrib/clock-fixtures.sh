#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# clock-fixtures.sh - record the perf.data of tests/fixtures/clocks/ that the
# clock checks of issue 38 need beside contrib/perf-fixtures.sh's:
#
#   sched-raw.data    perf record -k monotonic_raw (CLOCKID 4:
#                     CLOCK_MONOTONIC_RAW, which is not CLOCK_MONOTONIC)
#                     -e sched:sched_process_exec -e sched:sched_process_exit
#                     of /bin/true
#
# and sched-raw.data.out, what
#   perf script -i FILE -F trace:comm,tid,cpu,time,event,trace
# prints. Needs root (or perf_event_paranoid -1), tracefs and perf
# (linux-perf 6.1 was used).
#
# usage: contrib/clock-fixtures.sh [OUTDIR]   (default tests/fixtures/clocks)

set -eu

here=$(cd "$(dirname "$0")" && pwd)
outdir=${1:-$here/../tests/fixtures/clocks}
mkdir -p "$outdir"
[ -d /sys/kernel/tracing/events ] ||
	mount -t tracefs nodev /sys/kernel/tracing
f=$outdir/sched-raw.data
perf record -q -k monotonic_raw -e sched:sched_process_exec \
	-e sched:sched_process_exit -o "$f" -- /bin/true
perf script -i "$f" -F trace:comm,tid,cpu,time,event,trace > "$f.out" \
	2> /dev/null
ls -l "$f" "$f.out"
