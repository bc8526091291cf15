#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# live/replay.sh — --live's page path on recorded ring-buffer pages:
# --live-replay=FILE reads the pages of a trace.dat as the live reader
# reads trace_pipe_raw (src/sources/live/), no root needed. Checked:
# - the default lines equal the trace.dat reader's (which tracedat.t holds
#   equal to `trace-cmd report`; pages.dat: every kind of page entry and
#   missed events, tests/gen/gen-tracedat-pages.py, as the page walker of
#   live-pages.c takes them) without its cpus= line, and `trace-cmd
#   report` itself when it is installed; with a rule file, the tool's own
#   output on the trace.dat;
# - --live --stats on the generated host with kvm_exit/kvm_entry pairs
#   (tests/fixtures/exits/host-exits.dat): each interval's tables equal
#   --stats --time-range of that interval on the trace.dat, the whole
#   run's equal --stats (the Inputs table names the input, so it is left
#   out); =json: one JSON object per line, the last document --stats=json's.
# TAP out; SKIP without --live (libtracefs) or python3.
set -u
: "${KTF:?}" "${KTF_SRCDIR:?}"
cd "$KTF_SRCDIR" || exit 99
if ! $KTF --help | grep -q -- --live-replay || ! command -v python3 >/dev/null ||
   [ -z "${KTF_HAVE_TRACECMD:-}" ]; then
	echo "1..0 # SKIP needs --live (libtracefs) and python3"
	exit 0
fi
if $KTF --live-replay=tests/fixtures/exits/host-exits.dat 2>&1 >/dev/null |
	grep -q "built without libtracefs"; then
	echo "1..0 # SKIP built without libtracefs"
	exit 0
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/ktf-replay.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
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

exits=tests/fixtures/exits/host-exits.dat
for dat in $exits tests/fixtures/tracedat/mixed-sched.dat \
	   tests/fixtures/tracedat/host-kvm-v6.dat \
	   tests/fixtures/tracedat/host-local-clock.dat \
	   tests/fixtures/tracedat/pages.dat; do
	$KTF "$dat" | sed 1d > "$T/want"
	$KTF --live-replay="$dat" > "$T/got" 2> "$T/err"
	cmp -s "$T/want" "$T/got" && [ -s "$T/got" ] && ! [ -s "$T/err" ]
	ok $? "$dat: replayed pages print the trace.dat reader's lines ($(wc -l < "$T/got") lines)"
	if command -v trace-cmd >/dev/null; then
		trace-cmd report "$dat" 2>/dev/null | sed 1d > "$T/tc"
		cmp -s "$T/tc" "$T/got"
		ok $? "$dat: replayed pages print trace-cmd report's lines"
	fi
done

# a page whose commit runs past its end: the others print, exit 1, where
python3 - "$exits" "$T/bad.dat" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
at = b.index(b"flyrecord\0") + 10
off, size = struct.unpack_from("<QQ", b, at + 16)      # CPU 1's pages
struct.pack_into("<Q", b, off + 8, 0xffffff)          # its first commit
open(sys.argv[2], "wb").write(b)
print("# CPU 1's first page at 0x%x" % off)
PY
$KTF --live-replay="$T/bad.dat" > "$T/got" 2> "$T/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q "CPU 1: offset 0x[0-9a-f]*: a ring-buffer page whose data runs past its end" "$T/err" &&
	[ "$(wc -l < "$T/got")" -gt 400 ] && [ "$(wc -l < "$T/got")" -lt 759 ]
ok $? "a damaged page: exit $rc, $(wc -l < "$T/got") of 759 events, $(cat "$T/err")"

# rules: the same template output
printf '%s\n' 'kvm:kvm_exit %(ts)d %(common_cpu)d %(comm)s vcpu=%(vcpu_id)d reason=%(exit_reason)d rip=%(guest_rip)#x' \
	'kvm:* %(ts)d %(name)s %(pid)d %(info)s' > "$T/rules"
$KTF -f "$T/rules" "$exits" > "$T/want"
$KTF -f "$T/rules" --live-replay="$exits" > "$T/got"
cmp -s "$T/want" "$T/got" && [ -s "$T/got" ]
ok $? "$exits: with rules, the replay prints the trace.dat's template lines"

# --chrome and --perfetto: the replay's timeline is the trace.dat's (the
# input's kind aside, "live"), and the two hold the same one
$KTF --chrome --live-replay="$exits" > "$T/live.json" 2> "$T/err"
$KTF --chrome "$exits" > "$T/rec.json"
sed 's/"kind":"live"/"kind":"trace.dat"/' "$T/live.json" | cmp -s - "$T/rec.json" &&
	grep -q '"kind":"live"' "$T/live.json" && grep -q '"cat":"kvm"' "$T/live.json" &&
	! [ -s "$T/err" ]
