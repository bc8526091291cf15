#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-big-tracedat.py IN OUT EVENTS [KALLSYMS_BYTES]: a version 6,
uncompressed trace.dat of about EVENTS events made from the recorded v6
file IN (tests/fixtures/tracedat/host-kvm-v6.dat): the CPU data pages of
IN repeated, each copy's page timestamps moved past the previous copy's, so
the events stay in time order; its kallsyms replaced by a generated table
of KALLSYMS_BYTES bytes (default 5.4 MB, the size of this machine's
/proc/kallsyms). With EVENTS smaller than one copy of IN, only the first
EVENTS events of the first CPU with data are kept (the page's commit cut
after them).

The benchmark (tests/bench/bench-table.sh) makes its trace.dat inputs with
it at benchmark time, then `trace-cmd convert` makes the zstd v7 copies:
recording needs /dev/kvm and root, which not every machine has.

Layout after trace-cmd.dat(5) (v6): header, header_page, header_event,
ftrace and event formats, u32-sized kallsyms and printk, u64-sized
cmdlines, u32 CPU count, "options  " up to option 0, "flyrecord", per CPU
u64 offset and u64 size, page-aligned CPU data.
"""
import struct
import sys


def u32(d, p):
    return struct.unpack_from("<I", d, p)[0]


def u64(d, p):
    return struct.unpack_from("<Q", d, p)[0]


def parse(d):
    """Offsets of the kallsyms size word, the flyrecord CPU table, the page
    size and the CPU count of the v6 file d."""
    if d[:10] != b"\x17\x08\x44tracing" or d[10:12] != b"6\0":
        sys.exit("not a version 6 trace.dat")
    if d[12] != 0:
        sys.exit("big-endian files are not handled here")
    page = u32(d, 14)
    p = 18
    for name in (b"header_page\0", b"header_event\0"):
        if d[p:p + len(name)] != name:
            sys.exit("no %s at %#x" % (name[:-1].decode(), p))
        p += len(name)
        p += 8 + u64(d, p)
    n = u32(d, p)
    p += 4
    for _ in range(n):
        p += 8 + u64(d, p)
    nsys = u32(d, p)
    p += 4
    for _ in range(nsys):
        p = d.index(b"\0", p) + 1
        n = u32(d, p)
        p += 4
        for _ in range(n):
            p += 8 + u64(d, p)
    kallsyms = p
    p += 4 + u32(d, p)
    p += 4 + u32(d, p)             # printk
    p += 8 + u64(d, p)             # cmdlines
    cpus = u32(d, p)
    p += 4
    if d[p:p + 10] != b"options  \0":
        sys.exit("no options at %#x" % p)
    p += 10
    while True:
        oid = struct.unpack_from("<H", d, p)[0]
        if oid == 0:
            p += 2
            break
        if oid == 3:
            sys.exit("instances (BUFFER options) are not handled here")
        p += 6 + u32(d, p + 2)
    if d[p:p + 10] != b"flyrecord\0":
        sys.exit("no flyrecord at %#x" % p)
    return kallsyms, p + 10, page, cpus


def kallsyms_table(size):
    """Text like /proc/kallsyms, sorted by address, of about size bytes."""
    out, addr, i, n = [], 0xffffffff81000000, 0, 0
    kinds = "TtTtDdBbRr"
    while n < size:
        line = "%016x %s ktf_bench_symbol_%d" % (addr, kinds[i % 10], i)
        if i % 7 == 3:
            line += "\t[kvm]"
        line += "\n"
        out.append(line)
        n += len(line)
        addr += 0x40 + (i * 37) % 0x400
        i += 1
    return "".join(out).encode()


def events_in(d, page_at, page, keep):
    """The commit of the page at page_at cut after keep data events, and
    how many it holds; (commit, count)."""
    commit = u64(d, page_at + 8) & 0xfffff
    p, end, n = page_at + 16, page_at + 16 + commit, 0
    while p < end and (keep is None or n < keep):
        h = u32(d, p)
        tl = h & 31
        if tl == 0:
            p += 8 + u32(d, p + 4)    # the length word counts itself too
            n += 1
        elif tl <= 28:
            p += 4 + tl * 4
            n += 1
        elif tl == 29:            # padding: array[0] is its length
            p += 4 + u32(d, p + 4)
        else:                     # time extend / absolute stamp
            p += 8
    return p - page_at - 16, n


def main():
    src, dst, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
    ksize = int(sys.argv[4]) if len(sys.argv) > 4 else 5414586
    d = open(src, "rb").read()
    ks, table, page, cpus = parse(d)
    cpu = [struct.unpack_from("<QQ", d, table + 16 * c) for c in range(cpus)]

    # events in one copy, and the time span of one copy
    per_copy, first, last = 0, None, 0
    for off, size in cpu:
        for at in range(off, off + size, page):
            per_copy += events_in(d, at, page, None)[1]
            ts = u64(d, at)
            first = ts if first is None else min(first, ts)
            last = max(last, ts)
    span = last - first + 10_000_000    # pages hold ~ms; a safe gap

    data = []                          # per CPU: bytes
    if want < per_copy:
        left = want
        for off, size in cpu:
            pages = bytearray()
            for at in range(off, off + size, page):
                if left <= 0:
                    break
                commit, n = events_in(d, at, page, left)
                pg = bytearray(d[at:at + page])
                flags = u64(d, at + 8) & ~0xfffff
                struct.pack_into("<Q", pg, 8, flags | commit)
                pg[16 + commit:] = bytes(page - 16 - commit)
                pages += pg
                left -= n
            data.append(bytes(pages))
        total = want
    else:
        copies = (want + per_copy - 1) // per_copy
        for off, size in cpu:
            one = d[off:off + size]
            buf = bytearray(size * copies)
            for k in range(copies):
                base = k * size
                buf[base:base + size] = one
                for at in range(0, size, page):
                    struct.pack_into("<Q", buf, base + at,
                                     u64(one, at) + k * span)
            data.append(bytes(buf))
        total = copies * per_copy

    kall = kallsyms_table(ksize) if ksize else b""
    head = (d[:ks] + struct.pack("<I", len(kall)) + kall +
            d[ks + 4 + u32(d, ks):table])
    start = len(head) + 16 * cpus
    start = (start + page - 1) // page * page
    with open(dst, "wb") as f:
        f.write(head)
        at = start
        for c in range(cpus):
            f.write(struct.pack("<QQ", at, len(data[c])))
            at += len(data[c])
        f.write(bytes(start - len(head) - 16 * cpus))
        for c in range(cpus):
            f.write(data[c])
    print(total)


if __name__ == "__main__":
    main()
