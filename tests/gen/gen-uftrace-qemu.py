#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-uftrace-qemu.py OUTDIR -- write the generated uftrace fixtures.

Writers other than `uftrace record` that produce uftrace data directories,
rebuilt from their sources (byte for byte where the source says), with
fixed time stamps and addresses so the output is reproducible:

  qemu/      QEMU's TCG plugin (contrib/plugins/uftrace.c, QEMU 10.1, with
             the files of "generate additional files for uftrace" and the
             .sym/.map of scripts/uftrace_symbols.py): one task per vCPU
             (tid (vcpu + 1) * 100, session "cpuN"), wall-clock ns stamps,
             entry depths counted from 1, exits at the caller's depth, a
             whole stack exited and re-entered at a discontinuity, a
             4-column .sym ("ADDR SIZE T NAME", 48-bit addresses) and a
             system-mode map; one function without a symbol.
  rftrace/   rftrace's dump_full_uftrace() (hermit-os/rftrace,
             rftrace-frontend/src/frontend.rs): cmdline "fakeuftrace",
             raw TSC stamps, depth 0 everywhere, tids 1..3 of pid 42, the
             whole address space mapped to the binary, `nm -n` output as
             its .sym (with "U" lines); a ring buffer that starts inside
             calls (exits first) and an entry that never returns.

and one in uftrace's own layout, for what the real recordings lack:

  synth/     `uftrace record`-like (3-column .sym, sym-relative addresses,
             0-based depths that are right): a lost-records record (time
             0, as libmcount writes it) in the middle of a task, and a
             forked child (FORK line) whose data starts inside calls

and broken copies of qemu/ for the error paths:

  big-endian/    qemu/ written big-endian (same events)
  bad-magic/     100.dat: the 4th record's magic is 3
  truncated/     200.dat: 8 bytes of a 17th record
  bad-task/      task.txt: a TASK line without a number, a garbage line
  bad-sym/       guest-kernel.sym: a line that is not a symbol
  no-task/       task.txt missing
  bad-info/      info: endian byte 7
  no-argspec/    a record with arguments ("more") but no argspec in info

Run: tests/gen/gen-uftrace-qemu.py tests/fixtures/uftrace-gen
"""
import os
import shutil
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uftrace_data import ENTRY, EXIT, LOST, MAGIC, record, write  # noqa: E402


def header(feat, info, big=False, endian=None, max_stack=0):
    """The 40-byte info header."""
    e = endian if endian is not None else (2 if big else 1)
    o = ">" if big else "<"
    return MAGIC + struct.pack(o + "IHBBQQHHI", 4, 40, e, 2, feat, info,
                               max_stack, 0, 0)


# ---------------------------------------------------------------- QEMU

# an AArch64 guest kernel: ELF addresses clamped to 48 bits by the script
KSYMS = [
    # name, address, size
    ("start_kernel", 0x800080010000, 0x200),
    ("rest_init", 0x800080010200, 0x80),
    ("kernel_init", 0x800080010280, 0x180),
    ("do_one_initcall", 0x800080010400, 0x100),
    ("printk", 0x800080010500, 0x60),
    ("vprintk_emit", 0x800080010560, 0x120),
    ("cpu_startup_entry", 0x800080010680, 0x40),
    ("do_idle", 0x8000800106c0, 0xa0),
    ("cpu_idle_poll", 0x800080010760, 0x40),
    ("schedule", 0x8000800107a0, 0x100),
]
SYM = {n: a for n, a, s in KSYMS}
NOSYM = 0x8000800fff00      # an address outside every symbol
BASE_NS = 1732147200000000000   # 2024-11-21 00:00:00 UTC


class Vcpu:
    """The plugin's per-vCPU call stack tracking and its records."""

    def __init__(self, big):
        self.stack = []
        self.out = []
        self.big = big

    def add(self, ts, typ, pc, depth):
        self.out.append(record(ts, typ, depth, pc, big=self.big))

    def call(self, ts, pc):
        # trace_enter_function(t, ts, pc, callstack_depth(cs)) after push
        self.stack.append(pc)
        self.add(ts, ENTRY, pc, len(self.stack))

    def ret(self, ts):
        # trace_exit_function(t, ts, e.pc, callstack_depth(cs)) after pop
        pc = self.stack.pop()
        self.add(ts, EXIT, pc, len(self.stack))

    def discontinuity(self, ts, new_stack):
        # trace_exit_stack: each frame at its own depth, top first
        for depth in range(len(self.stack), 0, -1):
            self.add(ts, EXIT, self.stack[depth - 1], depth)
        self.stack = []
        # cpu_unwind_stack, then trace_enter_stack bottom first
        for pc in new_stack:
            self.stack.append(pc)
            self.add(ts, ENTRY, pc, len(self.stack))

    def data(self):
        return b"".join(self.out)


