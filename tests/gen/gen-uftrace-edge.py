#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-uftrace-edge.py KIND OUTDIR — a uftrace data directory whose tasks
call around the depth at which `uftrace dump` (v0.13, no --depth) stops
showing records: its display depth, 1024, and the header's max_stack.
Each task is one case; dump reads them one after the other, each with a
call stack of its own (fstack_consume(), fstack_check_filter() in
uftrace's utils/fstack.c; src/sources/uftrace/uftrace-depth.c says what
they do). tests/uftrace-runs.sh compares kvmtrace_format's default text
of OUTDIR with `uftrace dump -d OUTDIR` byte for byte.

  edge   max_stack 4096 (uftrace record --max-stack=4096): tasks that call
         1023, 1024, 1025 and 1030 levels deep and back; one whose first
         record is an entry at depth 1000 (a recording that begins in the
         middle of a stack), which returns below it and calls 1030 deep
         again; one that loses records (LOST) 1100 deep and goes on at the
         depth its next record holds (10 bits: 1099 is written 75); one
         that begins with exits; events (read:proc/statm, and sched-out /
         sched-in, which dump counts as an entry and an exit) at 1023 and
         1024 and under 0
  small  max_stack 8: calls 12 deep and back, an entry left out whose
         time is before the one before, events and a LOST record at the
         top, records of frames 7 and 8
  args   max_stack 4096, recorded with -A func_a@arg1 -R func_a@retval
         (and so for the other functions):
         calls 1026 deep and back, each entry with its argument (the
         depth), each exit with its return value, the [args ]/[retval]
         lines of those dump leaves out left out with them
  fixup  max_stack 4096, the functions after whose entry dump sets its
         stack count anew (fixup_syms[] of utils/fstack.c): execl() 1020
         deep (the count 0 after; the new program calls 1030 deep), a
         _setjmp() 5 deep then longjmp() 1000 deep (the count back to 6),
         one 1030 deep (not shown: no change), and a task whose longjmp()
         takes the count another task's setjmp() kept
  nomax  the MAX_STACK feature off (uftrace takes 1024, whatever the
         header's field, here 8): calls 1030 deep

The data is made here, not recorded; the metadata as gen-uftrace-runs.py
writes it (uftrace_data.py).
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uftrace_data import (ENTRY, EVENT, EXIT, LOST, record, write,  # noqa: E402
                          write_info, write_program)

BASE = 0x400000
FUNCS = ["func_a", "func_b", "func_c", "func_d"]
FIXUPS = ["execl", "_setjmp", "longjmp"]     # after FUNCS in prog.sym
STATM = 100001          # read:proc/statm, without data (more clear)
SCHED_OUT = 200002      # linux:sched-out
SCHED_IN = 200001       # linux:sched-in


class Task:
    """A task's records as written: depths as libmcount writes them."""

    def __init__(self, tid, ts, values=False):
        self.tid = tid
        self.recs = []
        self.depth = 0
        self.ts = ts
        self.values = values

    def put(self, typ, depth, addr):
        if self.values and typ in (ENTRY, EXIT):
            # arg1 or the return value, a long: 8 bytes after the record
            self.recs.append(record(self.ts, typ, depth, addr, more=1)
                             + struct.pack("<q", depth if typ == ENTRY else -depth))
        else:
            self.recs.append(record(self.ts, typ, depth, addr))
        self.ts += 3

    def call(self, n=1):
        for _ in range(n):
            self.put(ENTRY, self.depth, BASE + 0x1000 + 0x100 * (self.depth % 4))
            self.depth += 1

    def ret(self, n=1):
        for _ in range(n):
            self.depth -= 1
            self.put(EXIT, self.depth, BASE + 0x1000 + 0x100 * (self.depth % 4))

    def fixup(self, name, ret=True):
        """A call of a fix-up function (FIXUPS); ret: and its return."""
        addr = BASE + 0x1000 + 0x100 * (len(FUNCS) + FIXUPS.index(name))
        self.put(ENTRY, self.depth, addr)
        if ret:
            self.put(EXIT, self.depth, addr)

    def event(self, eid):
        self.put(EVENT, self.depth, eid)

    def lost(self, count=7):
        # libmcount's LOST: time 0, addr the count, depth as it was
        self.recs.append(record(0, LOST, self.depth, count))


def edge(ts):
    tasks = []
    for tid, n in ((101, 1023), (102, 1024), (103, 1025), (104, 1030)):
        t = Task(tid, ts)
        t.call(n)
        t.ret(n)
        tasks.append(t)
    # begins 1000 deep: dump's count starts there, its filter at 1024
    t = Task(105, ts)
    t.depth = 1000
    t.call(30)
    t.ret(35)
    t.call(1030)
    t.ret(t.depth)
    tasks.append(t)
    # LOST 1100 deep; then records from 1099 (written 75) down, and again
    t = Task(106, ts)
    t.call(1100)
    t.lost()
    t.ret(t.depth)
    t.call(1030)
    t.ret(1030)
    tasks.append(t)
    # begins with exits (a child after fork(), say), then calls deep
    t = Task(107, ts)
    t.depth = 3
    t.ret(3)
    t.call(1026)
    t.ret(1026)
    tasks.append(t)
    # events at the edge: at filter depth 1, 0; sched-out/in there
    t = Task(108, ts)
    t.call(1023)
    t.event(STATM)
    t.event(SCHED_OUT)
    t.event(SCHED_IN)
    t.call(1)
    t.event(STATM)
    t.event(SCHED_OUT)
    t.event(SCHED_IN)
    t.call(2)
    t.event(STATM)
    t.ret(3)
    t.event(STATM)
    t.ret(t.depth)
    t.event(SCHED_IN)
    t.event(SCHED_OUT)
    t.event(STATM)
    tasks.append(t)
    return tasks, 4096


def small(ts):
    t = Task(201, ts)
    t.call(12)
    # an entry dump leaves out, stamped before the record before it:
    # dump still prints its "inverted time" banner
    t.ts -= 100
    t.call(1)
    t.ret(1)
    t.event(STATM)
    t.event(SCHED_OUT)
    t.event(SCHED_IN)
    t.ret(5)
    t.lost()
    t.ret(t.depth)
    u = Task(202, ts)
    u.call(7)
    u.event(SCHED_OUT)
    u.event(SCHED_IN)
    u.call(1)
    u.event(SCHED_OUT)
    u.event(SCHED_IN)
    u.ret(8)
    return [t, u], 8


def args(ts):
    t = Task(401, ts, values=True)
    t.call(1026)
    t.ret(1026)
    return [t], 4096


def fixup(ts):
    # exec 1020 deep: the new program's records from depth 0
    t = Task(501, ts)
    t.call(1020)
    t.fixup("execl", ret=False)
    t.depth = 0
    t.call(1030)
    t.ret(1030)
    tasks = [t]
    # setjmp 5 deep, longjmp 1000 deep: on from depth 6
    t = Task(502, ts)
    t.call(5)
    t.fixup("_setjmp")
    t.call(995)
    t.fixup("longjmp", ret=False)
    t.depth = 6
    t.call(1030)
    t.ret(t.depth)
    # a longjmp 1030 deep, not shown
    t.call(1030)
    t.fixup("longjmp", ret=False)
    t.ret(t.depth)
    tasks.append(t)
    # no setjmp of its own: the count kept from 502's
    t = Task(503, ts)
    t.call(30)
    t.fixup("longjmp", ret=False)
    t.call(1030)
    t.ret(t.depth)
    tasks.append(t)
    return tasks, 4096


def nomax(ts):
    t = Task(301, ts)
    t.call(1030)
    t.ret(1030)
    return [t], 8


def main():
    kind, out = sys.argv[1], sys.argv[2]
    t0 = 1000 * 10**9
    kinds = {"edge": edge, "small": small, "args": args, "fixup": fixup,
             "nomax": nomax}
    if kind not in kinds:
        sys.exit("gen-uftrace-edge.py: KIND is edge, small, args, fixup or nomax")
    tasks, max_stack = kinds[kind](t0)

    os.makedirs(out, exist_ok=True)
    tids = [t.tid for t in tasks]
    if kind == "args":
        write_info(out, "edge", tids, max_stack,
                   ";".join(f + "@arg1" for f in FUNCS),
                   ";".join(f + "@retval" for f in FUNCS))
    else:
        write_info(out, "edge", tids, max_stack)
    if kind == "nomax":
        # the feature mask without MAX_STACK (0x40)
        with open(os.path.join(out, "info"), "r+b") as f:
            f.seek(16)
            f.write(struct.pack("<Q", 0x62 & ~0x40))
    write_program(out, "edge", t0, tids, FUNCS + FIXUPS, BASE)
    for t in tasks:
        write(os.path.join(out, "%d.dat" % t.tid), b"".join(t.recs))


main()
