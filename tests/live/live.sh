#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# live/live.sh — --live on this machine's kernel (root and tracefs):
# 1. `trace-cmd record -d --no-filter -C local -b 4096` on the top instance
#    (topbuf.sh) and two --live (default lines; a rule file) on
#    sched:sched_switch at the same time, a small workload making switches: in
#    the window all saw, each CPU's live lines are trace-cmd report's, in order
#    (times within 1 ms: each instance stamps an event itself, and this kernel
#    is a guest whose vCPU may stop between the two stamps; the largest gap is
#    printed; a comm may be "<...>" where the kernel's saved_cmdlines had none,
#    or the name before an exec where trace-cmd saved the name after it, at its
#    end: any name the record's switches show the pid with is taken, and at
#    most 1 % may be none of them, the first few shown), and the rule lines are
#    the tool's own on that trace.dat. Each instance fills an event's fields
#    itself: a field read apart (the prev_state of a task exiting meanwhile)
#    may differ, in at most 1 % of the lines; an exiting task's state read dead
#    by one and zombie by the other is not counted (under load each exit of the
#    workload may show it). Two --live at once: each saw the events.
# 2. SIGINT, SIGTERM, --duration and a closed output (also while no event
#    comes) end a run with exit 0 and leave no instance under instances/;
#    the next run removes the instance of a killed one.
# 3. Not root: exit 2, saying root is needed (setpriv --reuid=nobody).
# 4. An unknown event: exit 2, the closest name, no instance.
# Waits are on events (a line appears, a process exits), bounded.
# TAP out; SKIP without --live, root, tracefs (mounted here if root).
set -u
: "${KTF:?}" "${KTF_SRCDIR:?}"
cd "$KTF_SRCDIR" || exit 99
skip() {
	echo "1..0 # SKIP $1"
	exit 0
}
$KTF --live-replay=/dev/null 2>&1 | grep -q "built without libtracefs" &&
	skip "no --live in this build (libtracefs)"
[ "$(id -u)" -eq 0 ] || skip "--live needs root (CI runs as root)"
TR=/sys/kernel/tracing
if ! grep -q " $TR tracefs " /proc/mounts; then
	mount -t tracefs nodev $TR 2>/dev/null || skip "no tracefs at $TR"
fi
[ -d $TR/events/sched/sched_switch ] || skip "no sched:sched_switch"
command -v python3 >/dev/null || skip "needs python3"
T=$(mktemp -d "${TMPDIR:-/tmp}/ktf-live.XXXXXX") || exit 99
pids=""
# shellcheck source=tests/live/topbuf.sh
. tests/live/topbuf.sh
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	# trace-cmd record gone before the size is put back
	for p in $pids; do wait "$p" 2>/dev/null; done
	topbuf_restore
	rm -rf "$T"
}
trap cleanup EXIT
n=0
fail=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fail=$((fail + 1))
	fi
}

# wait_for TEST...: until the test holds, at most 30 s
wait_for() {
	i=0
	until "$@"; do
		i=$((i + 1))
		[ "$i" -gt 600 ] && return 1
		sleep 0.05
	done
}

alive() { kill -0 "$1" 2>/dev/null; }
dead() { ! kill -0 "$1" 2>/dev/null; }
has_instance() { [ -d "$TR/instances/kvmtrace_format-$1" ]; }
no_instance() { ! [ -d "$TR/instances/kvmtrace_format-$1" ]; }

# a little work: tasks that switch
workload() {
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		/bin/true
		ls / >/dev/null
	done
}

