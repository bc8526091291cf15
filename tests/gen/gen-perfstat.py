#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-perfstat.py OUTDIR - the same perf stat -I intervals in each layout.

As `perf stat -I 100 -e cycles:G,kvm:kvm_exit,task-clock` prints them
(perf 6.1; the layout was checked against outputs recorded here, whose
kvm_exit counts are 0 on this nested KVM):

  stat-x-hash.txt    -x'#', with merge.py's "rdtsc N" first line
  stat-x-comma.txt   -x, (and perf stat -o's "# started on" line)
  stat-x-semi.txt    -x';'
  stat-human.txt     the human format: "# started on", the header line
                     perf repeats every 25 intervals, thousands grouped
                     with ",", task-clock in msec with its metric comment

30 intervals of 0.1 s; cycles:G ran 50 % of some intervals (perf scales
nothing: the count is what it counted, the share follows); interval 7 is
<not counted> for cycles:G and interval 8 <not supported>.
"""
import os
import sys


def rows():
    for i in range(1, 31):
        t = '%d.%09d' % (i // 10, (i % 10) * 100000000 + 1277035 + i)
        pct = 50.0 if i % 4 == 0 else 100.0
        cyc = None if i == 7 else ('ns' if i == 8 else 1000000 * i + 17)
        yield t, 'cycles:G', cyc, '', 100000000 * pct / 100, pct
        yield t, 'kvm:kvm_exit', 1000 + 37 * i, '', 100000000, 100.0
        yield t, 'task-clock', 12.5 + i / 4, 'msec', 100000000, 100.0


def count_x(c):
    if c is None:
        return '<not counted>'
    if c == 'ns':
        return '<not supported>'
    return ('%.2f' % c) if isinstance(c, float) else str(c)


def xfile(path, sep, head=''):
    with open(path, 'w') as f:
        f.write(head)
        for t, ev, c, unit, run, pct in rows():
            metric = ['', '']
            if ev == 'task-clock':
                metric = ['0.%03d' % (125 + int(c)), 'CPUs utilized']
            f.write('%14s' % t + sep + sep.join([
                count_x(c), unit, ev, '%d' % run,
                '%.2f' % (pct if c not in (None, 'ns') else 100.0),
            ] + metric) + '\n')


def human(path):
    hdr = '#           time             counts unit events\n'
    with open(path, 'w') as f:
        f.write('# started on Wed Nov 25 15:41:09 2026\n\n')
        for n, (t, ev, c, unit, run, pct) in enumerate(rows()):
            if n % (25 * 3) == 0:
                f.write(hdr)
            if c is None or c == 'ns':
                f.write('%15s %18s      %-30s\n' % (t, count_x(c), ev))
                continue
            if isinstance(c, float):
                cnt = '%.2f' % c
            else:
                cnt = '{:,}'.format(c)
            tail = ''
            if ev == 'task-clock':
                tail = '  #    0.%03d CPUs utilized' % (125 + int(c))
            if pct < 100:
                tail += '  (%.2f%%)' % pct
            f.write('%15s %18s %-4s %-30s%s\n' % (t, cnt, unit, ev, tail))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    xfile(os.path.join(out, 'stat-x-hash.txt'), '#', 'rdtsc 5000123000000\n')
    xfile(os.path.join(out, 'stat-x-comma.txt'), ',',
          '# started on Wed Nov 25 15:40:40 2026\n\n')
    xfile(os.path.join(out, 'stat-x-semi.txt'), ';')
    human(os.path.join(out, 'stat-human.txt'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
