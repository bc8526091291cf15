#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write QEMU traces made to break a reader (issue 34, items 8 to 11).

  gen-qemu-hostile.py KIND OUT [N]

KIND:
  collide  OUT a simple trace (tests/fixtures/qemu/trace-events) with N
           (default 200000) mapping records whose ids are multiples of the
           inverse of 0x9e3779b97f4a7c15 mod 2^64 (a multiplicative hash's
           constant: id * c >> 32 is 0 for every one of them, so they all
           shared a slot), all but the last named kvm_io_window_exit; then
           one event of the first id and one of the last
  dropped  OUT a simple trace: a good event, a dropped-events record of
           16 bytes of arguments (its count is 8), a good event
  stamp    OUT a log (ISO stamps, current QEMU): a good line, one stamped
           in the year 2600 (its ns since 1970 pass 2^64), a good line
  stamp72  OUT the same with QEMU 7.2's TID@SEC.USEC stamps
  split    OUT the trace-events file OUT.trace-events with an event of
           format "%s,%s;x", and a log OUT of N (default 4) lines of
           1000000 bytes: its name, then commas without a ";x", then a good
           line (a match tried every split of the first %s and scanned the
           rest for ";x" each time)
"""
import struct
import sys

MAGIC = 0xf2b177cb0aa429b4
DROPPED = 0xfffffffffffffffe
GOLDEN = 0x9e3779b97f4a7c15
M64 = (1 << 64) - 1


def header():
    return struct.pack("<QQQ", M64, MAGIC, 4)


def mapping(eid, name):
    b = name.encode()
    return struct.pack("<QQI", 0, eid, len(b)) + b


def event(eid, ts, pid, payload):
    return struct.pack("<QQQII", 1, eid, ts, 24 + len(payload), pid) + payload


def collide(out, n):
    inv = pow(GOLDEN, -1, 1 << 64)
    recs = [header()]
    ids = [(k * inv) & M64 for k in range(1, n + 1)]
    for i, eid in enumerate(ids):
        recs.append(mapping(eid, "kvm_run_exit" if i in (0, n - 1)
                            else "kvm_io_window_exit"))
    two = struct.pack("<QQ", 0, 2)
    recs.append(event(ids[0], 1000, 7, two))
    recs.append(event(ids[-1], 2000, 7, two))
    open(out, "wb").write(b"".join(recs))


def dropped(out):
    two = struct.pack("<QQ", 1, 2)
    recs = [header(), mapping(5, "kvm_run_exit"),
            event(5, 1000, 7, two),
            event(DROPPED, 1500, 7, struct.pack("<QQ", 3, 4)),
            event(5, 2000, 7, two)]
    open(out, "wb").write(b"".join(recs))


def stamp(out, qemu72):
    def line(stamp, text):
        return stamp + text + "\n"
    if qemu72:
        good = "4242@1764084722.278912:"
        bad = "4242@20000000000.000001:"
        good2 = "4242@1764084722.279000:"
        sep = ""
    else:
        good = "2026-11-25T15:32:02.278912Z"
        bad = "2600-01-01T00:00:00.000001Z"
        good2 = "2026-11-25T15:32:02.279000Z"
        sep = " "
    text = "kvm_run_exit cpu_index 0, reason 2"
    open(out, "w").write(line(good + sep, text) + line(bad + sep, text) +
                         line(good2 + sep, text))


def split(out, n):
    open(out + ".trace-events", "w").write(
        'qemu_test_split(const char *a, const char *b) "%s,%s;x"\n')
    name = "qemu_test_split "
    long_line = name + "," * (1000000 - len(name)) + "\n"
    with open(out, "w") as f:
        for _ in range(n):
            f.write(long_line)
        f.write(name + "a,b;x\n")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    kind, out = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else None
    if kind == "collide":
        collide(out, n or 200000)
    elif kind == "dropped":
        dropped(out)
    elif kind == "stamp":
        stamp(out, False)
    elif kind == "stamp72":
        stamp(out, True)
    elif kind == "split":
        split(out, n or 4)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
