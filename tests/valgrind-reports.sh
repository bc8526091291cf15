#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# valgrind-reports.sh DIR — read the reports tests/valgrind.sh left in DIR
# (one per process, vg.PID.log; empty for a clean run) for `make
# check-valgrind`: print each unexpected one and exit 1, else say how many
# runs were clean and how many tests/valgrind.sh ran natively (native.PID:
# the same inputs and options as an earlier run of their test).
#
# Expected: the report of a process that libtraceevent or libtracecmd
# killed with a signal, the first error's innermost frame in one of them.
# That is the guard of src/sources/tracedat/tracecmd-open.c at work: a corrupt
# trace.dat crashes the child that opens it, and the program goes on
# without the file (the CLI case checks what it says). Anything in our
# code, any leak of ours, any other error is a failure.
set -u
dir=${1:?usage: valgrind-reports.sh DIR}
runs=0
crashes=0
bad=0
for f in "$dir"/vg.*.log; do
	[ -e "$f" ] || continue
	runs=$((runs + 1))
	[ -s "$f" ] || continue
	first=$(grep -m1 -E '^==[0-9]+== +at 0x' "$f")
	if grep -q 'Process terminating with default action of signal' "$f" &&
	   printf '%s\n' "$first" | grep -q -E 'libtraceevent\.so|libtracecmd\.so'; then
		crashes=$((crashes + 1))
		continue
	fi
	bad=$((bad + 1))
	echo "== $f"
	head -40 "$f"
done
native=0
for f in "$dir"/native.*; do
	[ -e "$f" ] && native=$((native + 1))
done
if [ "$bad" -gt 0 ]; then
	echo "check-valgrind: $bad of $runs runs with valgrind reports (where an uninitialised value came from: again with KTF_VALGRIND_ORIGINS=1)"
	exit 1
fi
echo "check-valgrind: $runs processes under memcheck, no report ($crashes children crashed in libtraceevent or libtracecmd by corrupt files, as the guard expects); $native runs chosen out, run natively: each read the same library-parsed files (or, without one, the same kinds of input with the same options) as an earlier run of its test (tests/valgrind.sh)"
