#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# uftrace-fixtures.sh - (re)make tests/fixtures/uftrace/.
#
# usage: contrib/uftrace-fixtures.sh [OUTDIR]   (default tests/fixtures/uftrace)
#
# Builds contrib/uftrace-demo.c with `gcc -pg -O0` and records it three
# times with uftrace (v0.13 was used):
#
#   plain/    uftrace record
#   args/     uftrace record -A fib@arg1 -R fib@retval
#   events/   uftrace record -E demo:leaf -T middle@read=proc/statm
#             (a USDT probe: needs <sys/sdt.h>, Debian systemtap-sdt-dev;
#             plus the read/diff:proc/statm events of the trigger)
#
# and stores for each NAME: NAME.dump (`uftrace dump`), NAME.replay
# (`uftrace replay`), NAME.report (`uftrace report`); plain.chrome.json
# is `uftrace dump --chrome`.
#
# Size: uftrace writes a .sym file for every mapped library, including
# libmcount's own dependencies (libdw, libcapstone, ...; ~180 KB per
# directory). Only the executable's .sym is needed for these traces, so the
# library .sym files are removed; replay, dump and dump --chrome give
# byte-identical output with and without them (checked below). The
# sid-*.map still lists the libraries.
#
# `uftrace record --kernel` does not work here (no function_graph tracer).

set -eu

here=$(cd "$(dirname "$0")" && pwd)
outdir=${1:-$here/../tests/fixtures/uftrace}

mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! echo '#include <sys/sdt.h>' | gcc -E - > /dev/null 2>&1; then
	echo "uftrace-fixtures.sh: <sys/sdt.h> missing (apt-get install systemtap-sdt-dev)" >&2
	exit 1
fi
gcc -pg -O0 -Wall -o "$tmp/uftrace-demo" "$here/uftrace-demo.c" -lpthread

record() {
	name=$1
	shift
	(cd "$tmp" && uftrace record -d "$name" "$@" ./uftrace-demo > /dev/null)
}

# References come from the complete directories, made after the executable
# is gone so that uftrace cannot fall back to reading it.
finish() {
	name=$1
	uftrace replay -d "$tmp/$name" > "$tmp/$name.replay"
	uftrace report -d "$tmp/$name" > "$tmp/$name.report"
	uftrace dump -d "$tmp/$name" > "$tmp/$name.dump"
	uftrace dump --chrome -d "$tmp/$name" > "$tmp/$name.chrome.json"
	exe=$(grep -ao 'exename:[^[:cntrl:]]*' "$tmp/$name/info" | sed 's/.*\///')
	[ -f "$tmp/$name/$exe.sym" ] || {
		echo "uftrace-fixtures.sh: $name: no $exe.sym" >&2
		exit 1
	}
	for f in "$tmp/$name"/*.sym; do
		[ "${f##*/}" = "$exe.sym" ] || rm "$f"
	done
	for out in replay report dump; do
		uftrace $out -d "$tmp/$name" | cmp -s - "$tmp/$name.$out" || {
			echo "uftrace-fixtures.sh: $name: $out changed without library .sym files" >&2
			exit 1
		}
	done
	uftrace dump --chrome -d "$tmp/$name" | cmp -s - "$tmp/$name.chrome.json" || {
		echo "uftrace-fixtures.sh: $name: dump --chrome changed" >&2
		exit 1
	}
	rm -rf "${outdir:?}/$name"
	cp -r "$tmp/$name" "$outdir/$name"
	cp "$tmp/$name.replay" "$tmp/$name.report" "$tmp/$name.dump" "$outdir/"
}

record plain
record args -A fib@arg1 -R fib@retval
record events -E demo:leaf -T middle@read=proc/statm
rm "$tmp/uftrace-demo"
for name in plain args events; do
	finish $name
done
cp "$tmp/plain.chrome.json" "$outdir/"

du -a "$outdir" | sort -k2