def qemu_traces(big=False):
    c0, c1 = Vcpu(big), Vcpu(big)
    t = BASE_NS + 1000
    # vCPU 0: the first callback unwinds an existing stack
    c0.discontinuity(t, [SYM["start_kernel"] + 0x40, SYM["rest_init"] + 0x10])
    c0.call(t + 120, SYM["kernel_init"])
    c0.call(t + 300, SYM["do_one_initcall"])
    c0.call(t + 410, SYM["printk"])
    c0.call(t + 450, SYM["vprintk_emit"])
    c0.ret(t + 1210)
    c0.ret(t + 1300)
    c0.call(t + 1500, NOSYM)
    c0.ret(t + 1750)
    c0.ret(t + 2900)
    # an exception: a new stack appears without calls
    c0.discontinuity(t + 3300, [SYM["schedule"] + 0x20])
    c0.ret(t + 3900)
    # vCPU 1 idles, interleaved in time with vCPU 0
    c1.call(t + 200, SYM["cpu_startup_entry"])
    for k in range(3):
        b = t + 500 + k * 900
        c1.call(b, SYM["do_idle"])
        c1.call(b + 100, SYM["cpu_idle_poll"])
        c1.ret(b + 700)
        c1.ret(b + 800)
    return {100: c0.data(), 200: c1.data()}


QEMU_INFO_LINES = [
    "exename:",
    "build_id:0000000000000000000000000000000000000000",
    "exit_status:",
    "cmdline:",
    "cpuinfo:lines=2",
    "cpuinfo:nr_cpus=",
    "cpuinfo:desc=",
    "meminfo:",
    "osinfo:lines=3",
    "osinfo:kernel=",
    "osinfo:hostname=",
    "osinfo:distro=",
    "taskinfo:lines=2",
    None,   # taskinfo:nr_tid
    None,   # taskinfo:tids
    "usageinfo:lines=6",
    "usageinfo:systime=",
    "usageinfo:usrtime=",
    "usageinfo:ctxsw=",
    "usageinfo:maxrss=",
    "usageinfo:pagefault=",
    "usageinfo:iops=",
    "loadinfo:",
    "record_date:",
    "elapsed_time:",
    "pattern_type:regex",
    "uftrace_version:",
    "utc_offset:",
]


