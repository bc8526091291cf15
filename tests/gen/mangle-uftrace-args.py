#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mangle-uftrace-args.py SRC DST — a copy of the uftrace data directory
SRC (tests/fixtures/uftrace/ktf-strargs) whose first string argument (atoi's
"3", in the first task) claims 200 bytes: the record disagrees with its
argument spec, and the reader must skip that record only.

Run: tests/gen/mangle-uftrace-args.py tests/fixtures/uftrace/ktf-strargs \\
         tests/fixtures/uftrace-gen/bad-args
"""
import os
import shutil
import struct
import sys

src, dst = sys.argv[1], sys.argv[2]
shutil.rmtree(dst, ignore_errors=True)
shutil.copytree(src, dst)
tid = min(int(f[:-4]) for f in os.listdir(dst) if f[:-4].isdigit() and f.endswith(".dat"))
path = os.path.join(dst, "%d.dat" % tid)
data = bytearray(open(path, "rb").read())
off = 0
while off + 16 <= len(data):
    ts, w = struct.unpack_from("<QQ", data, off)
    more = (w >> 2) & 1
    if more:
        # atoi's "3": u16 length 1, then "3"
        n = struct.unpack_from("<H", data, off + 16)[0]
        if n == 1 and data[off + 18:off + 19] == b"3":
            struct.pack_into("<H", data, off + 16, 200)
            break
        raise SystemExit("mangle-uftrace-args.py: the first payload is not atoi's \"3\"")
    off += 16
open(path, "wb").write(bytes(data))
