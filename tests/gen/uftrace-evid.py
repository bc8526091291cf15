#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""uftrace-evid.py TID.dat OLD:NEW[,NEW...]... — give event records other
event ids: the first event of id OLD gets the first NEW, the second the
second, and so on (the rest keep OLD). The data stays as it is, so OLD
and NEW must have data of one layout (read:page-fault and the pmu-*
events: two u64). For events no machine here records (no PMU in a VM)."""
import struct
import sys


def main():
    path = sys.argv[1]
    maps = {}
    for arg in sys.argv[2:]:
        old, new = arg.split(':')
        maps[int(old)] = [int(x) for x in new.split(',')]
    data = bytearray(open(path, 'rb').read())
    off = 0
    while off < len(data):
        _, w = struct.unpack_from('<QQ', data, off)
        typ, more, addr = w & 3, (w >> 2) & 1, w >> 16
        if (w >> 3) & 7 != 5:
            sys.exit('%s: offset %#x: bad record magic' % (path, off))
        if typ == 3 and maps.get(addr):
            w = (w & 0xffff) | (maps[addr].pop(0) << 16)
            struct.pack_into('<Q', data, off + 8, w)
        off += 16
        if more:
            if typ != 3:
                sys.exit('%s: offset %#x: arguments not handled' % (path, off))
            size = struct.unpack_from('<H', data, off)[0]
            off += (2 + size + 7) & ~7
    open(path, 'wb').write(bytes(data))


main()
