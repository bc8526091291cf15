#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mangle-tracedat.py OP IN OUT: make a trace.dat into a test input.

  replace:OLD:NEW   replace the first OLD by NEW (as long) anywhere in the
                 file: in a version 6 file the event formats are plain
                 text (e.g. replace:REC->irqchip:REC->irqXhip makes
                 libtraceevent 1.7.1 dereference NULL while parsing the
                 format of kvm_pic_set_irq; trace-cmd report crashes too)

  byte:OFFSET:VALUE   set the byte at OFFSET (decimal) to VALUE (0-255)

The others take a version 7 file (uncompressed, little endian, as
trace-cmd convert --compression none writes it), after trace-cmd.dat.v7(5):

  zlib-options   say the file is zlib-compressed and append a zlib copy of
                 its first options section, which the header then points
                 to (the file libtracecmd without zlib support refuses,
                 whose options kvmtrace_format can still read)
  options-loop   point the first options section's DONE option at the
                 section itself (libtracecmd 1.3.1 would follow it until
                 its stack ends)

  sizes-3.2      (a zstd or zlib file whose CPU sizes leave out the chunk
                 count, as trace-cmd 3.1 and its convert write them) add
                 the count's 4 bytes to each, as trace-cmd 3.2 and later
                 write them: the file trace-cmd 3.2 would have written

  kallsyms-damage   (a zstd or zlib file, as trace-cmd convert writes it)
                 change a byte in the middle of the compressed kallsyms
                 section, after the frame's header: its sizes still say
                 what they said, but it no longer inflates
"""
import os
import struct
import sys
import zlib

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tracedat7  # noqa: E402


def first_section(data, off_at):
    at = struct.unpack_from("<Q", data, off_at)[0]
    sid, flags, _, opts = tracedat7.section(data, at)
    if sid != 0 or flags & 1:
        sys.exit("the first options section is not an uncompressed one")
    return at, opts


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    op, src, dst = sys.argv[1:]
    data = bytearray(open(src, "rb").read())
    if op.startswith("byte:"):
        _, off, val = op.split(":")
        data[int(off)] = int(val)
        open(dst, "wb").write(data)
        return
    if op.startswith("replace:"):
        _, old, new = op.split(":", 2)
        old, new = old.encode(), new.encode()
        at = data.find(old)
        if at < 0 or len(old) != len(new):
            sys.exit("no %r in the file, or %r is not as long" % (old, new))
        data[at:at + len(old)] = new
        open(dst, "wb").write(data)
        return
    _, off_at, first = tracedat7.header(data)
    name_at = tracedat7.NAME_AT
    if op == "kallsyms-damage":
        # the sections follow one another from the first to the end
        at = first
        while at + 16 <= len(data):
            sid, flags, _, body = tracedat7.section(data, at)
            if sid == 19:
                if not flags & 1:
                    sys.exit("the kallsyms section is not compressed")
                csize = struct.unpack_from("<I", body, 0)[0]
                # past a zstd frame header (at most 18 bytes); zstd
                # frames carry no checksum here, so not every byte
                # changed is found: this one is (Data corruption detected)
                hit = 32 + csize // 2
                if hit >= csize:
                    sys.exit("the kallsyms section is too small to damage")
                data[at + 16 + 8 + hit] ^= 0x5a
                open(dst, "wb").write(data)
                return
            at += 16 + len(body)
        sys.exit("no kallsyms section")
    if op == "sizes-3.2":
        if data[name_at:name_at + 5] == b"none\0":
            sys.exit("the file is not compressed")
        n = 0
        at = first
        while at + 16 <= len(data):
            sid, flags, _, body = tracedat7.section(data, at)
            if sid == 0 and not flags & 1:
                for oid, a, _ in tracedat7.options(body):
                    if oid != 3:
                        continue
                    t = tracedat7.buffer_cpus(body, a)
                    cpus = struct.unpack_from("<I", body, t - 4)[0]
                    for i in range(cpus):
                        p = at + 16 + t + 20 * i + 12
                        size = struct.unpack_from("<Q", data, p)[0]
                        if size:
                            struct.pack_into("<Q", data, p, size + 4)
                            n += 1
            at += 16 + len(body)
        if not n:
            sys.exit("no CPU data in an uncompressed options section")
        open(dst, "wb").write(data)
        return
    at, opts = first_section(data, off_at)
    if op == "zlib-options":
        if data[name_at:name_at + 5] != b"none\0":
            sys.exit("the file is compressed already")
        data[name_at:name_at + 4] = b"zlib"
        z = zlib.compress(bytes(opts))
        new = len(data)
        data += struct.pack("<HHIQII", 0, 1, 0, len(z) + 8, len(z), len(opts))
        data += z
        struct.pack_into("<Q", data, off_at, new)
    elif op == "options-loop":
        done = [a for oid, a, _ in tracedat7.options(opts) if oid == 0]
        if not done:
            sys.exit("no DONE option")
        struct.pack_into("<Q", data, at + 16 + done[0], at)
    else:
        sys.exit(__doc__)
    open(dst, "wb").write(data)


if __name__ == "__main__":
    main()
