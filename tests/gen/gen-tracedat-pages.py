#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-tracedat-pages.py > FILE.dat: a version 6 trace.dat of one CPU whose
three ring-buffer pages hold every kind of entry a page walker must take
as libtraceevent's kbuffer takes it (the live reader walks the pages
itself, src/sources/live/live-pages.c): records of 3 words (type_len 3),
a time extend (type 30), a record with its length in its first word
(type_len 0), a padding entry (29, a discarded event), an absolute time
stamp (31) whose top bits come from the page's; the second page says 42
events were missed (count stored after its data), the third that some
were (count unknown). softirq_raise events, this machine's format.

The reference is `trace-cmd report` of the file (trace-cmd 3.1.6), kept
beside it (and its -t form):

  python3 tests/gen/gen-tracedat-pages.py >tests/fixtures/tracedat/pages.dat
  trace-cmd report -i tests/fixtures/tracedat/pages.dat \\
    >tests/fixtures/tracedat/pages.dat.report

The writer of the file is gen-tracedat-classes.py's.
"""
import importlib.util
import os
import struct
import sys

_spec = importlib.util.spec_from_file_location(
    "classes", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "gen-tracedat-classes.py"))
classes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(classes)
PAGE = classes.PAGE


def entry(type_len, delta, body):
    return struct.pack("<I", type_len | delta << 5) + body


def softirq(vec):
    return classes.common(221, 100) + struct.pack("<I", vec)


def page(base, body, flags=0, lost=None):
    out = struct.pack("<QQ", base, len(body) | flags) + body
    if lost is not None:
        out += struct.pack("<Q", lost)
    return out + b"\0" * (PAGE - len(out))


def pages():
    r = softirq(1)
    p1 = (entry(3, 100, r) +
          entry(30, 5, struct.pack("<I", 3)) +          # + (3 << 27) + 5
          entry(3, 7, softirq(2)) +
          entry(0, 9, struct.pack("<I", len(r) + 4) + r) +
          entry(29, 0, struct.pack("<I", 12) + b"\0" * 8) +
          entry(3, 11, softirq(3)) +
          entry(31, 123, struct.pack("<I", 77)) +        # absolute
          entry(3, 0, softirq(4)))
    p2 = entry(3, 1, softirq(5)) + entry(3, 2, softirq(6))
    p3 = entry(3, 1, softirq(7))
    return (page(5000000000000, p1) +
            page(5000500000000, p2, (1 << 31) | (1 << 30), 42) +
            page(5000600000000, p3, 1 << 31))


def main():
    blob = pages()
    # one CPU, its pages as written here
    classes.ring_pages = lambda recs: blob
    sys.stdout.buffer.write(classes.tracedat(
        [], [("irq", [classes.SOFTIRQ_RAISE])], [(100, "x")], [[]]))


if __name__ == "__main__":
    main()