# ---------------------------------------------------------------- 1.
if command -v trace-cmd >/dev/null; then
	printf '%s\n' 'sched:sched_switch %(ts)d %(common_cpu)d %(prev_pid)d %(next_pid)d %(prev_comm)s>%(next_comm)s %(prev_state)d' > "$T/rules"
	topbuf_save
	# shellcheck disable=SC2086 # topbuf_args: no word or two
	(cd "$T" && exec trace-cmd record -d --no-filter -C local $topbuf_args \
		-e sched:sched_switch -o "$T/rec.dat" > "$T/rec.out" 2>&1) &
	rec=$!
	pids="$pids $rec"
	$KTF --live --events=sched:sched_switch > "$T/live" 2> "$T/live.err" &
	l1=$!
	$KTF --live --events=sched:sched_switch "$T/rules" > "$T/live-rules" \
		2> "$T/live-rules.err" &
	l2=$!
	pids="$pids $l1 $l2"
	wait_for grep -q 1 $TR/events/sched/sched_switch/enable
	wait_for test -s "$T/live"
	wait_for test -s "$T/live-rules"
	workload
	kill -INT $l1 $l2
	wait $l1
	r1=$?
	wait $l2
	r2=$?
	kill -INT $rec
	wait $rec
	[ "$r1" -eq 0 ] && [ "$r2" -eq 0 ]
	ok $? "two --live at once end with 0 at SIGINT"
	no_instance $l1 && no_instance $l2
	ok $? "... and leave no instance"
	if [ -s "$T/rec.dat" ]; then
		trace-cmd report -i "$T/rec.dat" 2>/dev/null | sed 1d > "$T/report"
		$KTF -f "$T/rules" "$T/rec.dat" > "$T/rec-rules"
		python3 - "$T/report" "$T/live" "$T/rec-rules" "$T/live-rules" <<'PY'
import re, sys

LINE = re.compile(r"^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+): (\S+):\s+(.*)$")

def text(path):
    out = []
    for l in open(path, errors="replace"):
        m = LINE.match(l.rstrip("\n"))
        if m:
            comm, pid, cpu, s, us, name, info = m.groups()
            out.append((int(s) * 1000000 + int(us), int(cpu), comm,
                        int(pid), name, info.rstrip()))
    return [(e[0] * 1000,) + e[1:] for e in out]  # ns

def rules(path):
    out = []
    for l in open(path):
        f = l.split()
        if len(f) >= 5:
            out.append((int(f[0]), int(f[1]), "", int(f[2]),
                        "sched_switch", " ".join(f[3:])))
    return out

gap = [0]
comms = [0]
races = [0]
resync = [0]

# every name a pid had in the record: the task's comm as each switch
# shows it (prev_comm:prev_pid [prio] S ==> next_comm:next_pid [prio])
names = {}
SIDE = re.compile(r"^(.*):(-?\d+) \[")

def learn(events):
    for e in events:
        names.setdefault(e[3], set()).add(e[2])
        for side in e[5].split(" ==> "):
            m = SIDE.match(side.strip())
            if m:
                names.setdefault(int(m.group(2)), set()).add(m.group(1))

def same(a, b, count=False):
    if abs(a[0] - b[0]) > 1000000 or a[1:2] != b[1:2] or a[3:] != b[3:]:
        return False
    if count:
        gap[0] = max(gap[0], abs(a[0] - b[0]))
        # the name at the task's first event (live) where trace-cmd keeps
        # the last (saved_cmdlines at the end): either is one it had
        if (a[2] != b[2] and b[2] != "<...>" and
                b[2] not in names.get(a[3], ())):
            if comms[0] < 5:
                print("# comm %r in the record, %r live (pid %d), never its name there" % (a[2], b[2], a[3]))
            comms[0] += 1
    return True

# an exiting task's last switch: its state read as dead (X, 16) by one
# instance and zombie (Z, 32) by the other, as the exit goes on between
# the two reads; on a loaded machine every exit of the workload may show
# it, so these are not counted in the 1 %
EXIT_STATE = re.compile(r"^(.*) (?:X|Z|16|32)$")

def exit_race(a, b):
    def rest(e):
        t = e[5].split(" ==> ")[0] if " ==> " in e[5] else e[5]
        m = EXIT_STATE.match(t)
        return m and (m.group(1), e[5][len(t):])
    ra, rb = rest(a), rest(b)
    return bool(ra) and ra == rb

