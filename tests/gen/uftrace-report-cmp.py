#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""uftrace-report-cmp.py REPORT OURS — compare `uftrace report` output
(REPORT: "Total time  Self time  Calls  Function", times such as
"6.695 ms") with the function rows of kvmtrace_format --stats=csv (OURS:
the section "function,calls,total_ns,self_ns,..."). Every function of the
report must be there with the same calls, and total and self times that
print the same in uftrace's units (us, ms or s, 3 decimals); and nothing
more. A name uftrace's demangler garbles (see uftrace-dump-order.py) may
differ, its figures not. Exits 1 on a difference.
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


def main():
    want = {}
    for line in open(sys.argv[1], encoding='utf-8', errors='surrogateescape'):
        m = re.match(r'^ *(\d+\.\d{3} +\w+|) +(\d+\.\d{3} +\w+|) +(\d+)  (.*)$',
                     line.rstrip('\n'))
        if m:
            want[m.group(4)] = (re.sub(' +', ' ', m.group(1)),
                                re.sub(' +', ' ', m.group(2)),
                                int(m.group(3)))
    got = {}
    rows = list(csv.reader(open(sys.argv[2], encoding='utf-8',
                                errors='surrogateescape')))
    inside = False
    for r in rows:
        if r and r[0] == 'function' and len(r) > 3 and r[2] == 'total_ns':
            inside = True
            continue
        if inside:
            if not r:
                break
            got[r[0]] = (uftrace_time(int(r[2])), uftrace_time(int(r[3])),
                         int(r[1]))
    # names uftrace's demangler garbles: matched by their figures
    for name in [n for n in want if n not in got and JUNK.search(n)]:
        for other in [n for n in got if n not in want]:
            if got[other] == want[name]:
                got[name] = got.pop(other)
                break
    bad = 0
    for name in sorted(set(want) | set(got)):
        w, g = want.get(name), got.get(name)
        if w != g:
            print('%s: uftrace report %r, ours %r' % (name, w, g))
            bad += 1
    return 1 if bad else 0


sys.exit(main())
