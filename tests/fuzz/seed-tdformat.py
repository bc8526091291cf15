#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""seed-tdformat.py OUTDIR TRACE.DAT...: seeds for fuzz-tdformat.c.

Every event format of the given (version 6, or uncompressed) trace.dat
files, each with a record of the size its fields span, of 0 and of 8
bytes: a little-endian u16 length, the record, the format text.
"""
import re
import struct
import sys

out, n, seen = sys.argv[1], 0, set()
pat = re.compile(rb"name: [^\n]+\nID: [0-9]+\nformat:\n.*?print fmt: [^\n]*",
                 re.S)
for path in sys.argv[2:]:
    data = open(path, "rb").read()
    for m in pat.finditer(data):
        fmt = m.group(0)
        if fmt in seen or len(fmt) > 8000:
            continue
        seen.add(fmt)
        need = 0
        for o, s in re.findall(rb"offset:([0-9]+);\tsize:([0-9]+);", fmt):
            need = max(need, int(o) + int(s))
        for size in (need, 0, 8):
            rec = bytes((i * 37 + 1) & 0xff for i in range(size))
            n += 1
            with open("%s/f%d" % (out, n), "wb") as f:
                f.write(struct.pack("<H", size) + rec + fmt)
print("%d seeds" % n)
