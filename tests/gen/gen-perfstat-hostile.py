#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write perf stat -I files made to break --counters (issue 34, 12 to 15).

  gen-perfstat-hostile.py KIND OUT [N]

KIND:
  names     N (default 80000) counters of distinct names, one interval
            each, in the -x, layout (names were found by a scan of all
            before them: 80 000 took 40 s)
  overflow  counts of 1e308 (two intervals of 'cycles' make a total past
            a double; 'big' stays within it, 'small' is 1.5e15 and
            0.25): the fixture tests/fixtures/perfstat/stat-overflow.txt
  nul       a NUL byte inside the name of line 3 (it cut the name and made
            a new counter): tests/fixtures/perfstat/stat-nul.txt
"""
import sys


def line(t, count, name, pct="100.00"):
    return "%s,%s,,%s,100000000,%s,,\n" % (t, count, name, pct)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    kind, out = sys.argv[1], sys.argv[2]
    if kind == "names":
        n = int(sys.argv[3]) if len(sys.argv) > 3 else 80000
        data = "".join(line("1.000000001", i + 1, "counter%06d" % i)
                       for i in range(n))
    elif kind == "overflow":
        data = (line("1.000000000", "1e308", "cycles") +
                line("1.000000000", "1e308", "big") +
                line("1.000000000", "1500000000000000", "small") +
                line("2.000000000", "1e308", "cycles") +
                line("2.000000000", "5", "big") +
                line("2.000000000", "0.25", "small"))
    elif kind == "nul":
        data = (line("1.000000000", "100", "cycles") +
                line("1.000000000", "7", "instructions") +
                line("2.000000000", "200", "cyc\0les") +
                line("2.000000000", "9", "instructions"))
    else:
        sys.exit(__doc__)
    open(out, "w").write(data)


if __name__ == "__main__":
    main()
