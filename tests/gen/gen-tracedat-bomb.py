#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-tracedat-bomb.py KIND OUT: a small zlib- or zstd-compressed version 7
trace.dat (layout after trace-cmd.dat.v7(5); each CPU's size as trace-cmd
3.2 writes it, the chunk count counted) whose numbers ask for far more
disk or memory than the file holds. Only what kvmtrace_format reads
before libtracecmd is there: the header, one options section (a BUFFER
option and DONE), a flyrecord section, and for section-ratio one more
compressed section. KIND:

  overlap        64 CPUs whose tables all point at one chunk that
                 inflates to 16 MiB: a copy of 1 GiB from 16 KiB
  ratio          one chunk of 1 KiB claiming 32 MiB, more than deflate
                 can give (1032 bytes per byte)
  section-ratio  a compressed cmdlines section of 1 KiB claiming
                 200 MiB
  big            48 CPUs of one honest 16 MiB chunk each (zeros, about
                 1000:1): a copy of 768 MiB from 800 KiB, for the check of
                 the room for the copy (run it under ulimit -f)
  big-zstd       zstd: 48 CPUs of one honest 64 MiB chunk each (zeros,
                 a frame of RLE blocks written here, 2 KiB: zstd's own
                 bound is 32768:1): 3 GiB from 100 KiB, for the check of
                 the memory libtracecmd would take when no copy can be
                 made (run it under ulimit -v)
  section-zstd   zstd: a cmdlines section of 8 KiB that honestly inflates
                 to 256 MiB (within zstd's bound), beyond the most a
                 cmdlines section may claim (16 MiB)
  kallsyms-zstd  zstd: a kallsyms section of 3 KiB inflating to 96 MiB,
                 beyond the most kallsyms may claim (64 MiB)
  sections-zstd  zstd: nine printk sections of 16 MiB each, every one
                 within its own cap, 144 MiB together: beyond the most
                 all sections but the CPU data may claim (128 MiB)
"""
import struct
import sys
import zlib

PAGE = 4096
MIB = 1 << 20


def chunk(usize, claim=None):
    z = zlib.compress(b"\0" * usize, 9)
    return struct.pack("<II", len(z), claim or usize) + z


def zstd_zeros(usize):
    """One zstd frame of usize zeros (RFC 8878): single segment, the
    content size in 8 bytes, RLE blocks of 128 KiB."""
    block = 128 << 10
    out = struct.pack("<IB", 0xFD2FB528, 0xE0) + struct.pack("<Q", usize)
    left = usize
    while True:
        n = min(block, left)
        left -= n
        head = (1 if not left else 0) | (1 << 1) | (n << 3)
        out += struct.pack("<I", head)[:3] + b"\0"
        if not left:
            return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    kind, dst = sys.argv[1:]
    extra = []          # (section id, its content) after the flyrecord
    comp = b"zlib\0" + b"1.2.13\0"
    zstd = b"zstd\0" + b"1.5.4\0"

    def zsec(usize):
        z = zstd_zeros(usize)
        return struct.pack("<II", len(z), usize) + z

    def zcpu():
        z = zstd_zeros(PAGE)
        return struct.pack("<III", 1, len(z), PAGE) + z
    if kind == "overlap":
        blob = struct.pack("<I", 1) + chunk(16 * MIB)
        datas = [blob]
        ncpus = 64
    elif kind == "ratio":
        z = zlib.compress(b"\0" * MIB, 9)      # about 1 KiB
        datas = [struct.pack("<III", 1, len(z), 32 * MIB) + z]
        ncpus = 1
    elif kind == "section-ratio":
        datas = [struct.pack("<I", 1) + chunk(PAGE)]
        ncpus = 1
        z = zlib.compress(b"\0" * MIB, 9)
        extra = [(21, struct.pack("<II", len(z), 200 * MIB) + z)]
    elif kind == "big":
        one = struct.pack("<I", 1) + chunk(16 * MIB)
        datas = [one] * 48
        ncpus = 48
    elif kind == "big-zstd":
        z = zstd_zeros(64 * MIB)
        one = struct.pack("<III", 1, len(z), 64 * MIB) + z
        datas = [one] * 48
        ncpus = 48
        comp = zstd
    elif kind == "section-zstd":
        datas, ncpus, comp = [zcpu()], 1, zstd
        extra = [(21, zsec(256 * MIB))]
    elif kind == "kallsyms-zstd":
        datas, ncpus, comp = [zcpu()], 1, zstd
        extra = [(19, zsec(96 * MIB))]
    elif kind == "sections-zstd":
        datas, ncpus, comp = [zcpu()], 1, zstd
        extra = [(20, zsec(16 * MIB))] * 9
    else:
        sys.exit(__doc__)

    head = b"\x17\x08\x44tracing7\0" + bytes([0, 8]) + struct.pack("<I", PAGE)
    head += comp
    first = len(head) + 8

    # sections: options, flyrecord, then the extra one
    def options(fly, table):
        buf = struct.pack("<Q", fly) + b"\0" + b"local\0"
        buf += struct.pack("<II", PAGE, ncpus) + table
        o = struct.pack("<HI", 3, len(buf)) + buf
        return o + struct.pack("<HIQ", 0, 8, 0)

    table_len = 20 * ncpus
    opt_len = len(options(0, b"\0" * table_len))
    fly = first + 16 + opt_len
    body = bytearray()
    table = bytearray()
    for cpu in range(ncpus):
        if kind == "overlap":
            d = datas[0]
            if cpu == 0:
                body += d
            off = fly + 16
        else:
            d = datas[cpu]
            off = fly + 16 + len(body)
            body += d
        table += struct.pack("<IQQ", cpu, off, len(d))
    out = bytearray(head + struct.pack("<Q", first))
    out += struct.pack("<HHIQ", 0, 0, 0, opt_len) + options(fly, bytes(table))
    assert len(out) == fly
    out += struct.pack("<HHIQ", 3, 1, 0, len(body)) + body
    for sid, body in extra:
        out += struct.pack("<HHIQ", sid, 1, 0, len(body)) + body
    open(dst, "wb").write(out)


if __name__ == "__main__":
    main()
