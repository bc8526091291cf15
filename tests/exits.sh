#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# exits.sh — kvmtrace_format --stats against tests/exits-oracle.py, a
# straightforward pairing of `trace-cmd report -t` lines: counts, totals,
# min, max, mean and unpaired exits equal; percentiles within 0.79 %; the
# longest exits of each reason (1, and 40 with --stats-top) the same, in
# the same order.
# On the committed generated host (tests/fixtures/exits/host-exits.dat),
# on larger ones generated here with other seeds (tests/gen/gen-exits.py),
# and on a recorded host trace (no kvm_exit there: both must say none).
# TAP out; SKIP without trace.dat support, trace-cmd or python3.
set -u
: "${KTF:?}" "${KTF_SRCDIR:?}"
cd "$KTF_SRCDIR" || exit 99
if [ -z "${KTF_HAVE_TRACECMD:-}" ] || ! command -v trace-cmd >/dev/null ||
   ! command -v python3 >/dev/null; then
	echo "1..0 # SKIP needs trace.dat support, trace-cmd and python3"
	exit 0
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/ktf-exits.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
fix=tests/fixtures
n=0
fail=0

# check NAME DAT: the oracle's TAP on DAT, as one line here
check() {
	n=$((n + 1))
	if ! $KTF --stats=json "$2" > "$T/stats.json" 2> "$T/err" ||
	   ! $KTF --stats=json --stats-top=40 "$2" > "$T/top.json" 2> "$T/err"; then
		echo "not ok $n - $1: kvmtrace_format failed"
		sed 's/^/# /' "$T/err"
		fail=$((fail + 1))
		return
	fi
	trace-cmd report -t "$2" 2>/dev/null |
		python3 tests/exits-oracle.py --check "$T/stats.json" \
			--longest "$T/top.json" 40 > "$T/tap"
	rc=$?
	checks=$(grep -c '^ok' "$T/tap")
	if [ "$rc" -eq 0 ] && ! grep -q '^not ok' "$T/tap"; then
		echo "ok $n - $1: $checks checks agree with the oracle"
	else
		echo "not ok $n - $1"
		grep -v '^ok' "$T/tap" | sed 's/^/# /'
		fail=$((fail + 1))
	fi
}

check "generated host (committed)" $fix/exits/host-exits.dat
for seed in 1 2; do
	python3 tests/gen/gen-exits.py tracedat $fix/tracedat/host-kvm-v6.dat \
		$fix/exits/guest.kallsyms --seed $seed --exits 3000 > "$T/h$seed.dat"
	check "generated host, seed $seed, 3000 exits" "$T/h$seed.dat"
done
check "recorded host (no kvm_exit)" $fix/tracedat/host-local-clock.dat

# Exits by guest function from a guest trace.dat's kallsyms (no
# --guest-syms): rows as with --guest-syms of that kallsyms (libtraceevent
# resolves nothing past the last symbol, virtnet_poll here: its rows may
# be missing).
gen() { python3 tests/gen/gen-exits.py tracedat $fix/tracedat/host-kvm-v6.dat \
	$fix/exits/guest.kallsyms "$@"; }
gen --clock x86-tsc --exits 60 > "$T/host.dat"
gen --clock x86-tsc --no-events --kallsyms $fix/exits/guest.kallsyms > "$T/guest.dat"
$KTF --stats=csv -c 1000 "$T/host.dat" --guest "$T/guest.dat" --tsc-offset 0 |
	sed -n '/^guest_function,/,/^$/p' > "$T/from-guest"
$KTF --stats=csv -c 1000 --guest-syms $fix/exits/guest.kallsyms "$T/host.dat" |
	sed -n '/^guest_function,/,/^$/p' > "$T/from-syms"
n=$((n + 1))
grep -vxF -f "$T/from-syms" "$T/from-guest" > "$T/extra"
if [ -s "$T/from-guest" ] && [ ! -s "$T/extra" ] &&
   grep -q '^native_safe_halt,HLT,' "$T/from-guest"; then
	echo "ok $n - exits by guest function from the guest trace.dat's kallsyms"
else
	echo "not ok $n - exits by guest function from the guest trace.dat's kallsyms"
	diff "$T/from-guest" "$T/from-syms" | sed 's/^/# /'
	fail=$((fail + 1))
fi
echo "1..$n"
[ "$fail" -eq 0 ]