def write_qemu(d, big=False):
    os.makedirs(d, exist_ok=True)
    traces = qemu_traces(big)
    ids = sorted(traces)
    for i, tid in enumerate(ids):
        write(os.path.join(d, "%d.dat" % tid), traces[tid])
    # uftrace_write_info(): the plugin's fixed header (features 0x1263,
    # info 0x7bff), then its lines
    lines = list(QEMU_INFO_LINES)
    lines[13] = "taskinfo:nr_tid=%d" % len(ids)
    lines[14] = "taskinfo:tids=" + ",".join(str(i) for i in ids)
    write(os.path.join(d, "info"),
          header(0x1263, 0x7bff, big, max_stack=0x400) +
          "".join(l + "\n" for l in lines).encode())
    # uftrace_write_task()
    task = ""
    for i, tid in enumerate(ids):
        task += 'SESS timestamp=0.0 pid=%d sid=0 exename="cpu%d"\n' % (tid, i)
        task += "TASK timestamp=0.0 tid=%d pid=%d\n" % (tid, tid)
    write(os.path.join(d, "task.txt"), task)
    # uftrace_symbols.py: generate_map() and generate_symbol_file()
    end = KSYMS[-1][1] + KSYMS[-1][2]
    write(os.path.join(d, "sid-0.map"),
          "# map stack on highest address possible, to prevent uftrace\n"
          "# from considering any kernel address\n"
          "ffffffffffff-ffffffffffff rw-p 00000000 00:00 0 [stack]\n"
          "%012x-%012x r--p 00000000 00:00 0 /guest/guest-kernel\n"
          % (0, end))
    write(os.path.join(d, "guest-kernel.sym"),
          "".join("%012x %012x T %s\n" % (a, s, n) for n, a, s in KSYMS))


# ---------------------------------------------------------------- rftrace

# `nm -n hermit-app` of a statically linked guest: undefined symbols first,
# data and text mixed
NM = """                 U __errno_location
                 w __gmon_start__
0000000000200000 T _start
0000000000200040 t task_entry
0000000000200100 T main
0000000000200180 T compute
0000000000200200 T helper
0000000000200240 W memcpy
0000000000200280 T sys_write
0000000000200300 r .L.str
0000000000201000 D __data_start
0000000000202000 B __bss_start
"""
RF = {"task_entry": 0x200048, "main": 0x200105, "compute": 0x200185,
      "helper": 0x200205, "memcpy": 0x200245, "sys_write": 0x200285}
TSC0 = 987654321000


def rftrace_traces():
    # write_event(): kind 0 entry (addr = to), 1 exit (addr = from), depth 0
    ev = {1: [], 2: [], 3: []}
    t = TSC0
    # tid 1: task_entry never returns (its return address was not hooked)
    ev[1] += [(t, ENTRY, RF["task_entry"]), (t + 90, ENTRY, RF["main"])]
    for k in range(2):
        b = t + 300 + k * 2000
        ev[1] += [(b, ENTRY, RF["compute"]), (b + 150, ENTRY, RF["helper"]),
                  (b + 400, EXIT, RF["helper"]),
                  (b + 500, ENTRY, RF["memcpy"]), (b + 620, EXIT, RF["memcpy"]),
                  (b + 900, EXIT, RF["compute"])]
    ev[1] += [(t + 5000, EXIT, RF["main"])]
    # tid 2: the ring buffer wrapped: it starts inside helper and compute
    ev[2] += [(t + 700, EXIT, RF["helper"]), (t + 1100, EXIT, RF["compute"]),
              (t + 1300, ENTRY, RF["sys_write"]),
              (t + 4100, EXIT, RF["sys_write"])]
    # tid 3: a short one
    ev[3] += [(t + 2500, ENTRY, RF["helper"]), (t + 2600, EXIT, RF["helper"])]
    return {tid: b"".join(record(ts, k, 0, a) for ts, k, a in recs)
            for tid, recs in ev.items()}


def write_rftrace(d):
    os.makedirs(d, exist_ok=True)
    traces = rftrace_traces()
    tids = sorted(traces)
    for tid in tids:
        write(os.path.join(d, "%d.dat" % tid), traces[tid])
    # feats TASK_SESSION | SYM_REL_ADDR, info CMDLINE | TASKINFO, mstack 0
    info = header((1 << 1) | (1 << 5), (1 << 3) | (1 << 7))
    info += b"cmdline:fakeuftrace\n"
    info += b"taskinfo:lines=2\n"
    info += ("taskinfo:nr_tid=%d\n" % len(tids)).encode()
    info += ("taskinfo:tids=" + ",".join(str(t) for t in tids) + "\n").encode()
    write(os.path.join(d, "info"), info)
    task = 'SESS timestamp=0.0 pid=42 sid=00 exename="hermit-app"\n'
    task += "".join("TASK timestamp=0.0 tid=%d pid=42\n" % t for t in tids)
    write(os.path.join(d, "task.txt"), task)
    write(os.path.join(d, "sid-00.map"),
          "000000000000-ffffffffffff r-xp 00000000 00:00 0"
          "                          hermit-app\n"
          "ffffffffffff-ffffffffffff rw-p 00000000 00:00 0"
          "                          [stack]\n")
    write(os.path.join(d, "hermit-app.sym"), NM)


