# SPDX-License-Identifier: GPL-2.0-or-later
#
# hostile-perf.sh — perf.data rows of tests/hostile.sh (sourced by it: row,
# $T, $n and $KTF are its): files written to cost time or memory out of
# proportion to their size (tests/gen/gen-perf-hostile.py; issue 34).
# Each run has a CPU-time limit of 10 s (ulimit -t; each takes under
# 1.5 s here, the sanitizer build a few times that; before their fixes
# they took 27 s to minutes) and, where the build allows, 1 GiB of
# address space (they took up to 1.6 GB). The queue's row also checks
# the peak RSS (below 200 MB: it is 74 MB, 356 MB before its cap counted
# its entries). Not under valgrind (minutes of memcheck for 400 000
# records); the sanitizer build runs them. The tids row: 1 M COMMs took
# 17 s of CPU before (0.03 s now).
if [ -z "${KTF_HAVE_TRACECMD:-}" ] || [ -n "${KTF_VALGRIND_BIN:-}" ]; then
	for s in "overlapping id sections" "id updates between attrs" \
		"tids alike in their low bits" "a -z queue without rounds"; do
		n=$((n + 1))
		echo "ok $n - perf.data: $s # SKIP without tracecmd, or under valgrind"
	done
else
	for c in overlap updates tids zqueue; do
		python3 tests/gen/gen-perf-hostile.py "$c" "$T/p-$c.data"
	done
	plim="ulimit -t 10;"
	if (ulimit -v 1048576; $KTF --version) >/dev/null 2>&1; then
		plim="$plim ulimit -v 1048576;"
	fi
	: >"$T/p-empty.ref"
	row "perf.data: overlapping id sections (2000 attrs on one 200 KiB range)" 1 \
		'p-overlap.data: offset 0x188: corrupt perf.data: the id sections of the events add up to more than the file.s 494291 bytes \(they overlap\)' \
		"$T/p-empty.ref" "$plim"' $KTF "$T/p-overlap.data"'
	printf '%s\n' '           :4243  4243 [000]  5000.000000:     ev0: reason HLT rip 0xffffffff81001000 info 100c 0' \
		>"$T/p-updates.ref"
	row "perf.data: id updates between attrs (48 000 of each, a pipe)" 0 - \
		"$T/p-updates.ref" "$plim"' $KTF - <"$T/p-updates.data"'
	printf '%s\n' '           :4243  4243 [000]  5000.000000: kvm:kvm_exit: reason HLT rip 0xffffffff81001000 info 100c 0' \
		>"$T/p-tids.ref"
	row "perf.data: tids alike in their low bits (1 M COMMs of 32 767 multiples of 2^17)" 0 - \
		"$T/p-tids.ref" "$plim"' $KTF "$T/p-tids.data"'
	# peak RSS where /usr/bin/time and a plain build allow
	rss=
	if [ -x /usr/bin/time ] && ! grep -q -a __asan_init "$KTF" 2>/dev/null; then
		rss=y
	fi
	export rss
	row "perf.data: a -z queue without rounds (3 M samples in 21 KB)" 0 - \
		"$T/p-empty.ref" "$plim"' if [ -n "$rss" ]; then /usr/bin/time -o "$T/p-rss" -f %M $KTF "$T/p-zqueue.data" || exit; m=$(tail -n 1 "$T/p-rss"); [ "$m" -lt 200000 ] || { echo "kvmtrace_format: peak RSS $m KiB" >&2; exit 1; }; else $KTF "$T/p-zqueue.data"; fi'
	rm -f "$T"/p-*.data
fi
# found by the perf fuzz target's corpus, run through the sanitizer build
# of the program: a tracepoint whose format the file lacks has no name, and
# the rule names were sorted from a NULL array (UBSan: qsort's argument 1)
if [ -n "${KTF_HAVE_TRACECMD:-}" ]; then
	row "perf.data: a tracepoint without its format, and a format libtraceevent divides by zero in" 1 \
		'perf-unnamed-tracepoint-qsort-null: CPU 0: offset 0x7e8: event kvm_exit: libtraceevent crashes \(SIGFPE' \
		- '$KTF tests/fuzz/regress/perf-unnamed-tracepoint-qsort-null'
else
	n=$((n + 1))
	echo "ok $n - perf.data: a tracepoint without its format # SKIP without tracecmd"
fi
# found by the perf fuzz target: sched_process_fork's child_comm is a
# two-byte __data_loc (no length: libtraceevent 1.7 takes the rest of the
# record, and its unsigned length wraps) pointing past the sample, so
# libtraceevent read past the record until it hung or crashed (and the
# fallback text then went into a freed buffer). The guard now checks a
# sample's fields as a trace.dat record's: damaged, said, left out.
if [ -n "${KTF_HAVE_TRACECMD:-}" ]; then
	row "perf.data: a __data_loc field pointing past its sample is damage, not a read past it" 1 \
		'perf-guard-fallback-uaf: CPU 0: offset 0x680: event sched_process_fork: field .child_comm. points at bytes 6912\.\.6912 of a record of 36 bytes \(corrupt perf\.data\) \(3 damaged records left out in all\)' \
		- '$KTF tests/fuzz/regress/perf-guard-fallback-uaf > /dev/null'
else
	n=$((n + 1))
	echo "ok $n - perf.data: a damaged __data_loc # SKIP without tracecmd"
fi
