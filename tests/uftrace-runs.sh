#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# uftrace-runs.sh — the uftrace reader's batched fast path
# (src/sources/uftrace/uftrace-fast.c) at its edges, on data made by
# tests/gen/gen-uftrace-runs.py: a call stack that grows during runs and a
# buffer refilled in their middle (deep), three tasks interleaved in runs
# of 1 to 200 records with stamps they share (threads). Each directory
# prints through a template the lines the generator worked out on its
# own, read in batches (one input, no filter) and one event at a time
# (a --time-range that holds every event takes the other path). Then the
# default text of each must be `uftrace dump -d DIR`'s byte for byte
# (skipped, saying so, without uftrace): for deep, the 6153 of its 18000
# records that dump shows, whose display depth is 1024 unless told
# (fstack_entry() in its utils/fstack.c, whatever the recording's
# --max-stack), while the template above sees them all.
set -u
: "${KTF:?}" "${KTF_SRCDIR:?}"
command -v python3 > /dev/null || { echo "1..0 # SKIP no python3"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktf-uftruns.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

printf '%s\n' '* %(ts)d %(tid)d %(type)s %(depth)d %(symbol)s %(duration)d' \
	> "$tmp/rules"
echo "1..21"
i=0

# same WANT NAME ARG...: the next test, NAME: $KTF ARG... exits 0, says
# nothing on stderr and prints the file WANT byte for byte
same() {
	want=$1 name=$2
	shift 2
	i=$((i + 1))
	$KTF "$@" > "$tmp/got" 2> "$tmp/err"
	rc=$?
	if [ "$rc" = 0 ] && [ ! -s "$tmp/err" ] &&
		cmp -s "$want" "$tmp/got"; then
		echo "ok $i - $name: $(wc -l < "$tmp/got") lines"
	else
		echo "not ok $i - $name: exit $rc"
		diff "$want" "$tmp/got" | head -5 | sed 's/^/# /'
		sed 's/^/# /' "$tmp/err" | head -5
	fi
}

# dump DIR: `uftrace dump -d DIR` to $tmp/dump; false when it fails or
# says anything on stderr (then in $tmp/dump.err)
dump() {
	uftrace dump -d "$1" > "$tmp/dump" 2> "$tmp/dump.err" &&
		[ ! -s "$tmp/dump.err" ]
}
for kind in deep threads; do
	python3 "$KTF_SRCDIR/tests/gen/gen-uftrace-runs.py" "$kind" \
		"$tmp/$kind" > "$tmp/want" || {
		echo "not ok $((i + 1)) - $kind: generator failed"
		echo "not ok $((i + 2)) - $kind: generator failed"
		echo "not ok $((i + 3)) - $kind: generator failed"
		i=$((i + 3))
		continue
	}
	same "$tmp/want" "$kind, batched" -f "$tmp/rules" "$tmp/$kind"
	same "$tmp/want" "$kind, one-by-one" --time-range=0~ -f "$tmp/rules" \
		"$tmp/$kind"
	if ! command -v uftrace > /dev/null; then
		i=$((i + 1))
		echo "ok $i - $kind, uftrace dump # SKIP no uftrace to compare with"
	elif ! dump "$tmp/$kind"; then
		i=$((i + 1))
		echo "not ok $i - $kind, uftrace dump: it fails"
		sed 's/^/# /' "$tmp/dump.err" | head -5
	else
		same "$tmp/dump" "$kind, uftrace dump" "$tmp/$kind"
	fi
done

# The edges of what dump shows (tests/gen/gen-uftrace-edge.py): the
# default text is `uftrace dump -d DIR`'s, read in batches and (the input
# on a guest's clock: no batches) one event at a time; a template still
# sees every record of the task files (16 bytes each; in args, 8 more for
# the value).
for kind in edge small args fixup nomax; do
	python3 "$KTF_SRCDIR/tests/gen/gen-uftrace-edge.py" "$kind" \
		"$tmp/$kind" || {
		echo "not ok $((i + 1)) - $kind: generator failed"
		echo "not ok $((i + 2)) - $kind: generator failed"
		echo "not ok $((i + 3)) - $kind: generator failed"
		i=$((i + 3))
		continue
	}
	i=$((i + 1))
	recs=0
	size=16
	[ "$kind" = args ] && size=24
	for f in "$tmp/$kind"/*.dat; do
		recs=$((recs + $(wc -c < "$f") / size))
	done
	$KTF -f "$tmp/rules" "$tmp/$kind" > "$tmp/got" 2> "$tmp/err"
	rc=$?
	got=$(wc -l < "$tmp/got")
	if [ "$rc" = 0 ] && [ ! -s "$tmp/err" ] && [ "$got" -eq "$recs" ]; then
		echo "ok $i - $kind, a template: all $recs records"
	else
		echo "not ok $i - $kind, a template: exit $rc, $got lines of $recs"
		sed 's/^/# /' "$tmp/err" | head -5
	fi
	if ! command -v uftrace > /dev/null; then
		i=$((i + 1))
		echo "ok $i - $kind, uftrace dump # SKIP no uftrace to compare with"
		i=$((i + 1))
		echo "ok $i - $kind, one by one # SKIP no uftrace to compare with"
		continue
	fi
	if ! dump "$tmp/$kind"; then
		i=$((i + 1))
		echo "not ok $i - $kind, uftrace dump: it fails"
		sed 's/^/# /' "$tmp/dump.err" | head -5
		i=$((i + 1))
		echo "not ok $i - $kind, one by one: uftrace dump fails"
		continue
	fi
	same "$tmp/dump" "$kind, uftrace dump" "$tmp/$kind"
	same "$tmp/dump" "$kind, one by one" --guest="$tmp/$kind"
done