# ---------------------------------------------------------------- synth

SYNTH_SYMS = [  # relative to the map start, as SYM_REL_ADDR stores them
    ("P", 0x1030, "fork"),
    ("?", 0x1040, "__dynsym_end"),
    ("T", 0x1100, "main"),
    ("T", 0x1180, "parse"),
    ("T", 0x1200, "lex"),
    ("T", 0x1240, "emit"),
    ("?", 0x1300, "__sym_end"),
]
SYNTH_BASE = 0x55550000a000
SYNTH_NS = 5000000000123


def synth_traces():
    a = {n: SYNTH_BASE + off + 9 for t, off, n in SYNTH_SYMS if t != "?"}
    a["fork"] = SYNTH_BASE + 0x1030
    t = SYNTH_NS
    p = [(t, ENTRY, 0, a["main"]), (t + 10, ENTRY, 1, a["parse"]),
         (t + 20, ENTRY, 2, a["lex"]),
         # the buffer ran out: libmcount writes LOST (time 0, addr = count)
         (0, LOST, 0, 5),
         (t + 900, EXIT, 1, a["parse"]),
         (t + 950, ENTRY, 1, a["fork"]), (t + 990, EXIT, 1, a["fork"]),
         (t + 1000, ENTRY, 1, a["emit"]), (t + 1100, EXIT, 1, a["emit"]),
         (t + 1200, EXIT, 0, a["main"])]
    # the child returns from fork(), then from main
    c = [(t + 995, EXIT, 1, a["fork"]), (t + 1010, ENTRY, 1, a["emit"]),
         (t + 1040, EXIT, 1, a["emit"]), (t + 1090, EXIT, 0, a["main"])]
    return {4242: b"".join(record(*r) for r in p),
            4243: b"".join(record(*r) for r in c)}


def write_synth(d):
    os.makedirs(d, exist_ok=True)
    traces = synth_traces()
    tids = sorted(traces)
    for tid in tids:
        write(os.path.join(d, "%d.dat" % tid), traces[tid])
    lines = [
        "exename:/work/synth",
        "build_id:00112233445566778899aabbccddeeff00112233",
        "exit_status:0",
        "cmdline:uftrace record ./synth",
        "cpuinfo:lines=2",
        "cpuinfo:nr_cpus=2 / 2 (online/possible)",
        "cpuinfo:desc=synthetic",
        "meminfo:1.0 / 2.0 GB (free / total)",
        "osinfo:lines=3",
        "osinfo:kernel=Linux 6.1.0",
        "osinfo:hostname=synth",
        'osinfo:distro="synthetic"',
        "taskinfo:lines=2",
        "taskinfo:nr_tid=%d" % len(tids),
        "taskinfo:tids=" + ",".join(str(t) for t in tids),
        "usageinfo:lines=6",
        "usageinfo:systime=0.000000",
        "usageinfo:usrtime=0.001000",
        "usageinfo:ctxsw=1 / 1 (voluntary / involuntary)",
        "usageinfo:maxrss=1000",
        "usageinfo:pagefault=0 / 100 (major / minor)",
        "usageinfo:iops=0 / 0 (read / write)",
        "loadinfo:0.00 / 0.00 / 0.00",
        "record_date:Thu Nov 21 00:00:00 2024",
        "elapsed_time:0.000001200 sec",
        "pattern_type:regex",
        "uftrace_version:v0.13 ( x86_64 )",
    ]
    # PLTHOOK | TASK_SESSION | SYM_REL_ADDR | MAX_STACK; info 0x3bff
    write(os.path.join(d, "info"),
          header(0x63, 0x3bff, max_stack=1024) +
          "".join(l + "\n" for l in lines).encode())
    write(os.path.join(d, "task.txt"),
          'SESS timestamp=5000.000000000 pid=4242 sid=5eed5eed5eed5eed '
          'exename="/work/synth"\n'
          "TASK timestamp=5000.000000100 tid=4242 pid=4242\n"
          "FORK timestamp=5000.000000980 pid=4243 ppid=4242\n")
    write(os.path.join(d, "sid-5eed5eed5eed5eed.map"),
          "%012x-%012x r-xp 00000000 00:00 0 /work/synth\n"
          "7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0 [stack]\n"
          % (SYNTH_BASE, SYNTH_BASE + 0x5000))
    write(os.path.join(d, "synth.sym"),
          "# symbols: 5\n# path name: /work/synth\n" +
          "".join("%016x %s %s\n" % (off, t, n) for t, off, n in SYNTH_SYMS))


