#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-tracedat-zlib.py [--3.1|--3.2] IN OUT [CHUNK_PAGES]: write the uncompressed version 7
trace.dat IN (little endian, as `trace-cmd convert --compression none`
writes it) as trace-cmd would write it with zlib compression, after
trace-cmd.dat.v7(5) and trace-cmd's compress-zlib.c: "zlib" and a version
in the header; every section but the options compressed, a section as
u32 compressed size, u32 size, then one zlib stream; the flyrecord CPU
data as u32 chunk count, then per chunk of CHUNK_PAGES pages (default 2)
u32 compressed size, u32 size, one zlib stream, page-aligned after the
section header; every offset the options hold moved to match.

Each CPU's size in the BUFFER option: with --3.1 (the default) the bytes
of its chunks, as trace-cmd 3.1 wrote it; with --3.2 the chunk count's 4
bytes too, as trace-cmd 3.2 and later write it (checked on the public
recordings of trace-cmd 3.1.4, 3.2.0 and 3.3.1).

The trace-cmd and libtracecmd of Debian 12 support zstd only, so no zlib
file can be recorded here; this makes one from a real recording.
"""
import os
import struct
import sys
import zlib

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tracedat7  # noqa: E402

OPTIONS, FLYRECORD = 0, 3


def sections(data, at):
    out = []
    while at < len(data):
        sid, flags, strid, body = tracedat7.section(data, at)
        if flags & 1:
            sys.exit("section at %#x is compressed already" % at)
        out.append(dict(off=at, id=sid, strid=strid, body=body))
        at += 16 + len(body)
    return out


def main():
    args = sys.argv[1:]
    count = 0
    if args and args[0] in ("--3.1", "--3.2"):
        count = 4 if args.pop(0) == "--3.2" else 0
    if len(args) not in (2, 3):
        sys.exit(__doc__)
    src, dst = args[0], args[1]
    pages = int(args[2]) if len(args) > 2 else 2
    data = open(src, "rb").read()
    page, off_at, first = tracedat7.header(data)
    if data[tracedat7.NAME_AT:tracedat7.NAME_AT + 5] != b"none\0":
        sys.exit("not an uncompressed file")
    opt_off = struct.unpack_from("<Q", data, off_at)[0]
    secs = sections(data, first)

    # the CPU data of each flyrecord section, from the BUFFER options
    cpus = {}
    for s in secs:
        if s["id"] != OPTIONS:
            continue
        for oid, at, size in tracedat7.options(s["body"]):
            if oid == 3:
                fly = struct.unpack_from("<Q", s["body"], at)[0]
                t = tracedat7.buffer_cpus(s["body"], at)
                n = struct.unpack_from("<I", s["body"], t - 4)[0]
                cpus[fly] = [struct.unpack_from("<IQQ", s["body"], t + 20 * i)
                             for i in range(n)]

    # new contents, then offsets
    head = data[:tracedat7.NAME_AT] + b"zlib\0" + zlib.ZLIB_VERSION.encode() + b"\0"
    pos = len(head) + 8
    newoff, newcpu = {}, {}
    for s in secs:
        s["noff"] = pos
        newoff[s["off"]] = pos
        if s["id"] == OPTIONS:
            s["flags"], s["new"] = 0, bytearray(s["body"])
        elif s["id"] == FLYRECORD:
            body = bytearray()
            base = pos + 16
            pad = (-(base) % page)
            body += b"\0" * pad
            for cpu, off, size in cpus.get(s["off"], []):
                if not size:
                    newcpu[(s["off"], cpu)] = (0, 0)
                    continue
                raw = data[off:off + size]
                chunks = [raw[i:i + pages * page] for i in range(0, len(raw), pages * page)]
                blob = bytearray()
                for c in chunks:
                    z = zlib.compress(c, 9)
                    blob += struct.pack("<II", len(z), len(c)) + z
                newcpu[(s["off"], cpu)] = (base + len(body), len(blob) + count)
                body += struct.pack("<I", len(chunks)) + blob
            s["flags"], s["new"] = 1, body
        else:
            z = zlib.compress(s["body"], 9)
            s["flags"], s["new"] = 1, struct.pack("<II", len(z), len(s["body"])) + z
        pos += 16 + len(s["new"])

    for s in secs:
        if s["id"] != OPTIONS:
            continue
        b = s["new"]
        for oid, at, size in tracedat7.options(s["body"]):
            if oid in (0, 3, 16, 17, 18, 19, 20, 21, 22) and size >= 8:
                off = struct.unpack_from("<Q", b, at)[0]
                if off:
                    struct.pack_into("<Q", b, at, newoff[off])
            if oid == 3:
                t = tracedat7.buffer_cpus(s["body"], at)
                for i, (cpu, off, size) in enumerate(cpus[struct.unpack_from("<Q", s["body"], at)[0]]):
                    noff, nsize = newcpu[(struct.unpack_from("<Q", s["body"], at)[0], cpu)]
                    struct.pack_into("<IQQ", b, t + 20 * i, cpu, noff, nsize)

    out = bytearray(head + struct.pack("<Q", newoff[opt_off]))
    for s in secs:
        assert len(out) == s["noff"]
        out += struct.pack("<HHIQ", s["id"], s["flags"], s["strid"], len(s["new"]))
        out += s["new"]
    open(dst, "wb").write(out)


if __name__ == "__main__":
    main()
