#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""uftrace-dump-order.py DUMP [--no-perf] [--no-data] [--as-is] [--compare OURS] —
`uftrace dump` output in the order kvmtrace_format writes uftrace data:
one time order over the tasks and then the perf-cpuN.dat events, ties
broken by tid order, then file order.

uftrace dump lists each task's records after a "reading TID.dat" line and
the perf events after "reading perf-cpuN.dat"; a record's argument, return
value or data lines (and strings with newlines in them) follow it. A
LOST record (time 0) stays after the record before it in its file. The
file header lines are left out. With --no-perf the perf events are left
out too; with --no-data the data lines of events ("[data ]" and what
follows). Writes the records, each with its lines, to standard output.

With --as-is, the dump stays whole and in its own order (what
kvmtrace_format prints for a lone uftrace directory); the other options
then do nothing.

With --compare OURS, compares them with kvmtrace_format's default text in
the file OURS instead, line by line, and exits 1 on a difference. Function
names may differ only where uftrace's own demangler leaves junk behind
(see JUNK): Rust escapes ("$LT$", "..", "_<"), "{{closure}}", Rust v0
names it leaves mangled, "_GLOBAL__N_1" and "$_0" (C++ anonymous
namespaces and lambdas).
"""
import re
import sys

REC = re.compile(r'^ *(\d+)\.(\d{9}) +(-?\d+): \[')
LINE = re.compile(r'^( *\d+\.\d{9} +-?\d+: \[[a-z ]+\] )(.*)(\([0-9a-f]+\) depth: \d+)$')
JUNK = re.compile(r'_GLOBAL__N_|\$_\d|\.\.|\$[A-Z]+\$|\$u[0-9a-f]+\$|^_R|_<|\{\{')


def compare(want, path):
    got = open(path, encoding='utf-8', errors='surrogateescape').read().split('\n')
    if got and got[-1] == '':
        got.pop()
    bad = 0
    if len(want) != len(got):
        print('%s: %d lines, uftrace dump: %d' % (path, len(got), len(want)))
        bad += 1
    for n, (w, g) in enumerate(zip(want, got), 1):
        if w == g:
            continue
        mw, mg = LINE.match(w), LINE.match(g)
        if (mw and mg and mw.group(1) == mg.group(1) and
                mw.group(3) == mg.group(3) and JUNK.search(mw.group(2))):
            continue
        print('%s:%d: differs from uftrace dump:\n  dump: %s\n  ours: %s'
              % (path, n, w, g))
        bad += 1
        if bad > 10:
            break
    return 1 if bad else 0


def main():
    path = sys.argv[1]
    no_perf = '--no-perf' in sys.argv[2:]
    no_data = '--no-data' in sys.argv[2:]
    lines = open(path, encoding='utf-8', errors='surrogateescape').read().split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    if '--as-is' in sys.argv[2:]:
        if '--compare' in sys.argv[2:]:
            return compare(lines, sys.argv[sys.argv.index('--compare') + 1])
        return 0
    recs = []          # (ts, tid, section kind, seq, [lines])
    section = None
    skipping = False
    seq = 0
    for i, line in enumerate(lines):
        if line.startswith('uftrace file header:'):
            continue
        if line.startswith('reading '):
            section = 'perf' if line.startswith('reading perf-') else 'task'
            continue
        if section is None:
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else None
        if line == '' and (nxt is None or nxt.startswith('reading ')):
            continue   # a section separator
        m = REC.match(line)
        if m and no_data and '[data ]' in line:
            skipping = True
            continue
        if m:
            skipping = False
            ts = int(m.group(1)) * 1000000000 + int(m.group(2))
            # libmcount stamps LOST records 0; kvmtrace_format keeps them
            # in place: at the time of the task's record before
            if '[lost ]' in line and recs and recs[-1][2] == section:
                ts = recs[-1][0]
            recs.append([ts, int(m.group(3)), section, seq, [line]])
            seq += 1
        elif recs and not skipping:
            recs[-1][4].append(line)
    if no_perf:
        recs = [r for r in recs if r[2] != 'perf']
    # tasks by tid, each in file order; at the same time stamp the perf
    # events (in file order: cpu 0 first) come after every task record
    recs.sort(key=lambda r: (r[0], r[2] == 'perf',
                             0 if r[2] == 'perf' else r[1], r[3]))
    want = [line for r in recs for line in r[4]]
    if '--compare' in sys.argv[2:]:
        return compare(want, sys.argv[sys.argv.index('--compare') + 1])
    for line in want:
        sys.stdout.write(line + '\n')
    return 0


sys.exit(main())
