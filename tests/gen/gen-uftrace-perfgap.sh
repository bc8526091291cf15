#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# gen-uftrace-perfgap.sh [SRC] [DST] — a copy of the uftrace data
# directory SRC (tests/fixtures/uftrace/plain) without its perf-cpu0.dat
# (default DST: tests/fixtures/uftrace-gen/perf-gap): uftrace finds the
# perf files by glob, so perf-cpu1.dat is then its perf-cpu0 (its dump
# says "reading perf-cpu0.dat" for it). tests/cli/uftrace/perf-gap.out
# is `uftrace dump -d DST` (v0.13).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=${1:-$here/../fixtures/uftrace/plain}
dst=${2:-$here/../fixtures/uftrace-gen/perf-gap}
rm -rf "$dst"
cp -r "$src" "$dst"
rm "$dst/perf-cpu0.dat"
