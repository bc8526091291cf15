#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# gen-uftrace-evpmu.sh [OUTDIR] — the uftrace fixture ktf-evpmu (default
# OUTDIR: tests/fixtures/uftrace): ktf-evdata (record-uftrace-langs.sh)
# with its page-fault events turned into read:/diff: pmu-cycle, pmu-cache
# and pmu-branch ones by tests/gen/uftrace-evid.py (the same two u64 of
# data; no PMU counts cycles inside this VM), and ktf-evpmu.dump, .replay
# and .report from uftrace (v0.13 used) on the result.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
outdir=${1:-$here/../fixtures/uftrace}
outdir=$(cd "$outdir" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

d=$tmp/ktf-evpmu
cp -r "$outdir/ktf-evdata" "$d"
for f in "$d"/*.dat; do
	case ${f##*/} in perf-*) continue ;; esac
	python3 "$here/uftrace-evid.py" "$f" \
		100002:100005,100007,100009 100004:100006,100008,100010
done
uftrace dump -d "$d" > "$tmp/ktf-evpmu.dump"
uftrace report -d "$d" > "$tmp/ktf-evpmu.report"
uftrace replay -d "$d" > "$tmp/ktf-evpmu.replay"
rm -rf "${outdir:?}/ktf-evpmu"
cp -r "$d" "$outdir/ktf-evpmu"
cp "$tmp/ktf-evpmu.dump" "$tmp/ktf-evpmu.report" "$tmp/ktf-evpmu.replay" "$outdir/"