def compare(want, got, what):
    bad = 0
    checked = 0
    lo = max(want[0][0], got[0][0]) + 2000000
    hi = min(want[-1][0], got[-1][0]) - 2000000
    cpus = sorted({e[1] for e in got})
    for cpu in cpus:
        w = [e for e in want if e[1] == cpu]
        g = [e for e in got if e[1] == cpu and lo <= e[0] <= hi]
        if not g:
            continue
        # where the live CPU's first event in the window is in the record
        # the nearest in time of the events like it
        cand = [i for i, e in enumerate(w) if same(e, g[0])]
        start = min(cand, key=lambda i: abs(w[i][0] - g[0][0])) if cand else None
        if start is None:
            print("# %s: CPU %d: the record has no %r" % (what, cpu, g[0]))
            bad += 1
            continue
        for i, e in enumerate(g):
            r = w[start + i] if start + i < len(w) else None
            # the same switch, a field read apart: each instance runs the
            # event's assignments itself (sched_switch's prev_state of a
            # task exiting meanwhile)
            if (r and not same(r, e) and abs(r[0] - e[0]) <= 1000000 and
                    r[1] == e[1] and r[3] == e[3] and r[4] == e[4]):
                print("# fields read apart: live %r, record %r" % (e, r))
                if not exit_race(r, e):
                    races[0] += 1
                checked += 1
                continue
            if start + i >= len(w) or not same(w[start + i], e, True):
                # an event one side has and the other not (a task that
                # exits between the two reads of its switch): the same
                # event a few places on or back, the lines after it
                # compared from there, counted
                near = [k for k in range(max(0, start + i - 3),
                                         min(len(w), start + i + 4))
                        if same(w[k], e)]
                if near:
                    k = min(near, key=lambda k: abs(k - start - i))
                    print("# %s: CPU %d: live %r at record line %d, not %d" % (
                        what, cpu, e, k, start + i))
                    start = k - i
                    resync[0] += 1
                    checked += 1
                    continue
                print("# %s: CPU %d: live %r, record %r" % (
                    what, cpu, e, w[start + i] if start + i < len(w) else None))
                bad += 1
                break
            checked += 1
    print("# %s: %d events compared in the common window, times %d ns apart at most, %d comms none of the pid's names" % (what, checked, gap[0], comms[0]))
    ok = (bad == 0 and checked >= 20 and comms[0] * 100 <= checked and
          races[0] * 100 <= checked and resync[0] * 100 <= checked)
    gap[0] = comms[0] = races[0] = resync[0] = 0
    return ok

learn(text(sys.argv[1]))
r1 = compare(text(sys.argv[1]), text(sys.argv[2]), "default lines")
r2 = compare(rules(sys.argv[3]), rules(sys.argv[4]), "rule lines")
drops = [l.strip() for l in open(sys.argv[1], errors="replace")
         if "EVENTS DROPPED]" in l]
if drops:
    print("# trace-cmd's recording lost events: %s" % "; ".join(drops[:4]))
sys.exit(0 if r1 and r2 else 1)
PY
		ok $? "--live's lines are trace-cmd report's, its rule lines the tool's on the trace.dat"
	else
		sed 's/^/# /' "$T/rec.out"
		ok 1 "trace-cmd record wrote no trace.dat"
	fi
else
	n=$((n + 1))
	echo "ok $n # SKIP no trace-cmd to compare with"
fi

# ---------------------------------------------------------------- 2.
for sig in INT TERM; do
	$KTF --live --events=sched:sched_switch > "$T/sig$sig" 2>&1 &
	p=$!
	pids="$pids $p"
	wait_for test -s "$T/sig$sig"
	has_instance $p
	ok $? "SIG$sig: the run has its instance while it reads"
	kill -$sig $p
	wait $p
	rc=$?
	[ "$rc" -eq 0 ] && no_instance $p
	ok $? "SIG$sig: exit $rc, no instance left"
done
$KTF --live --events=sched:sched_switch --duration=0.3 > "$T/dur" 2>&1 &
p=$!
wait $p
rc=$?
[ "$rc" -eq 0 ] && [ -s "$T/dur" ] && no_instance $p
ok $? "--duration: exit $rc after events, no instance left"
# withpid FILE CMD...: CMD, its pid in FILE (the run's instance is
# instances/kvmtrace_format-PID; another tool's or test's run may have
# one of its own meanwhile)
printf '%s\n' '#!/bin/sh' 'echo $$ > "$1"' 'shift' 'exec "$@"' > "$T/withpid"
# a closed pipe: the reader takes one line and goes
sh "$T/withpid" "$T/pipe.pid" $KTF --live --events=sched:sched_switch \
	2> "$T/pipe.err" | head -1 > "$T/pipe"
