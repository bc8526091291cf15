#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-uftrace-runs.py KIND OUTDIR — a uftrace data directory whose plain
records (entries, and exits of the frame on top, without values) test
the edges of the reader's batched fast path (src/sources/uftrace/
uftrace-fast.c), in uftrace's layout; prints the lines

    %(ts)d %(tid)d %(type)s %(depth)d %(symbol)s %(duration)d

the records must give, worked out here on their own (the tasks merged by
time, ties to the lower tid; depth from the task's call stack; an exit's
duration its time less its entry's):

  deep     one task that calls 3000 levels deep and back, three times
           (the call stack grows during runs; 18 000 records, the task's
           64 KiB buffer refilled in the middle of runs), its functions
           changing every record or every few
  threads  three tasks of one process, their records interleaved in
           runs of 1 to 200 records, stamps shared by two or three tasks
           at once (ties), calls up to 100 deep, a few stamps equal to the
           one before within a task

The data is made here, not recorded, its metadata as gen-uftrace-big.py
makes it: the files `uftrace record` writes (see uftrace_data.py), deep
as recorded with --max-stack=4096 (its depth field, 10 bits, wraps past
1023 as libmcount's does). The expected lines come from this script, not
from uftrace; tests/uftrace-runs.sh also compares kvmtrace_format's
default text with `uftrace dump -d OUTDIR` (which, for deep, shows 6153
of the records: its display depth is 1024 unless told, and the default
text leaves out what it does not show).
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uftrace_data import record, write, write_info, write_program  # noqa: E402

BASE = 0x400000
FUNCS = ["func_a", "func_b", "func_c", "func_d"]


class Task:
    """A task's records as written, and its lines as they must print."""

    def __init__(self, tid):
        self.tid = tid
        self.recs = []
        self.stack = []

    def call(self, ts, f):
        self.recs.append((ts, record(ts, 0, len(self.stack), BASE + 0x1000 + 0x100 * f),
                          "%d %d entry %d %s 0" % (ts, self.tid, len(self.stack), FUNCS[f])))
        self.stack.append((f, ts))

    def ret(self, ts):
        f, t0 = self.stack.pop()
        self.recs.append((ts, record(ts, 1, len(self.stack), BASE + 0x1000 + 0x100 * f),
                          "%d %d exit %d %s %d" % (ts, self.tid, len(self.stack), FUNCS[f], ts - t0)))


def step(rng, t, ts, deep=100):
    """One call or return of t at ts: a walk of the call stack."""
    if t.stack and (len(t.stack) >= deep or rng.random() < 0.48):
        t.ret(ts)
    else:
        t.call(ts, rng.randrange(len(FUNCS)))


def main():
    kind, out = sys.argv[1], sys.argv[2]
    rng = random.Random(20261127)
    t0 = 1000 * 10**9
    if kind == "deep":
        tasks = [Task(100)]
        ts = t0
        for rep in range(3):
            for i in range(3000):
                tasks[0].call(ts, (i // (1 + rep * 3)) % len(FUNCS))
                ts += 7
            for i in range(3000):
                tasks[0].ret(ts)
                ts += 5
    elif kind == "threads":
        tasks = [Task(101), Task(102), Task(103)]
        ts = t0
        for run in range(400):
            t = rng.choice(tasks)
            for i in range(rng.choice([1, 1, 2, 3, 7, 30, 200])):
                step(rng, t, ts)
                ts += rng.choice([0, 1, 3, 10])
            if rng.random() < 0.3:
                # the same stamp in two or three tasks at once
                for u in rng.sample(tasks, rng.choice([2, 3])):
                    step(rng, u, ts)
                ts += 1
        for t in tasks:
            while t.stack:
                t.ret(ts)
                ts += 1
    else:
        sys.exit("gen-uftrace-runs.py: KIND is deep or threads")

    os.makedirs(out, exist_ok=True)
    tids = [t.tid for t in tasks]
    write_info(out, "runs", tids, 4096 if kind == "deep" else 1024)
    write_program(out, "runs", t0, tids, FUNCS, BASE)
    for t in tasks:
        write(os.path.join(out, "%d.dat" % t.tid), b"".join(r[1] for r in t.recs))
    # merged by time; ties to the lower tid, a task's own in its order
    lines = [(r[0], t.tid, i, r[2]) for t in tasks for i, r in enumerate(t.recs)]
    lines.sort()
    sys.stdout.write("".join(line[3] + "\n" for line in lines))


main()
