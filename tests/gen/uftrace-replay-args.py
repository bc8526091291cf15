#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""uftrace-replay-args.py REPLAY OURS — compare the argument lists and
return values of `uftrace replay` output (REPLAY) with kvmtrace_format's
template keys args and retval, printed by the rule

    * %(tid)d %(type)s %(symbol)s(%(args)s) %(retval)s

into OURS. Per task, the replay's "NAME(ARGS)" calls and "= VALUE" return
values must come in the same order as our entries and our exits that
have a value; function names are not compared (see
uftrace-dump-order.py). Strings are quoted in the replay, not in retval; numbers
(hex in the replay, typed in retval) are compared as numbers. Exits 1 on a difference.
"""
import re
import sys

CALL = re.compile(r'^ *[0-9. a-z]*\[ *(-?\d+)\] \| *(.*)$')


def replay_tokens(path):
    toks = {}
    for line in open(path, encoding='utf-8', errors='surrogateescape'):
        m = CALL.match(line.rstrip('\n'))
        if not m:
            continue
        tid, rest = int(m.group(1)), m.group(2)
        t = toks.setdefault(tid, [])
        if rest.startswith('/*'):
            continue        # events
        if rest.startswith('}'):
            r = re.match(r'^\} = (.*); /\* .* \*/$', rest)
            if r:
                t.append(('ret', r.group(1)))
            continue
        r = re.match(r'^(.*\))(?: = (.*))?(?:;| \{)$', rest)
        if not r:
            continue
        t.append(('call', r.group(1)))
        if r.group(2) is not None:
            t.append(('ret', r.group(2)))
    return toks


def our_tokens(path):
    toks = {}
    for line in open(path, encoding='utf-8', errors='surrogateescape'):
        tid, typ, rest = line.rstrip('\n').split(' ', 2)
        t = toks.setdefault(int(tid), [])
        if typ == 'entry':
            # "NAME(ARGS) " with an empty retval
            t.append(('call', rest[:-1]))
        elif typ == 'exit':
            ret = rest[rest.rindex(') ') + 2:]
            if ret != '':
                t.append(('ret', ret))
    return toks


def args_of(call):
    """The argument list: the last parenthesised group (names may hold
    parentheses too: "operator()", "{lambda(int)#1}")."""
    depth = 0
    for i in range(len(call) - 1, -1, -1):
        if call[i] == ')':
            depth += 1
        elif call[i] == '(':
            depth -= 1
            if depth == 0:
                return call[i:]
    return call


def same(a, b):
    if a == b:
        return True
    if a[0] == 'call' and b[0] == 'call':
        # names are compared with the dump (uftrace-dump-order.py)
        return args_of(a[1]) == args_of(b[1])
    if a[0] == 'ret' and b[0] == 'ret':
        x, y = a[1], b[1]
        if len(x) >= 2 and x[0] == x[-1] == '"':
            x = x[1:-1]
        if x == y:
            return True
        try:
            return int(x, 0) == int(y, 0)
        except ValueError:
            pass
        try:
            return float(x) == float(y)
        except ValueError:
            return False
    return False


def main():
    want, got = replay_tokens(sys.argv[1]), our_tokens(sys.argv[2])
    bad = 0
    for tid in sorted(want):
        w, g = want[tid], got.get(tid, [])
        for i, (x, y) in enumerate(zip(w, g)):
            if not same(x, y):
                print('task %d, item %d: replay %r, ours %r' % (tid, i, x, y))
                bad += 1
                break
        if len(w) != len(g):
            print('task %d: replay %d items, ours %d' % (tid, len(w), len(g)))
            bad += 1
    return 1 if bad else 0


sys.exit(main())
