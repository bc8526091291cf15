#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-uftrace-kernel.py OUTDIR -- a uftrace data directory as
`uftrace record -k` leaves it, for a kernel that has the function_graph
tracer (this machine's has not: uftrace record -k says "kernel tracing
disabled due to an error" here): gen-uftrace-qemu.py's synth/ plus
kernel_header (the page size, word size, byte order and the ftrace
formats of header_page, funcgraph_entry and funcgraph_exit, as
utils/kernel.c saves them; the text of kimleeju/bpf_redis's public
recording of issue 38) and kernel-cpu0.dat, one ring-buffer page of a
funcgraph_entry and a funcgraph_exit of task 4242 (u64 page time stamp,
u64 commit, then events: a u32 header of type_len 6 (24 bytes) and a
27-bit time delta).  kvmtrace_format does not read kernel records yet; it
says so (tests/cli/uftrace/kernel-noted).  uftrace 0.13's dump of it:
    uftrace dump -d OUTDIR/kernel
"""
import importlib.util
import os
import shutil
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "gen_uftrace_qemu", os.path.join(HERE, "gen-uftrace-qemu.py"))
g = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(g)

COMMON = ("\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
          "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
          "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
          "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n")
ENTRY = ("name: funcgraph_entry\nID: 11\nformat:\n" + COMMON +
         "\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
         "\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n\n"
         'print fmt: "--> %ps (%d)", (void *)REC->func, REC->depth\n')
EXIT = ("name: funcgraph_exit\nID: 10\nformat:\n" + COMMON +
        "\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
        "\tfield:unsigned long long calltime;\toffset:24;\tsize:8;\tsigned:0;\n"
        "\tfield:unsigned long long rettime;\toffset:32;\tsize:8;\tsigned:0;\n"
        "\tfield:unsigned long overrun;\toffset:16;\tsize:8;\tsigned:0;\n"
        "\tfield:int depth;\toffset:40;\tsize:4;\tsigned:1;\n\n"
        'print fmt: "<-- %ps (%d) (start: %llx  end: %llx) over: %d", '
        "(void *)REC->func, REC->depth, REC->calltime, REC->rettime, "
        "REC->depth\n")
PAGE = ("\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
        "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
        "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
        "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n")


def header():
    out = "PAGE_SIZE: 4096\nLONG_SIZE: 8\nENDIAN: LE\n"
    for name, text in (("events/header_page", PAGE),
                       ("events/ftrace/funcgraph_entry/format", ENTRY),
                       ("events/ftrace/funcgraph_exit/format", EXIT)):
        out += "TRACEFS: %s: %d\n%s" % (name, len(text), text)
    return out


def page(ts):
    func = 0xffffffff81000100
    ev = b""
    # funcgraph_entry: 20 bytes of fields, 24 with padding (type_len 6)
    ev += struct.pack("<I", (100 << 5) | 6)
    ev += struct.pack("<HBBiQi4x", 11, 0, 0, 4242, func, 0)
    # funcgraph_exit: 44 bytes, 48 with padding (type_len 12)
    ev += struct.pack("<I", (500 << 5) | 12)
    ev += struct.pack("<HBBiQQQQi4x", 10, 0, 0, 4242, func, 0,
                      ts + 100, ts + 600, 0)
    body = struct.pack("<QQ", ts, len(ev)) + ev
    return body + b"\0" * (4096 - len(body))


def main():
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    d = os.path.join(sys.argv[1], "kernel")
    if os.path.exists(d):
        shutil.rmtree(d)
    g.write_synth(d)
    # the KERNEL feature (bit 2) in the info header's u64 at byte 16
    info = bytearray(open(os.path.join(d, "info"), "rb").read())
    feat = struct.unpack_from("<Q", info, 16)[0] | 4
    struct.pack_into("<Q", info, 16, feat)
    g.write(os.path.join(d, "info"), bytes(info))
    g.write(os.path.join(d, "kernel_header"), header())
    g.write(os.path.join(d, "kernel-cpu0.dat"), page(g.SYNTH_NS + 30))
    g.write(os.path.join(d, "kernel-cpu1.dat"), b"")
    return 0


if __name__ == "__main__":
    sys.exit(main())