ok $? "$exits: --chrome of the replay is that of the trace.dat, its input's kind aside"
if command -v protoc >/dev/null; then
	$KTF --perfetto --live-replay="$exits" -o "$T/live.pb" &&
		python3 tests/perfetto-check/check-perfetto.py --chrome "$T/live.json" \
			tests/perfetto-check/ktf-perfetto.proto "$T/live.pb" > "$T/check" 2>&1
	r=$?
	sed 's/^/# /' "$T/check"
	ok $r "$exits: --perfetto of the replay holds --chrome's timeline"
fi

# the filters: --vcpu and --pid as on the trace.dat; --time-range from
# the first event; --events, which --live asks the kernel for, filters
# the replay's pages (they hold every event recorded)
for f in --vcpu=1 --pid=2001 "--time-range=0.001s~0.0015s" --events=kvm:kvm_exit; do
	case $f in
	--time-range=*)
		first=$(printf '* %%(ts)d\n' > "$T/ts" && $KTF -f "$T/ts" "$exits" | head -1)
		want="--time-range=$((first + 1000000))~$((first + 1500000))" ;;
	*) want=$f ;;
	esac
	$KTF "$want" "$exits" 2>/dev/null | sed 1d > "$T/want"
	$KTF "$f" --live-replay="$exits" > "$T/got"
	# equal, and some but not all of the 759 events
	cmp -s "$T/want" "$T/got" && [ -s "$T/got" ] &&
		[ "$(wc -l < "$T/got")" -lt 759 ]
	ok $? "$exits: $f on the replay prints what $want prints on the trace.dat ($(wc -l < "$T/got") lines)"
done

# an --events item no event of the replay has: said as on a recording
$KTF --live-replay="$exits" --events=kvm:kvm_exitt > "$T/got" 2> "$T/err"
rc=$?
[ "$rc" -eq 0 ] && ! [ -s "$T/got" ] &&
	grep -q "no event of the inputs is named 'kvm:kvm_exitt'; did you mean kvm_exit?" "$T/err"
ok $? "$exits: an --events typo on the replay: exit $rc, $(cat "$T/err")"

# --stats by interval against --stats --time-range on the trace.dat
first=$(printf '* %%(ts)d\n' > "$T/ts" && $KTF -f "$T/ts" "$exits" | head -1)
iv_ns=500000
$KTF --live-replay="$exits" --stats --interval=0.0005 > "$T/live"
ok $? "$exits: --live-replay --stats runs"
# the blocks: "# interval N: ..." up to the next "# " line
python3 - "$T/live" "$T" <<'PY'
import sys
text = open(sys.argv[1]).read()
blocks, cur, name = {}, [], None
for line in text.split("\n"):
    if line.startswith("# interval ") or line.startswith("# the whole run"):
        if name is not None:
            blocks[name] = cur
        name = line.split(":")[0][2:].replace(" ", "-")
        cur = []
    else:
        cur.append(line)
if name is not None:
    blocks[name] = cur
for k, v in blocks.items():
    out = []
    for l in v:
        if l.startswith("Inputs:"):
            break
        out.append(l)
    while out and out[-1] == "":
        out.pop()
    open(sys.argv[2] + "/block-" + k, "w").write("\n".join(out) + "\n")
PY
k=0
nblocks=$(ls "$T" | grep -c '^block-interval-')
while [ "$k" -lt "$nblocks" ]; do
	lo=$((first + k * iv_ns))
	hi=$((lo + iv_ns - 1))
	$KTF --stats --time-range="$lo~$hi" "$exits" 2>/dev/null |
		sed '/^Inputs:/,$d' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' > "$T/want"
	cmp -s "$T/want" "$T/block-interval-$k"
	ok $? "$exits: interval $k's tables equal --stats --time-range=$lo~$hi"
	k=$((k + 1))
done
[ "$nblocks" -ge 3 ]
ok $? "$exits: $nblocks intervals of 0.5 ms"
$KTF --stats "$exits" | sed '/^Inputs:/,$d' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' > "$T/want"
cmp -s "$T/want" "$T/block-the-whole-run"
ok $? "$exits: the whole run's tables equal --stats"

# json: one object per line; the last one is --stats=json's document
$KTF --live-replay="$exits" --stats=json --interval=0.001 > "$T/json"
$KTF --stats=json "$exits" > "$T/want.json"
python3 - "$T/json" "$T/want.json" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
objs = [json.loads(l) for l in lines]
want = json.load(open(sys.argv[2]))
ivs = [o for o in objs if "interval" in o]
assert len(ivs) >= 3 and ivs[-1]["last"], "intervals"
assert sum(o["events"] for o in ivs) == sum(e["count"] for e in want["events"])
last = objs[-1]
for k in ("events", "exits"):
    if k in want:
        assert last.get(k) == want[k], k
PY
ok $? "$exits: --stats=json: one JSON object per line, the events of the intervals add up, the last line is --stats=json's"

echo "1..$n"
[ "$fail" -eq 0 ]
