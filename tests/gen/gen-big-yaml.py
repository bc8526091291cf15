#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-big-yaml.py BASE.yaml [MB] > big.yaml

A YAML rule file of about MB megabytes (default 10): BASE.yaml (a working
rule file such as formats/kvmtrace.yaml) with the shapes that once made
loading quadratic (issue 13, item 9) added around its own rules:

  - many enum tables (small ones, and one big one),
  - many rules, each with a u64: join and an enum: reference,
  - one rule whose u64: map is huge,
  - one rule whose template holds very many keys.

The added rules match event ids 0x7f000000 and up, which no kvmtrace
record of the fixtures has: the file renders exactly as BASE.yaml does
(tests/cli/yaml/big-load.cmd checks that). Deterministic: no randomness.
"""
import sys


def main():
    base = open(sys.argv[1]).read().split('\n')
    mb = float(sys.argv[2]) if len(sys.argv) > 2 else 10.0
    # the shapes of issue 13, item 9: 50 k enum tables, a u64: map of
    # 50 k entries (its template naming each), a template of 100 k keys;
    # then one big enum table and ordinary rules up to the size asked
    total = int(mb * 1e6)
    out = sys.stdout
    scale = mb / 10.0
    ntables = int(50000 * scale)
    nu64 = int(50000 * scale)
    nkeys = int(100000 * scale)
    nbig = int(50000 * scale)
    # what is left, at some 105 bytes per rule
    used = 36 * ntables + 33 * nu64 + 6 * nkeys + 16 * nbig
    nrules = max(total - used, 0) // 105
    for line in base:
        out.write(line + '\n')
        if line == 'enums:':
            out.write('  # generated: many small tables, one big one\n')
            for i in range(ntables):
                out.write('  t%d: {0: A%d, 1: B, 7: C}\n' % (i, i))
            out.write('  big:\n')
            # in descending order: the loader sorts them
            for i in range(nbig, 0, -1):
                out.write('    %d: S%d\n' % (i * 3, i))
        elif line == 'events:':
            out.write('  # generated: rules for ids no fixture has\n')
            for i in range(nrules):
                out.write('  - {match: 0x%08x, args: [a, lo, hi], '
                          'u64: {w: [lo, hi]}, enum: {a: t%d}, '
                          'format: "%%(a)s %%(w)x"}\n'
                          % (0x7f000000 + i, i % max(ntables, 1)))
            out.write('  - match: 0x7effffff\n')
            out.write('    args: [a, b]\n')
            out.write('    enum: {a: big}\n')
            out.write('    u64:\n')
            for i in range(nu64):
                out.write('      j%d: [a, b]\n' % i)
            # every name once: as many distinct keys as u64 entries
            out.write('    format: "%(a)s')
            for i in range(nu64):
                out.write(' %%(j%d)x' % i)
            out.write('"\n')
            out.write('  - match: 0x7efffffe\n')
            out.write('    args: [a, b, c, d]\n')
            out.write('    format: "')
            keys = ('%(a)d ', '%(b)x ', '%(c)s ', '%(d)u ')
            for i in range(nkeys):
                out.write(keys[i % 4])
            out.write('"\n')


main()
