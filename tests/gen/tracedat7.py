# SPDX-License-Identifier: GPL-2.0-or-later
"""The layout of a little-endian version 7 trace.dat (trace-cmd.dat.v7(5)),
for the test generators mangle-tracedat.py and gen-tracedat-zlib.py."""
import struct
import sys

MAGIC = b"\x17\x08\x44tracing7\0"
NAME_AT = 18        # magic, "7\0", endian, long size, page size


def header(data):
    """(page size, offset of the options offset, offset of the first section)."""
    if data[:12] != MAGIC:
        sys.exit("not a version 7 trace.dat")
    if data[12] != 0:
        sys.exit("big-endian files are not handled here")
    page = struct.unpack_from("<I", data, 14)[0]
    ver = data.index(b"\0", NAME_AT) + 1
    off_at = data.index(b"\0", ver) + 1
    return page, off_at, off_at + 8


def section(data, at):
    """The section at at: (id, flags, string id, content)."""
    sid, flags, strid, size = struct.unpack_from("<HHIQ", data, at)
    return sid, flags, strid, data[at + 16:at + 16 + size]


def options(body):
    """(id, offset of its data, length) of each option, up to DONE."""
    pos, out = 0, []
    while pos + 6 <= len(body):
        oid, size = struct.unpack_from("<HI", body, pos)
        out.append((oid, pos + 6, size))
        pos += 6 + size
        if oid == 0:
            break
    return out


def buffer_cpus(body, at):
    """Offset (in body) of the CPU table of the BUFFER option at at."""
    p = at + 8
    p = body.index(b"\0", p) + 1           # name
    p = body.index(b"\0", p) + 1           # clock
    return p + 8                          # page size, count; then the table
