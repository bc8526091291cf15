#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""uftrace-lostify.py TID.dat FROM-TO... — make a uftrace task file look
as if records had been lost: the records FROM..TO-1 (0-based, in the file
as it is) are replaced by one LOST record as libmcount writes it when a
new buffer starts after lost ones (libmcount/record.c: time 0, type LOST,
depth 0, addr = how many were lost). Ranges in ascending order; adjacent
ones give LOST records one after another. Records with payloads are
not handled (record without -a/-A/-R)."""
import struct
import sys


def main():
    path = sys.argv[1]
    ranges = [tuple(int(x) for x in r.split('-')) for r in sys.argv[2:]]
    data = open(path, 'rb').read()
    recs = []
    for off in range(0, len(data), 16):
        _, w = struct.unpack_from('<QQ', data, off)
        if (w >> 3) & 7 != 5 or (w >> 2) & 1:
            sys.exit('%s: offset %#x: not a plain record' % (path, off))
        recs.append(data[off:off + 16])
    out = []
    at = 0
    for a, b in ranges:
        if a < at or b <= a or b > len(recs):
            sys.exit('bad range %d-%d' % (a, b))
        out += recs[at:a]
        out.append(struct.pack('<QQ', 0, 2 | (5 << 3) | ((b - a) << 16)))
        at = b
    out += recs[at:]
    open(path, 'wb').write(b''.join(out))


main()
