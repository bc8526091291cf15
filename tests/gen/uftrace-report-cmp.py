#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""uftrace-report-cmp.py REPORT OURS [--avg AVG] [--junk] — compare
`uftrace report` output (REPORT: "Total time  Self time  Calls  Function",
fixed columns, times such as "6.695 ms") with the function rows of
kvmtrace_format --stats=csv (OURS: the section
"function,calls,total_ns,self_ns,min_ns,avg_ns,max_ns"). Every row of the
report must be there, by the same name, with the same calls, and total
and self times that print the same in uftrace's units (us, ms or s, 3
decimals; a blank for 0); and nothing more. With --avg, the same for
`uftrace report --avg-total` (AVG: "Total avg  Total min  Total max") and
the avg, min and max of OURS. With --junk, a name uftrace's demangler
garbles (Rust; see uftrace-dump-order.py) may differ, its figures not.
Exits 1 on a difference.
"""
import csv
import re
import sys

JUNK = re.compile(r'_GLOBAL__N_|\$_\d|\.\.|\$[A-Z]+\$|\$u[0-9a-f]+\$|^_R|_<|\{\{')


def uftrace_time(ns):
    """As uftrace's __print_time_unit() (utils/debug.c): the value taken
    as a signed 64-bit one, its absolute value in us, ms, s, m or h with 3
    decimals cut off (999.999 at most); spaces squeezed."""
    if ns >= 2**63:
        ns -= 2**64
    ns = abs(ns)
    if ns == 0:
        return ''
    limit = [1000, 1000, 1000, 60, 24, 2**31 - 1]
    units = ['us', 'ms', 's', 'm', 'h']
    small = 0
    for idx in range(len(units)):
        small = ns % limit[idx]
        ns //= limit[idx]
        if ns < limit[idx + 1]:
            break
    if ns > 999:
        ns = small = 999
    return '%d.%03d %s' % (ns, small, units[idx])


def report_rows(path):
    """Rows of a uftrace report: name -> sorted list of the 3 columns."""
    rows = {}
    lines = open(path, encoding='utf-8', errors='surrogateescape').read().split('\n')
    for line in lines[2:]:
        if len(line) < 39:
            continue
        cols = tuple(re.sub(' +', ' ', line[i:i + 12].strip()) for i in (0, 12, 24))
        rows.setdefault(line[38:], []).append(cols)
    return {k: sorted(v) for k, v in rows.items()}


def compare(want, got, junk, what):
    if junk:
        for name in [n for n in want if n not in got and JUNK.search(n)]:
            for other in [n for n in got if n not in want]:
                if got[other] == want[name]:
                    got[name] = got.pop(other)
                    break
    bad = 0
    for name in sorted(set(want) | set(got)):
        w, g = want.get(name), got.get(name)
        if w != g:
            print('%s: uftrace %s %r, ours %r' % (name, what, w, g))
            bad += 1
    return bad


def main():
    args = sys.argv[1:]
    junk = '--junk' in args
    avg = args[args.index('--avg') + 1] if '--avg' in args else None
    got_t, got_a = {}, {}
    rows = list(csv.reader(open(args[1], encoding='utf-8',
                                errors='surrogateescape')))
    inside = False
    for r in rows:
        if r and r[0] == 'function' and len(r) > 6 and r[2] == 'total_ns':
            inside = True
            continue
        if inside:
            if not r:
                break
            got_t.setdefault(r[0], []).append(
                (uftrace_time(int(r[2])), uftrace_time(int(r[3])), r[1]))
            got_a.setdefault(r[0], []).append(
                (uftrace_time(int(r[5])), uftrace_time(int(r[4])),
                 uftrace_time(int(r[6]))))
    got_t = {k: sorted(v) for k, v in got_t.items()}
    got_a = {k: sorted(v) for k, v in got_a.items()}
    bad = compare(report_rows(args[0]), got_t, junk, 'report')
    if avg:
        bad += compare(report_rows(avg), got_a, junk, 'report --avg-total')
    return 1 if bad else 0


sys.exit(main())
