#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# many-inputs.sh — a thousand small per-CPU kvmtrace files in one run
# (issue 13, item 8: each input held a 1 MiB read buffer, so 1000 inputs
# took 1 GB of address space). Each file holds 20 records
# (tests/gen/gen-kvmtrace). Checks:
#   1. every record comes out, in time order, and the lines are those of
#      the same files read as one stream (the relts column aside: it
#      depends on the order);
#   2. the other end: one 1.3 MB stream, by name, from a pipe (the buffer
#      grows from a page while reads fill it) and as /dev/stdin, prints
#      what the 2008 tool's logic prints (tests/gen/ref_kvmtrace_format.py);
#   3. under `ulimit -v` of 200 MiB the 1000-input run still succeeds (it
#      needed more than 1 GiB before: "out of memory"), and
#   4. its peak RSS (/usr/bin/time -f %M, when it is installed) stays under
#      64 MiB.
# The limits are skipped in a sanitizer build, whose shadow memory takes
# terabytes of address space.
set -u
: "${KTF:?}" "${KTF_SRCDIR:?}" "${KTF_BUILDDIR:?}"
gen=$KTF_BUILDDIR/tests/gen/gen-kvmtrace
rules=$KTF_SRCDIR/formats/kvmtrace
N=1000
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktf-many.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
ulimit -n 4096 2> /dev/null || true

echo "1..4"
i=0
files=
while [ "$i" -lt "$N" ]; do
	"$gen" -n 20 -s "$i" > "$tmp/vm.kvmtrace.$i" || exit 99
	files="$files $tmp/vm.kvmtrace.$i"
	i=$((i + 1))
done

# 1. the records
# shellcheck disable=SC2086
$KTF -f "$rules" $files > "$tmp/out" 2> "$tmp/err"
rc=$?
# shellcheck disable=SC2086
cat $files | $KTF "$rules" > "$tmp/one" 2>> "$tmp/err"
norelts() { sed 's/ (+ *-*[0-9]*) / /' "$1" | sort; }
lines=$(wc -l < "$tmp/out")
if [ "$rc" != 0 ] || [ -s "$tmp/err" ]; then
	echo "not ok 1 - $N inputs: exit $rc"
	head -5 "$tmp/err" | sed 's/^/# /'
elif [ "$lines" != $((N * 20)) ]; then
	echo "not ok 1 - $N inputs: $lines lines, want $((N * 20))"
elif ! awk '$1 < p { exit 1 } { p = $1 }' "$tmp/out"; then
	echo "not ok 1 - $N inputs: time goes backwards"
elif [ "$(norelts "$tmp/out" | cksum)" != "$(norelts "$tmp/one" | cksum)" ]; then
	echo "not ok 1 - $N inputs: the lines differ from the files read as one stream"
else
	echo "ok 1 - $N inputs: $lines records in time order"
fi

# 2. one big stream, three ways
"$gen" -n 50000 -s 77 > "$tmp/big.bin" || exit 99
if ! command -v python3 > /dev/null; then
	echo "ok 2 - one big stream # SKIP no python3"
else
	python3 "$KTF_SRCDIR/tests/gen/ref_kvmtrace_format.py" "$rules" \
		< "$tmp/big.bin" > "$tmp/ref" || exit 99
	bad=
	$KTF "$rules" "$tmp/big.bin" > "$tmp/b1" 2>&1 || bad="$bad by-name-exit"
	cat "$tmp/big.bin" | $KTF "$rules" > "$tmp/b2" 2>&1 || bad="$bad pipe-exit"
	$KTF "$rules" /dev/stdin < "$tmp/big.bin" > "$tmp/b3" 2>&1 ||
		bad="$bad stdin-exit"
	for f in b1 b2 b3; do
		cmp -s "$tmp/ref" "$tmp/$f" || bad="$bad $f"
	done
	if [ -z "$bad" ]; then
		echo "ok 2 - one big stream by name, from a pipe and on stdin: $(wc -l < "$tmp/ref") records as the reference"
	else
		echo "not ok 2 - one big stream:$bad differ from the reference"
	fi
fi

# 3., 4. memory
if grep -q -a __asan_init "$KTF" 2> /dev/null; then
	echo "ok 3 - address space # SKIP sanitizer build"
	echo "ok 4 - peak RSS # SKIP sanitizer build"
	exit 0
fi
# shellcheck disable=SC2086
(ulimit -v 204800 && exec $KTF -f "$rules" $files) > "$tmp/out2" 2> "$tmp/err2"
rc=$?
if [ "$rc" = 0 ] && cmp -s "$tmp/out" "$tmp/out2"; then
	echo "ok 3 - $N inputs within 200 MiB of address space"
else
	echo "not ok 3 - $N inputs within 200 MiB of address space: exit $rc"
	head -3 "$tmp/err2" | sed 's/^/# /'
fi
if [ -x /usr/bin/time ]; then
	# shellcheck disable=SC2086
	/usr/bin/time -o "$tmp/rss" -f %M $KTF -f "$rules" $files > /dev/null 2>&1
	kib=$(tail -n 1 "$tmp/rss")
	if [ "$kib" -lt 65536 ] 2> /dev/null; then
		echo "ok 4 - peak RSS $kib KiB < 64 MiB"
	else
		echo "not ok 4 - peak RSS $kib KiB, want < 64 MiB"
	fi
else
	echo "ok 4 - peak RSS # SKIP no /usr/bin/time"
fi
