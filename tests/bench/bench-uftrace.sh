#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench-uftrace.sh — kvmtrace_format on a uftrace data directory against
# `uftrace dump` (and `uftrace replay`), side by side in one run, on the
# same recording: a recursive fib(N) built with gcc -pg and recorded with
# `uftrace record` (N=27: 1.27 M records). Prints wall and CPU seconds,
# records per second, and checks that our default output has exactly the
# record lines of the dump.
# Run from the build directory (or set KTF_SRCDIR/KTF_BUILDDIR).
# N=fib argument (default 27), RUNS=best of (default 3).
set -eu
N=${N:-27}
RUNS=${RUNS:-3}
top=${KTF_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${KTF_BUILDDIR:-$(pwd)}
ktf=$build/kvmtrace_format
command -v uftrace > /dev/null || { echo "bench-uftrace: no uftrace"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktf-bench-uftrace.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/fib.c" << 'EOF'
#include <stdlib.h>
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int main(int argc, char **argv) { return fib(argc > 1 ? atoi(argv[1]) : 27) < 0; }
EOF
gcc -pg -O0 -o "$tmp/fib" "$tmp/fib.c"
# a buffer large enough that nothing is lost
(cd "$tmp" && uftrace record --no-event -b 4M -d data ./fib "$N" > /dev/null)
bytes=$(cat "$tmp"/data/*.dat | wc -c)
recs=$((bytes / 16))
printf '%s\n' '* %(ts)d %(tid)d %(type)s %(depth)d %(symbol)s %(addr)#x %(duration)d' \
	> "$tmp/fields"
echo "recording: fib($N), $recs records, $((bytes / 1048576)) MiB of .dat"

# best of RUNS: "wall_ns cpu_ns" of: $@ > /dev/null
best() {
	local bw= bc= i t0 t1 w c
	for i in $(seq "$RUNS"); do
		t0=$(date +%s%N)
		/usr/bin/time -o "$tmp/time" -f '%U %S' "$@" > /dev/null 2>&1
		c=$(awk '{ printf "%d", ($1 + $2) * 1e9 }' "$tmp/time")
		t1=$(date +%s%N)
		w=$((t1 - t0))
		if [ -z "$bw" ] || [ "$w" -lt "$bw" ]; then bw=$w; bc=$c; fi
	done
	echo "$bw $bc"
}
row() {
	local name=$1 w=$2 c=$3
	awk -v n="$recs" -v w="$w" -v c="$c" -v name="$name" 'BEGIN {
		printf "%-44s %7.3f s wall %7.3f s cpu  %6.2f M records/s\n",
		       name, w / 1e9, c / 1e9, n / (w / 1e9) / 1e6 }'
}

read -r kw kc <<< "$(best "$ktf" "$tmp/data")"
read -r fw fc <<< "$(best "$ktf" -f "$tmp/fields" "$tmp/data")"
read -r dw dc <<< "$(best uftrace dump -d "$tmp/data")"
read -r rw rc <<< "$(best uftrace replay -d "$tmp/data")"
row "kvmtrace_format DIR (dump-like default)" "$kw" "$kc"
row "kvmtrace_format -f fields DIR (7 fields)" "$fw" "$fc"
row "uftrace dump -d DIR" "$dw" "$dc"
row "uftrace replay -d DIR" "$rw" "$rc"
awk -v a="$kw" -v b="$dw" 'BEGIN {
	printf "ratio: kvmtrace_format takes %.3f of uftrace dump'"'"'s wall time\n", a / b }'

# the dump, byte for byte (a lone directory prints it whole)
uftrace dump -d "$tmp/data" > "$tmp/want"
"$ktf" "$tmp/data" > "$tmp/got"
if cmp -s "$tmp/want" "$tmp/got"; then
	echo "check: our default output is the dump's, byte for byte ($(wc -l < "$tmp/got") lines)"
else
	echo "check: OUTPUT DIFFERS from uftrace dump"
	exit 1
fi
