#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# record-uftrace-lost.sh [OUTDIR] — the uftrace fixture ktf-lost (default
# OUTDIR: tests/fixtures/uftrace): a small C program recorded with
# `uftrace record` (v0.13 used; perf events on), whose task file then gets
# LOST records in place of some of its records (tests/gen/uftrace-lostify.py:
# a real recording loses records only when libmcount runs out of buffers,
# which no buffer size provokes here):
#
#   records 16-24   lost inside main > outer > mid > leaf, resumed one
#                   function deeper than uftrace's user stack count
#   records 57-61   lost at main's level, resumed at the exit of a leaf
#                   inside calls whose entries were lost
#   records 90-92, 93-94
#                   two LOST records one after the other
#
# with ktf-lost.dump, .replay and .report from uftrace on the result.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/uftrace-fixture.sh"
outdir=${1:-$here/../fixtures/uftrace}
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/ktf-lost.c" <<'SRC'
int leaf(int n)
{
	return n * 2;
}

int mid(int n)
{
	int s = 0;

	for (int i = 0; i < 3; i++)
		s += leaf(n + i);
	return s;
}

int outer(int n)
{
	int s = 0;

	for (int i = 0; i < 3; i++)
		s += mid(i + n);
	return s;
}

int main(void)
{
	long s = 0;

	for (int i = 0; i < 4; i++)
		s += outer(i);
	return s == 42;
}
SRC
(cd "$tmp" && gcc -pg -O0 -o ktf-lost ktf-lost.c &&
	uftrace record -d ktf-lost.d ./ktf-lost > /dev/null)
d=$tmp/ktf-lost.d
for f in "$d"/*.dat; do
	case ${f##*/} in perf-*) continue ;; esac
	python3 "$here/uftrace-lostify.py" "$f" 16-25 57-62 90-93 93-95
done
uftrace_fixture "$d" ktf-lost ktf-lost "$outdir"
