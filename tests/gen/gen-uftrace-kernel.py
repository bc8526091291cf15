#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-uftrace-kernel.py OUTDIR -- a uftrace data directory as
`uftrace record -k` leaves it, for a kernel that has the function_graph
tracer (this machine's has not: uftrace record -k says "kernel tracing
disabled due to an error" here): gen-uftrace-qemu.py's synth/ plus
kernel_header (the page size, word size, byte order and the ftrace
formats of header_page, funcgraph_entry and funcgraph_exit, as
utils/kernel.c saves them; the text of kimleeju/bpf_redis's public
recording of issue 38), kallsyms (a few /proc/kallsyms lines, one of a
module) and ring-buffer pages (u64 page time stamp, u64 commit, then
events: a u32 header of type_len (payload / 4) and a 27-bit time delta;
type_len 30 is a time extend, its delta's upper bits in the next u32):

  kernel-cpu0.dat  two pages: the first opens with a time extend (dump
                   prints "[time ] extend" before the first record), then
                   do_syscall_64 > ksys_write of task 4242; the second has
                   the missed-events flags with a stored count (3), a
                   vfs_write of task 4243 (a module symbol) and two
                   sched:sched_process_fork events (record -k -E): one of
                   task 4243, one of pid 7777 whose pid field names 4243
  kernel-cpu1.dat  empty (dump skips it)
  kernel-cpu3.dat  kernel-cpu2.dat is missing: dump calls it kernel-cpu2;
                   missed events without a count (-1); within emit() of
                   task 4242, a function past the last symbol (printed
                   <ADDR>); a record of task 5555, which has no TID.dat

OUTDIR/kernel32 holds a 32-bit kernel's data (LONG_SIZE 4: 12-byte page
headers, a u32 commit, 4-byte func fields; no kallsyms): one page with a
stored missed count (2) and a call of task 4242.

The references are uftrace 0.13's dumps of them:
    uftrace dump -d OUTDIR/kernel > tests/fixtures/uftrace-gen/kernel.dump
    uftrace dump -d OUTDIR/kernel32 > tests/fixtures/uftrace-gen/kernel32.dump
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
FORK = ("name: sched_process_fork\nID: 300\nformat:\n" + COMMON +
        "\tfield:char parent_comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"
        "\tfield:pid_t parent_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
        "\tfield:char child_comm[16];\toffset:28;\tsize:16;\tsigned:1;\n"
        "\tfield:pid_t child_pid;\toffset:44;\tsize:4;\tsigned:1;\n\n"
        'print fmt: "comm=%s pid=%d child_comm=%s child_pid=%d", '
        "REC->parent_comm, REC->parent_pid, REC->child_comm, "
        "REC->child_pid\n")
PAGE = ("\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
        "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
        "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
        "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n")


def header():
    out = "PAGE_SIZE: 4096\nLONG_SIZE: 8\nENDIAN: LE\n"
    for name, text in (("events/header_page", PAGE),
                       ("events/ftrace/funcgraph_entry/format", ENTRY),
                       ("events/ftrace/funcgraph_exit/format", EXIT),
                       ("events/sched/sched_process_fork/format", FORK)):
        out += "TRACEFS: %s: %d\n%s" % (name, len(text), text)
    return out


SYMS = {
    "do_syscall_64": 0xffffffff81000100,
    "ksys_write": 0xffffffff81000200,
    "vfs_write": 0xffffffff81000400,
}
NOSYM = 0xffffffff81ffff00     # past the last symbol (which has no size)
KALLSYMS = ("ffffffff81000000 T _stext\n"
            "ffffffff81000100 T do_syscall_64\n"
            "ffffffff81000100 T __x64_do_syscall_64\n"
            "ffffffff81000200 t ksys_write\n"
            "ffffffff81000300 b bss_thing\n"
            "ffffffff81000380 T after_bss\n"
            "ffffffff81000400 t vfs_write\t[ext4]\n"
            "ffffffff81000500 T last_one\n")

MISSED, STORED = 1 << 31, 1 << 30


def event(delta, payload):
    payload += b"\0" * (-len(payload) % 4)
    return struct.pack("<I", (delta << 5) | (len(payload) // 4)) + payload


def extend(delta):
    return struct.pack("<II", ((delta & ((1 << 27) - 1)) << 5) | 30,
                       delta >> 27)


def entry(delta, tid, func, depth):
    # funcgraph_entry: 20 bytes of fields (type_len 5, 6 with the padding)
    return event(delta, struct.pack("<HBBiQi4x", 11, 0, 0, tid, func, depth))


def exit_(delta, tid, func, depth, call, ret):
    # funcgraph_exit: 44 bytes, 48 with padding (type_len 12)
    return event(delta, struct.pack("<HBBiQQQQi4x", 10, 0, 0, tid, func, 0,
                                    call, ret, depth))


def fork(delta, tid, parent, child):
    # sched:sched_process_fork (record -k -E): 48 bytes (type_len 12)
    return event(delta, struct.pack("<HBBi16si16si", 300, 0, 0, tid,
                                    b"synth", parent, b"synth", child))


def page(ts, events, flags=0, stored=None):
    data = b"".join(events)
    body = struct.pack("<QQ", ts, len(data) | flags) + data
    if stored is not None:
        body += struct.pack("<Q", stored)
    return body + b"\0" * (4096 - len(body))


def cpu0(t0):
    sc, kw = SYMS["do_syscall_64"], SYMS["ksys_write"]
    ext = (1 << 27) + 5                 # both halves of the extend
    t = t0 + ext
    p1 = [extend(ext), entry(100, 4242, sc, 0), entry(50, 4242, kw, 1),
          exit_(200, 4242, kw, 1, t + 150, t + 350),
          exit_(20, 4242, sc, 0, t + 100, t + 370)]
    t1 = t0 + ext + 1000
    vw = SYMS["vfs_write"]
    p2 = [entry(10, 4243, vw, 0), exit_(300, 4243, vw, 0, t1 + 10, t1 + 310),
          fork(40, 4243, 4243, 4244), fork(10, 7777, 7777, 4243)]
    return page(t0, p1) + page(t1, p2, MISSED | STORED, 3)


def cpu3(t0):
    sc = SYMS["do_syscall_64"]
    return page(t0, [entry(5, 4242, NOSYM, 0),
                     entry(40, 5555, sc, 0),
                     exit_(20, 4242, NOSYM, 0, t0 + 5, t0 + 65),
                     exit_(30, 5555, sc, 0, t0 + 45, t0 + 95)], MISSED)


# kernel32/: a 32-bit kernel's data (LONG_SIZE 4: a 12-byte page header,
# a u32 commit, 4-byte func fields), one page of kernel-cpu0.dat
COMMON32 = COMMON
ENTRY32 = ("name: funcgraph_entry\nID: 11\nformat:\n" + COMMON32 +
           "\tfield:unsigned long func;\toffset:8;\tsize:4;\tsigned:0;\n"
           "\tfield:int depth;\toffset:12;\tsize:4;\tsigned:1;\n\n"
           'print fmt: "--> %ps (%d)", (void *)REC->func, REC->depth\n')
EXIT32 = ("name: funcgraph_exit\nID: 10\nformat:\n" + COMMON32 +
          "\tfield:unsigned long func;\toffset:8;\tsize:4;\tsigned:0;\n"
          "\tfield:unsigned long long calltime;\toffset:16;\tsize:8;\tsigned:0;\n"
          "\tfield:unsigned long long rettime;\toffset:24;\tsize:8;\tsigned:0;\n"
          "\tfield:unsigned long overrun;\toffset:12;\tsize:4;\tsigned:0;\n"
          "\tfield:int depth;\toffset:32;\tsize:4;\tsigned:1;\n\n"
          'print fmt: "<-- %ps (%d) (start: %llx  end: %llx) over: %d", '
          "(void *)REC->func, REC->depth, REC->calltime, REC->rettime, "
          "REC->depth\n")
PAGE32 = ("\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
          "\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
          "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
          "\tfield: char data;\toffset:12;\tsize:4084;\tsigned:1;\n")


def header32():
    out = "PAGE_SIZE: 4096\nLONG_SIZE: 4\nENDIAN: LE\n"
    for name, text in (("events/header_page", PAGE32),
                       ("events/ftrace/funcgraph_entry/format", ENTRY32),
                       ("events/ftrace/funcgraph_exit/format", EXIT32)):
        out += "TRACEFS: %s: %d\n%s" % (name, len(text), text)
    return out


def cpu0_32(t0):
    f = 0xc1000100
    ev = [event(7, struct.pack("<HBBiIi", 11, 0, 0, 4242, f, 0)),
          event(93, struct.pack("<HBBiIIQQi", 10, 0, 0, 4242, f, 0,
                                t0 + 7, t0 + 100, 0))]
    data = b"".join(ev)
    body = struct.pack("<QI", t0, len(data) | MISSED | STORED) + data
    body += struct.pack("<I", 2)
    return body + b"\0" * (4096 - len(body))


def kernel_dir(out, name):
    d = os.path.join(out, name)
    if os.path.exists(d):
        shutil.rmtree(d)
    g.write_synth(d)
    # the KERNEL feature (bit 2) in the info header's u64 at byte 16
    info = bytearray(open(os.path.join(d, "info"), "rb").read())
    feat = struct.unpack_from("<Q", info, 16)[0] | 4
    struct.pack_into("<Q", info, 16, feat)
    g.write(os.path.join(d, "info"), bytes(info))
    return d


def main():
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    d = kernel_dir(sys.argv[1], "kernel")
    g.write(os.path.join(d, "kernel_header"), header())
    g.write(os.path.join(d, "kallsyms"), KALLSYMS)
    g.write(os.path.join(d, "kernel-cpu0.dat"), cpu0(g.SYNTH_NS + 30))
    g.write(os.path.join(d, "kernel-cpu1.dat"), b"")
    g.write(os.path.join(d, "kernel-cpu3.dat"), cpu3(g.SYNTH_NS + 1000))
    d = kernel_dir(sys.argv[1], "kernel32")
    g.write(os.path.join(d, "kernel_header"), header32())
    g.write(os.path.join(d, "kernel-cpu0.dat"), cpu0_32(g.SYNTH_NS + 1500))
    return 0


if __name__ == "__main__":
    sys.exit(main())
