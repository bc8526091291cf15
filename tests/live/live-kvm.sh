#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# live/live-kvm.sh — --live's text of the kvm events a guest making exits
# fires, against trace-cmd report of the same events recorded at the same
# time: `trace-cmd record -d --no-filter -C local -b 4096` on the top
# instance (a buffer the whole run fits in: topbuf.sh) and `--live` on
# kvm_fpu, kvm_pio, kvm_userspace_exit, kvm_emulate_insn (and kvm_entry,
# kvm_exit, whose text the kvm plugin makes) while contrib/tinyguest.c
# takes 200 samples (some 4,200 events). Both start before the guest and
# stop after it: the guest's events, in order, are the same in both, name
# and text byte for byte (times aside: each instance stamps an event
# itself), but for the first ones when trace-cmd began late (its buffers
# cleared after the guest started: at most half). kvm_fpu, kvm_pio and
# kvm_userspace_exit go through the print fmts compiled by
# tracecmd-pfmt.c, kvm_emulate_insn through tracecmd-kvmtext.c: this is
# their check on this machine's own kernel formats.
# TAP out; SKIP without --live, root, tracefs, /dev/kvm, trace-cmd or cc.
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
[ -c /dev/kvm ] || skip "no /dev/kvm"
[ -d $TR/events/kvm/kvm_pio ] || skip "no kvm events in $TR"
command -v trace-cmd >/dev/null || skip "needs trace-cmd"
command -v cc >/dev/null || skip "needs cc"
command -v python3 >/dev/null || skip "needs python3"
T=$(mktemp -d "${TMPDIR:-/tmp}/ktf-live-kvm.XXXXXX") || exit 99
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

cc -O2 -o "$T/tinyguest" contrib/tinyguest.c || skip "tinyguest does not build"
"$T/tinyguest" -n 1 -q > /dev/null 2>&1 || skip "tinyguest cannot run a guest here"

# wait_for TEST...: until the test holds, at most 30 s
wait_for() {
	i=0
	until "$@"; do
		i=$((i + 1))
		[ "$i" -gt 600 ] && return 1
		sleep 0.05
	done
}

EV="kvm:kvm_fpu kvm:kvm_pio kvm:kvm_userspace_exit kvm:kvm_emulate_insn kvm:kvm_entry kvm:kvm_exit"
recargs=""
for e in $EV; do recargs="$recargs -e $e"; done
topbuf_save
# shellcheck disable=SC2086 # recargs and topbuf_args are lists of options
(cd "$T" && exec trace-cmd record -d --no-filter -C local $topbuf_args $recargs \
	-o "$T/rec.dat" > "$T/rec.out" 2>&1) &
rec=$!
pids="$pids $rec"
$KTF --live --events="$(echo $EV | tr ' ' ,)" > "$T/live" 2> "$T/live.err" &
l1=$!
pids="$pids $l1"
# both enabled: the top instance's and ours
wait_for grep -q 1 $TR/events/kvm/kvm_pio/enable
wait_for sh -c "ls -d $TR/instances/kvmtrace_format-$l1 >/dev/null 2>&1 && grep -q 1 $TR/instances/kvmtrace_format-$l1/events/kvm/kvm_pio/enable"
"$T/tinyguest" -n 200 -q > "$T/guest.out" 2>&1
gpid=$(sed -n 's/^# tinyguest pid \([0-9]*\) .*/\1/p' "$T/guest.out")
# what the guest fired is in the buffers: the live run drains them at SIGINT
kill -INT $l1
wait $l1
r1=$?
kill -INT $rec
wait $rec
echo "1..2"
[ "$r1" -eq 0 ] && echo "ok 1 - --live ends with 0 at SIGINT" ||
	echo "not ok 1 - --live ends with 0 at SIGINT (exit $r1)"
trace-cmd report -i "$T/rec.dat" 2>/dev/null | sed 1d > "$T/report"
python3 - "$T/report" "$T/live" "${gpid:-0}" <<'PY'
import re, sys

LINE = re.compile(r"^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+): (\S+):\s+(.*)$")


def guest(path, pid):
    out = []
    for l in open(path, errors="replace"):
        m = LINE.match(l.rstrip("\n"))
        if m and int(m.group(2)) == pid:
            out.append((m.group(6), m.group(7)))
    return out


pid = int(sys.argv[3])
rep, live = guest(sys.argv[1], pid), guest(sys.argv[2], pid)
names = sorted({n for n, _ in rep})
# trace-cmd record clears its buffers after it enables the events: on a
# loaded machine the guest's first events may come before that; the rest
# (at least half) must be the end of --live's, byte for byte
late = len(live) - len(rep)
if rep and 0 < late <= len(live) // 2 and live[late:] == rep:
    print("# trace-cmd record began %d events late (a loaded machine): "
          "the last %d compared" % (late, len(rep)))
    live = live[late:]
if not rep or rep != live:
    print("not ok 2 - the guest's %d events (%s) as trace-cmd report prints them" %
          (len(live), " ".join(names)))
    for i, (a, b) in enumerate(zip(rep, live)):
        if a != b:
            print("# %d: report %r\n#    live   %r" % (i, a, b))
            break
    print("# report %d events, live %d" % (len(rep), len(live)))
    drops = [l.strip() for l in open(sys.argv[1], errors="replace")
             if "EVENTS DROPPED]" in l]
    if drops:
        print("# trace-cmd's recording lost events: %s" % "; ".join(drops[:4]))
    sys.exit(0)
print("ok 2 - the guest's %d events (%s) as trace-cmd report prints them" %
      (len(live), " ".join(names)))
PY
