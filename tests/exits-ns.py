#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""exits-ns.py -- start_ns and duration_ns of --exits against exact sums.

  exits-ns.py gen MHZ OUT.kvmtrace  a kvmtrace stream (VMEXIT, VMENTRY)
                                    whose exits lie at the edges of seconds
                                    of a MHZ TSC (up to 2^20 s) and at
                                    2^52 ticks, with durations at the edges
                                    of a second
  exits-ns.py check MHZ ROWS.csv    every row's start_ns and duration_ns
                                    is round(ticks * 10^9 / hz) (halves
                                    up), in integers; exit 0, else the
                                    first wrong row

The rows print whole seconds and the rest apart (sink-exits.c); this
holds them to the one rounding --stats uses (sink_time_ns()).
"""
import csv
import struct
import sys

VMEXIT, VMENTRY = 0x00010002, 0x00010001


def hz_of(mhz):
    """-c MHZ's ticks per second, rounded (sink_time_init())."""
    return int(float(mhz) * 1e6 + 0.5)


def stamps(hz):
    """(exit, entry) TSC pairs, in order."""
    out = []
    for s in (0, 1, 2, 59, 3600, 86401, 1 << 20):
        for r in (0, 1, hz // 2 - 1, hz // 2, hz // 2 + 1, hz - 2, hz - 1):
            out.append((s * hz + r, s * hz + r + 1))
    t = (1 << 21) * hz
    for d in (0, 1, hz // 2, hz - 1, hz, 3 * hz + 7):
        out.append((t, t + d))
        t += d + 1
    out.append((1 << 52, (1 << 52) + 12345))
    return out


def gen(mhz, path):
    data = b""
    for ex, en in stamps(hz_of(mhz)):
        data += struct.pack("<IIIQ", VMEXIT | 3 << 28 | 1 << 31, 1000, 0, ex)
        data += struct.pack("<III", 12, 0x1000, 0)
        data += struct.pack("<IIIQ", VMENTRY | 1 << 31, 1000, 0, en)
    open(path, "wb").write(data)


def ns(ticks, hz):
    return (ticks * 10**9 + hz // 2) // hz


def check(mhz, rows_path):
    hz = hz_of(mhz)
    rows = list(csv.DictReader(open(rows_path, newline="")))
    want = stamps(hz)
    if len(rows) != len(want):
        print("%d rows, %d exits" % (len(rows), len(want)))
        return 1
    for i, (row, (ex, en)) in enumerate(zip(rows, want)):
        try:
            got = (int(row["start_ns"]), int(row["duration_ns"]))
        except ValueError:
            got = (row["start_ns"], row["duration_ns"])
        exp = (ns(ex, hz), ns(en - ex, hz))
        if got != exp:
            print("row %d (ticks %d, %d): %s, want %s" % (i + 1, ex, en - ex,
                                                         got, exp))
            return 1
    print("%d rows" % len(rows))
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2], sys.argv[3])
        sys.exit(0)
    sys.exit(check(sys.argv[2], sys.argv[3]))
