#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# uftrace-compare.sh — kvmtrace_format against uftrace itself, on the
# recorded fixtures of tests/gen/record-uftrace.sh,
# tests/gen/record-uftrace-langs.sh, tests/gen/record-uftrace-lost.sh
# (LOST records), tests/gen/record-uftrace-cases.sh (older task.txt,
# argument specs, C++ spellings, time filter, calls that never return,
# no symbols) and tests/gen/gen-uftrace-evpmu.sh (TAP):
#
#   dump     the default text of the lone directory is `uftrace dump`
#            (NAME.dump) byte for byte: its header, "reading" lines, task
#            after task, argument, return value and event data lines, the
#            perf events of perf-cpuN.dat, C++ names as uftrace spells
#            them; for the Rust fixtures, names differ only where
#            uftrace's own demangler leaves junk
#            (tests/gen/uftrace-dump-order.py --as-is)
#   replay   the keys args and retval equal the lists of `uftrace replay`
#            (NAME.replay; tests/gen/uftrace-replay-args.py)
#   full     --demangle=full equals c++filt on --demangle=no's names
#   report   the function rows of --stats=csv equal `uftrace report`
#            (NAME.report: names, calls, total and self) and, where there
#            is NAME.avg, `uftrace report --avg-total` (avg, min, max)
#            (tests/gen/uftrace-report-cmp.py); for Rust v0, which uftrace
#            leaves mangled, with --demangle=no; Rust names may differ
#            where uftrace's demangler leaves junk
#
# C++ and Rust fixtures need libiberty; all of it needs python3.
set -u
: "${KTF:?}" "${KTF_SRCDIR:?}"
fix=$KTF_SRCDIR/tests/fixtures/uftrace
gen=$KTF_SRCDIR/tests/gen
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktf-uftcmp.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

plain="args events plain ktf-strargs ktf-autoargs ktf-forkexec ktf-statics ktf-enum ktf-evdata ktf-lost ktf-forksched ktf-evpmu ktf-oldsess ktf-argspec ktf-tfilter ktf-noreturn ktf-daemon ktf-nosym ktf-evdaemon ktf-evtfilter"
mangled="ktf-cxx ktf-names ktf-rust-legacy ktf-rust-v0"
printf '%s\n' '* %(tid)d %(type)s %(symbol)s(%(args)s) %(retval)s' \
	> "$tmp/replay.formats"
printf '%s\n' '* %(type)s %(symbol)s' > "$tmp/names.formats"

n=0
for d in $plain $mangled; do n=$((n + 4)); done
echo "1..$n"
i=0
ok() { i=$((i + 1)); echo "ok $i - $1"; }
notok() { i=$((i + 1)); echo "not ok $i - $1"; sed 's/^/# /' "$tmp/log"; }
skip() { i=$((i + 1)); echo "ok $i - $1 # SKIP $2"; }

for d in $plain $mangled; do
	why=
	command -v python3 > /dev/null || why="no python3"
	case " $mangled " in
	*" $d "*) [ -n "${KTF_HAVE_LIBIBERTY:-}" ] || why="built without libiberty" ;;
	esac
	if [ -n "$why" ]; then
		skip "$d dump" "$why"; skip "$d replay" "$why"
		skip "$d report" "$why"; skip "$d full" "$why"
		continue
	fi
	# dump
	if ! $KTF "$fix/$d" > "$tmp/out" 2> "$tmp/log"; then
		notok "$d dump"
	elif case "$d" in ktf-rust-*) false ;; *) true ;; esac; then
		if cmp "$fix/$d.dump" "$tmp/out" > "$tmp/log" 2>&1; then
			ok "$d dump"
		else
			diff "$fix/$d.dump" "$tmp/out" | head -20 >> "$tmp/log"
			notok "$d dump"
		fi
	elif python3 "$gen/uftrace-dump-order.py" "$fix/$d.dump" --as-is \
			--compare "$tmp/out" > "$tmp/log" 2>&1; then
		ok "$d dump"
	else
		notok "$d dump"
	fi
	# replay
	if [ ! -f "$fix/$d.replay" ]; then
		skip "$d replay" "no $d.replay"
	elif $KTF -f "$tmp/replay.formats" "$fix/$d" > "$tmp/out" 2> "$tmp/log" &&
		python3 "$gen/uftrace-replay-args.py" "$fix/$d.replay" \
			"$tmp/out" > "$tmp/log" 2>&1; then
		ok "$d replay"
	else
		notok "$d replay"
	fi
	# report
	dm=
	[ "$d" = ktf-rust-v0 ] && dm=--demangle=no
	set --
	[ -f "$fix/$d.avg" ] && set -- --avg "$fix/$d.avg"
	case $d in ktf-rust-*) set -- "$@" --junk ;; esac
	if $KTF $dm --stats=csv "$fix/$d" > "$tmp/out" 2> "$tmp/log" &&
		python3 "$gen/uftrace-report-cmp.py" "$fix/$d.report" \
			"$tmp/out" "$@" > "$tmp/log" 2>&1; then
		ok "$d report"
	else
		notok "$d report"
	fi
	# full
	case " $mangled " in
	*" $d "*) ;;
	*) skip "$d full" "no mangled names"; continue ;;
	esac
	if ! command -v c++filt > /dev/null; then
		skip "$d full" "no c++filt"
		continue
	fi
	if $KTF --demangle=no -f "$tmp/names.formats" "$fix/$d" 2> "$tmp/log" |
		sed -n 's/^e[a-z]* //p' | c++filt > "$tmp/want" &&
		$KTF --demangle=full -f "$tmp/names.formats" "$fix/$d" \
			2> "$tmp/log" | sed -n 's/^e[a-z]* //p' > "$tmp/got" &&
		diff "$tmp/want" "$tmp/got" > "$tmp/log"; then
		ok "$d full"
	else
		notok "$d full"
	fi
done