rc=$?
[ -s "$T/pipe" ] && [ -s "$T/pipe.pid" ] && no_instance "$(cat "$T/pipe.pid")"
ok $? "a closed output ends the run, no instance left"
# idle (kvm:* fires not here) and the pipe closed: the run still ends
timeout 30 sh -c "sh '$T/withpid' '$T/idle.pid' $KTF --live --events='kvm:*' | true"
rc=$?
[ "$rc" -eq 0 ] && [ -s "$T/idle.pid" ] && no_instance "$(cat "$T/idle.pid")"
ok $? "no event and a closed output: the run ends ($rc), no instance left"
# the instance of a killed run (its pid gone) goes with the next run
/bin/true &
gone=$!
wait $gone
mkdir "$TR/instances/kvmtrace_format-$gone"
$KTF --live --events=sched:sched_switch --duration=0.1 > /dev/null 2>&1
no_instance $gone
ok $? "the instance a killed run left (pid $gone) is removed by the next"
# --live --stats: blocks per interval, the whole run at the end
$KTF --live --events=sched:sched_switch --stats --interval=0.1 --duration=0.35 > "$T/stats" 2>&1
[ "$(grep -c '^# interval' "$T/stats")" -ge 3 ] && grep -q '^# the whole run' "$T/stats" &&
	grep -q 'sched:sched_switch' "$T/stats"
ok $? "--live --stats --interval=0.1 --duration=0.35: $(grep -c '^# interval' "$T/stats") interval blocks and the whole run's"
# --live --chrome at a signal, --live --perfetto to its --duration: whole
# files of the events seen (JSON that loads, with slices: sched_switch
# makes the CPUs' task slices; the protobuf as check-perfetto.py checks
# it), no instance left
sh "$T/withpid" "$T/chrome.pid" $KTF --live --events=sched:sched_switch \
	--chrome -o "$T/live.json" 2> "$T/chrome.err" &
lc=$!
pids="$pids $lc"
wait_for test -s "$T/chrome.pid"
wait_for has_instance "$(cat "$T/chrome.pid")"
workload
kill -INT "$(cat "$T/chrome.pid")"
wait $lc
rc=$?
python3 - "$T/live.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
n = sum(e.get("ph") in ("X", "B") for e in ev)
assert n, "no slice"
print("# %d trace events, %d slices" % (len(ev), n))
PY
[ $? -eq 0 ] && [ "$rc" -eq 0 ] && ! [ -s "$T/chrome.err" ] &&
	no_instance "$(cat "$T/chrome.pid")"
ok $? "--live --chrome -o FILE ends at SIGINT ($rc) with the whole JSON"
if command -v protoc >/dev/null; then
	# the workload once the run's instance is there; --duration ends it
	sh "$T/withpid" "$T/pf.pid" $KTF --live --events=sched:sched_switch \
		--duration=2 --perfetto -o "$T/live.pb" 2> "$T/pf.err" &
	lp=$!
	pids="$pids $lp"
	wait_for test -s "$T/pf.pid"
	wait_for has_instance "$(cat "$T/pf.pid")"
	workload
	wait $lp
	rc=$?
	python3 tests/perfetto-check/check-perfetto.py \
		tests/perfetto-check/ktf-perfetto.proto "$T/live.pb" > "$T/pf.check" 2>&1
	r=$?
	sed 's/^/# /' "$T/pf.check"
	[ "$r" -eq 0 ] && [ "$rc" -eq 0 ] && ! [ -s "$T/pf.err" ] &&
		grep -q "[1-9][0-9]* slices" "$T/pf.check"
	ok $? "--live --perfetto --duration=2 -o FILE: a whole trace ($rc)"
else
	n=$((n + 1))
	echo "ok $n # SKIP no protoc to check --live --perfetto"
fi

# ---------------------------------------------------------------- 3.
if command -v setpriv >/dev/null; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		$KTF --live --duration=1 > "$T/out" 2> "$T/err"
	rc=$?
	[ "$rc" -eq 2 ] && grep -q "needs root" "$T/err" && ! [ -s "$T/out" ]
	ok $? "not root: exit $rc: $(cat "$T/err")"
else
	n=$((n + 1))
	echo "ok $n # SKIP no setpriv to drop root"
fi

# ---------------------------------------------------------------- 4.
sh "$T/withpid" "$T/typo.pid" $KTF --live --events=sched:sched_swich \
	--duration=1 > "$T/out" 2> "$T/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "did you mean 'sched:sched_switch'" "$T/err" &&
	[ -s "$T/typo.pid" ] && no_instance "$(cat "$T/typo.pid")"
ok $? "an unknown event: exit $rc: $(cat "$T/err")"

echo "1..$n"
[ "$fail" -eq 0 ]
