#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-uftrace-big.py KIND N OUTDIR — uftrace metadata of a size that
showed quadratic loading (issue 13, item 9), in uftrace's own layout:

  tasks      N tasks of one process (taskinfo and TASK lines), 3 with data
  sessions   N processes, each its own session (SESS, TASK, sid-SID.map),
             3 with data (the others' maps need never be read)
  exec       N / 10 processes that each exec 10 times (10 sessions of the
             same pid, each SESS followed by the TASK line libmcount
             writes in the new program; the 10 programs' session IDs and
             maps are shared by the processes, where uftrace record would
             write one each), every task with a call in each of its
             programs
  map        one session whose sid-SID.map has N lines (N libraries), and
             N calls into N different ones (3 of them with a .sym)

The records of the programs resolve to func_a of the same 2-symbol .sym.
Prints the number of records written. The files are those `uftrace
record` writes (see uftrace_data.py), so that `uftrace dump -d OUTDIR`
reads them and prints the text kvmtrace_format prints; at these sizes
uftrace itself takes seconds and gigabytes (tasks 100000: 8.7 s, 4 GB),
so tests/uftrace-big.sh compares it on smaller N.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uftrace_data import record, write, write_info, write_map  # noqa: E402


def main():
    kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    os.makedirs(out, exist_ok=True)
    task, tids, dats = [], [], {}
    base = 0x400000
    sym = "0000000000001000 T func_a\n0000000000001100 T func_b\n0000000000001200 ? __sym_end\n"
    maps = {}

    def sess(ts, pid, sid, exe):
        task.append((ts, 'SESS timestamp=%d.%09d pid=%d sid=%s exename="%s"'
                     % (ts // 10**9, ts % 10**9, pid, sid, exe)))
        maps[sid] = "%x-%x r-xp 00000000 08:01 1 %s\n" % (base, base + 0x10000, exe)

    def tsk(ts, tid, pid):
        task.append((ts, 'TASK timestamp=%d.%09d tid=%d pid=%d'
                     % (ts // 10**9, ts % 10**9, tid, pid)))
        if not tids or tids[-1] != tid:
            tids.append(tid)

    def calls(tid, ts, addr, k=1):
        d = dats.setdefault(tid, [])
        for i in range(k):
            d.append(record(ts + 2 * i, 0, 0, addr))
            d.append(record(ts + 2 * i + 1, 1, 0, addr))

    t0 = 1000 * 10**9
    if kind == "tasks":
        sess(t0, 1, "%016x" % 1, "/big/prog")
        for i in range(1, n + 1):
            tsk(t0 + i, i, 1)
        for i in (1, n // 2, n):
            calls(i, t0 + 10**6, base + 0x1000, 2)
    elif kind == "sessions":
        for i in range(1, n + 1):
            sess(t0 + 2 * i, i, "%016x" % i, "/big/prog")
            tsk(t0 + 2 * i + 1, i, i)
        for i in (1, n // 2, n):
            calls(i, t0 + 10**6 * 1000, base + 0x1000, 2)
    elif kind == "exec":
        for p in range(1, n // 10 + 1):
            for e in range(10):
                ts = t0 + 10**9 * (e + 1) + p
                sess(ts, p, "%016x" % e, "/big/prog%d" % e)
                tsk(ts + 1, p, p)
                calls(p, ts + 10, base + 0x1000)
    elif kind == "map":
        sid = "%016x" % 1
        sess(t0, 1, sid, "/big/prog")
        tsk(t0 + 1, 1, 1)
        lines = []
        for i in range(n):
            lo = base + i * 0x10000
            lines.append("%x-%x r-xp 00000000 08:01 %d /big/lib%d.so\n"
                         % (lo, lo + 0x10000, i + 1, i))
            calls(1, t0 + 10 + 2 * i, lo + 0x1000)
        maps[sid] = "".join(lines)
        for i in (0, n // 2, n - 1):
            write(os.path.join(out, "lib%d.so.sym" % i), sym)
    else:
        sys.exit("gen-uftrace-big.py: KIND is tasks, sessions, exec or map")

    write_info(out, "big", tids)
    # in time order, as libmcount's messages reach uftrace record
    task.sort(key=lambda t: t[0])
    write(os.path.join(out, "task.txt"), "".join(t[1] + "\n" for t in task))
    same = {}
    for sid, text in maps.items():
        write_map(out, sid, text, same)
    for prog in set(["prog"] + ["prog%d" % e for e in range(10)]):
        write(os.path.join(out, prog + ".sym"), sym)
    nrec = 0
    for tid, recs in dats.items():
        write(os.path.join(out, "%d.dat" % tid), b"".join(recs))
        nrec += len(recs)
    print(nrec)


main()