# ---------------------------------------------------------------- broken

def copy(src, dst):
    if os.path.exists(dst):
        shutil.rmtree(dst)
    shutil.copytree(src, dst)


def write_broken(out):
    q = os.path.join(out, "qemu")

    d = os.path.join(out, "bad-magic")
    copy(q, d)
    p = os.path.join(d, "100.dat")
    data = bytearray(open(p, "rb").read())
    off = 3 * 16 + 8        # the data word of the 4th record
    w = struct.unpack_from("<Q", data, off)[0]
    w = (w & ~(7 << 3)) | (3 << 3)
    struct.pack_into("<Q", data, off, w)
    write(p, bytes(data))

    d = os.path.join(out, "truncated")
    copy(q, d)
    with open(os.path.join(d, "200.dat"), "ab") as f:
        f.write(struct.pack("<Q", BASE_NS + 99999))

    d = os.path.join(out, "bad-task")
    copy(q, d)
    with open(os.path.join(d, "task.txt"), "a") as f:
        f.write("TASK timestamp=0.0 tid=abc pid=100\n")
        f.write("#garbage{\n")

    d = os.path.join(out, "bad-sym")
    copy(q, d)
    with open(os.path.join(d, "guest-kernel.sym"), "a") as f:
        f.write("this is not a symbol\n")

    d = os.path.join(out, "no-task")
    copy(q, d)
    os.remove(os.path.join(d, "task.txt"))

    d = os.path.join(out, "bad-info")
    copy(q, d)
    p = os.path.join(d, "info")
    data = bytearray(open(p, "rb").read())
    data[14] = 7
    write(p, bytes(data))

    # uftrace-record-like data: printk's entry has 8 bytes of arguments,
    # but info has no argspec that would say so
    d = os.path.join(out, "no-argspec")
    copy(q, d)
    p = os.path.join(d, "100.dat")
    recs = open(p, "rb").read()
    out_recs = b""
    for i in range(0, len(recs), 16):
        ts, w = struct.unpack_from("<QQ", recs, i)
        if w & 3 == ENTRY and (w >> 16) == SYM["printk"]:
            out_recs += struct.pack("<QQ", ts, w | 4) + struct.pack("<Q", 42)
        else:
            out_recs += recs[i:i + 16]
    write(p, out_recs)


def main():
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name in ("qemu", "big-endian", "rftrace"):
        p = os.path.join(out, name)
        if os.path.exists(p):
            shutil.rmtree(p)
    write_qemu(os.path.join(out, "qemu"))
    write_qemu(os.path.join(out, "big-endian"), big=True)
    write_rftrace(os.path.join(out, "rftrace"))
    p = os.path.join(out, "synth")
    if os.path.exists(p):
        shutil.rmtree(p)
    write_synth(p)
    write_broken(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
