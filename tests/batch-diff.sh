#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# batch-diff.sh — the batched paths (run-batch.c: one input read in
# batches, the batched merge) against run_events()'s loop, an event at a
# time (KTF_EVENT_AT_A_TIME=1, main.c), which promise the same output,
# messages and exit status: each case runs both ways and the two must be
# byte for byte alike (stdout, stderr, status). No expected output of its
# own: the loop is the reference, whatever it prints.
#
# The inputs cross many batch boundaries (64 a batch for one input, 128 a
# slot and a caller's batch in the merge): generated kvmtrace streams of
# 700 to 3000 records, little- and big-endian, a third without TSC, one
# that steps back in time, one cut mid-record; uftrace recordings, whole
# and damaged; a perf.data and trace.dat files (an input read an event at
# a time among batched ones: the mixed merge), merged up to 17, 40 and
# 65 (a tree past merge_fill()'s unrolled depths, MERGE_FILL_MAX: the
# mixed merge is not batched there), and a trace.dat that outlasts the
# batched inputs (its times after theirs: run_merged_tail()), damaged,
# its pages bad, through a filter, --chrome, head (cut where more than a
# pipe's 64 KiB is left to print, so that every run meets the reader gone
# and stops there, without its end's warnings: a cut near the end raced
# with it). The options: the default lines,
# the 2008 rule file (relts, on the stream as printed), each filter,
# --tsc-mhz and a guest on its offset (mapped times), -c, and the sinks
# (--chrome, --perfetto, --stats, --exits), -o, a reader that goes away
# (head). tests/cli-unbatched.sh runs every CLI case the same way, against
# their expected output.
# TAP out. Not under valgrind (big_tests in Makefile.am).
set -u
: "${KTF:?}" "${KTF_SRCDIR:?}" "${KTF_BUILDDIR:?}"
cd "$KTF_SRCDIR" || exit 99
T=$(mktemp -d "${TMPDIR:-/tmp}/ktf-batch-diff.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
gen=$KTF_BUILDDIR/tests/gen/gen-kvmtrace
[ -x "$gen" ] || { echo "1..0 # SKIP no $gen"; exit 0; }

"$gen" -n 3000 -s 1 -r > "$T/a.bin"
"$gen" -n 2000 -s 2 -t 70 > "$T/b.bin"
"$gen" -n 1500 -s 3 -b > "$T/c.bin"
# the second stream starts over: a step back mid-input
{ "$gen" -n 700 -s 4; "$gen" -n 700 -s 5; } > "$T/d.bin"
"$gen" -n 900 -s 6 > "$T/e.full"
head -c $(($(wc -c < "$T/e.full") - 7)) "$T/e.full" > "$T/e.bin"
"$gen" -n 2500 -s 7 -x > "$T/x.bin"
# every event's time and relts (the stream's, or between those a filter
# lets through)
printf '* %%(ts)d %%(relts)d %%(name)s\n' > "$T/relts.f"
a=$T/a.bin b=$T/b.bin c=$T/c.bin d=$T/d.bin e=$T/e.bin x=$T/x.bin
k=formats/kvmtrace
uf=tests/fixtures/uftrace
td=tests/fixtures/tracedat/host-kvm-v6.dat
tdd=tests/fixtures/tracedat/class-damaged.dat
tdb=tests/fixtures/tracedat/class-badpage.dat
hg=tests/fixtures/hostguest
# m40, m65: that many inputs of 400 records, each of its own seed, every
# third without TSC on most records (40: merge_fill()'s copy of depth 6;
# 65: past its copies with a depth, MERGE_FILL_MAX in merge.h)
m40= m65= i=0
while [ $i -lt 65 ]; do
	if [ $((i % 3)) = 2 ]; then t=70; else t=0; fi
	"$gen" -n 400 -s $((100 + i)) -r -t $t > "$T/m.$i"
	[ $i -lt 40 ] && m40="$m40 $T/m.$i"
	m65="$m65 $T/m.$i" i=$((i + 1))
done
# s40: 40 inputs of 300 records, every one stamped: the stream never
# steps back, so merge_fill() counts each input's span per event (past
# 16 inputs; lazily up to them), which the inputs' overlap check reads
s40= i=0
while [ $i -lt 40 ]; do
	"$gen" -n 300 -s $((200 + i)) -r > "$T/s.$i"
	s40="$s40 $T/s.$i" i=$((i + 1))
done

# NAME|REQUIRES (tracecmd, yaml or -)|ARGS (shell words, $T and the names
# above; $KTF_HOW is batch or one, for a file of each run's own)
cases="
one|-|\$a
one-rules|-|-f \$k \$a
one-notsc|-|-f \$k \$b
one-be|-|-f \$k \$c
one-back|-|-f \$k \$d
one-cut|-|-f \$k \$e
one-events|-|-f \$k --events=VMEXIT,VMENTRY \$a
one-vcpu|-|-f \$k --vcpu=1-2 \$b
one-pid|-|-f \$k --pid=1001 \$d
one-range|-|-f \$k --time-range=1000100000~1000400000 \$a
one-mhz|-|-c 2400 -f \$k \$a
one-tsc-mhz|-|--tsc-mhz=2400 -f \$k \$b
one-guest|-|--guest=\$a --tsc-offset=-5000 -f \$k \$a
one-guest-filter|-|--guest=\$d --tsc-offset=1000 --vcpu=0 -f \$k \$d
one-chrome|-|--chrome -c 2400 \$a
one-perfetto|-|--perfetto -c 2400 \$b
one-stats|-|--stats \$x
one-stats-json|-|--stats=json \$d
one-exits|-|--exits -c 2400 \$x
merge|-|\$a \$b \$c
merge-rules|-|-f \$k \$a \$b \$c \$d \$e
merge-nine|-|-f \$k \$a \$b \$c \$d \$e \$x \$a \$b \$d
merge-events|-|-f \$k --events=VMEXIT,PAGE_FAULT \$a \$b \$d
merge-vcpu|-|-f \$k --vcpu=3 \$a \$b \$e
merge-range|-|-f \$k --time-range=1000050000~1000600000 \$a \$b \$c
merge-guest|-|--guest=\$b --tsc-offset=20000 -f \$k \$a \$b
merge-tsc-mhz|-|--tsc-mhz=3000 -f \$k \$a \$x
merge-chrome|-|--chrome -c 2400 \$a \$b \$d
merge-perfetto|-|--perfetto --tsc-mhz=2400 \$a \$x
merge-stats|-|--stats \$a \$x \$d
merge-exits|-|--exits=csv -c 2400 \$x \$a
merge-17|-|-f \$k \$a \$b \$c \$d \$e \$x \$a \$b \$c \$d \$e \$x \$a \$b \$c \$d \$e
merge-40|-|-f \$k \$m40 \$d
merge-65|-|-f \$k \$m65 \$e
merge-40-stamped|-|-f \$k \$s40
merge-guest-filter|-|--guest=\$d --tsc-offset=-7000 --events=VMEXIT,IO_WRITE --vcpu=0-1 -f \$k \$a \$d \$x
merge-output|-|-o \$T/merge-output.\$KTF_HOW -f \$k \$a \$b; cat \$T/merge-output.\$KTF_HOW
merge-head|-|-f \$k \$a \$b \$c | head -n 777
uftrace|-|\$uf/args
uftrace-rules|yaml|-f formats/uftrace.yaml \$uf/ktf-cxx
uftrace-damaged|-|\$uf/../uftrace-gen/bad-task
uftrace-merged|-|--tsc-mhz=2400 \$uf/args \$uf/events \$a
uftrace-guest|-|--tsc-mhz=2400 --guest=\$a --tsc-offset=-300 \$uf/ktf-cxx \$a
perf|tracecmd|tests/fixtures/perf/kvm.data
perf-merged|tracecmd|--tsc-mhz=2400 tests/fixtures/perf/kvm.data \$a \$b
tracedat-kvmtrace|tracecmd|\$td \$a
tracedat-kvmtrace-rules|tracecmd|-f \$k \$td \$a \$b
tracedat-guest|tracecmd|--guest=\$b --tsc-offset=auto \$hg/host6.dat \$b
tracedat-filter|tracecmd|--events='kvm:*,VMEXIT' \$td \$a \$d
tracedat-uftrace|tracecmd|--clock=\$uf/args=tsc \$hg/host6.dat \$uf/args
tracedat-stats|tracecmd|--stats \$td \$x
tracedat-17|tracecmd|-f \$k \$td \$a \$b \$c \$d \$e \$x \$a \$b \$c \$d \$e \$x \$a \$b \$c
tracedat-40|tracecmd|-f \$k \$td \$m40
tracedat-65|tracecmd|-f \$k \$td \$m65
tracedat-tail-damaged|tracecmd|--clock=\$tdd=tsc \$a \$tdd
tracedat-tail-damaged-rules|tracecmd|--clock=\$tdd=tsc -f \$k \$a \$tdd
tracedat-tail-badpage|tracecmd|--clock=\$tdb=tsc \$b \$tdb
tracedat-tail-chrome|tracecmd|--chrome -c 2400 \$td \$a
tracedat-tail-vcpu|tracecmd|-f \$k --vcpu=1 \$td \$a
tracedat-tail-relts|tracecmd|-f \$T/relts.f \$td \$a
tracedat-tail-relts-pid|tracecmd|-f \$T/relts.f --pid=29978 \$td \$a
tracedat-tail-head|tracecmd|\$hg/host7.dat \$a | head -n 3050
"

# run NAME ARGS: both ways, into $T/NAME.{batch,one}.{out,err,rc}
run() {
	for how in batch one; do
		if [ $how = one ]; then
			KTF_EVENT_AT_A_TIME=1
		else
			KTF_EVENT_AT_A_TIME=
		fi
		export KTF_EVENT_AT_A_TIME
		KTF_HOW=$how
		eval "\"\$KTF\" $2" > "$T/$1.$how.out" 2> "$T/$1.$how.err"
		echo $? > "$T/$1.$how.rc"
	done
	unset KTF_EVENT_AT_A_TIME
}

n=$(printf '%s\n' "$cases" | grep -c '|')
echo "1..$n"
i=0
fail=0
printf '%s\n' "$cases" | while IFS='|' read -r name need args; do
	[ -n "$name" ] || continue
	i=$((i + 1))
	if { [ "$need" = tracecmd ] && [ -z "${KTF_HAVE_TRACECMD:-}" ]; } ||
		{ [ "$need" = yaml ] && [ -z "${KTF_HAVE_YAML:-}" ]; }; then
		echo "ok $i - $name # SKIP built without $need"
		continue
	fi
	run "$name" "$args"
	bad=
	for f in out err rc; do
		cmp -s "$T/$name.batch.$f" "$T/$name.one.$f" || bad="$bad $f"
	done
	lines=$(wc -l < "$T/$name.one.out")
	if [ -z "$bad" ]; then
		echo "ok $i - $name: $lines lines, exit $(cat "$T/$name.one.rc"), batched and an event at a time alike"
	else
		echo "not ok $i - $name:$bad differ (batched, then an event at a time)"
		for f in $bad; do
			diff "$T/$name.batch.$f" "$T/$name.one.$f" 2>&1 | head -8 | sed 's/^/# /'
		done
	fi
done
