#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-tracedat-overread.py CASE > FILE.dat: small version 6 trace.dat files
whose damaged records would make libtraceevent read past them (issue 34,
items 16 and 17), each among good records that must all still be read.
The file layout and the record writers are gen-tracedat-classes.py's.

  big      event blob_load declares `char load[200000000]` at offset 12,
           printed with %s; its records hold 16 bytes. libtraceevent
           copies 200 MB from the record (trace-cmd report crashes). Two
           such records on CPU 0, among 100 good softirq_raise records on
           both CPUs, most of them after.
  past     event tail_load declares `char load[0]` at offset 60 (a
           zero-sized array: "the rest of the record"), printed with %s;
           its records hold 40 bytes, so the field starts past the end.
  endmap   the last record of the last page of the file (CPU 1, early in
           time) is a path_load whose __data_loc text runs to the end of
           the page without a NUL: libtraceevent reads on past the page,
           past libtracecmd's mapping (trace-cmd report crashes there).
           1500 good records on CPU 0 come after it in time.
  endmap-good  the same file with that text NUL-terminated inside the
           record: trace-cmd report's reference for every other line.
  loc2     event short_loc has a two-byte `__data_loc char[] name` (no
           length: libtraceevent 1.7 takes "the rest of the record"),
           printed with %s; two of its records point past their end,
           where libtraceevent's length wraps and it reads on past the
           record (trace-cmd report prints the bytes after it or crashes).
           Their fields are printed from their own bytes only.
  divzero  a good record whose print fmt divides by one of its fields,
           zero in the 7th record of CPU 0: libtraceevent dies of SIGFPE
           printing it (so does trace-cmd report): the guard's trap, the
           last line of defence, ends the input there.
"""
import importlib.util
import os
import struct
import sys

_spec = importlib.util.spec_from_file_location(
    "classes", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "gen-tracedat-classes.py"))
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)

BLOB_LOAD = C.fmt("blob_load", 901, [
    ("int cpu", 8, 4, 1), ("char load[200000000]", 12, 200000000, 1)],
    '"cpu=%d load=%s", REC->cpu, REC->load')
TAIL_LOAD = C.fmt("tail_load", 902, [
    ("int cpu", 8, 4, 1), ("char load[0]", 60, 0, 1)],
    '"cpu=%d load=%s", REC->cpu, REC->load')
RATIO = C.fmt("ratio", 903, [("int num", 8, 4, 1), ("int den", 12, 4, 1)],
              '"num=%d den=%d q=%d", REC->num, REC->den, REC->num / REC->den')
SHORT_LOC = C.fmt("short_loc", 904, [
    ("__data_loc char[] name", 8, 2, 1), ("short pad", 10, 2, 1),
    ("int pid", 12, 4, 1)],
    '"name=%s pid=%d", __get_str(name), REC->pid')
CMDLINES = [(400, "loader"), (401, "irqd")]


def interleave(bad_at, bad_rec, n):
    """n good softirq_raise records on each CPU; CPU 0's record i is
    bad_rec(i) where i is in bad_at."""
    cpu0, cpu1 = [], []
    t = C.T0
    for i in range(n):
        t += 1000
        cpu0.append((t, bad_rec(i) if i in bad_at else
                     C.softirq(401, i % 10)))
        cpu1.append((t + 500, C.softirq(401, (i + 3) % 10)))
    return cpu0, cpu1


def case_big():
    def blob(i):
        return C.common(901, 400) + struct.pack("<i", 0) + b"abcd"
    cpu0, cpu1 = interleave({5, 9}, blob, 50)
    return C.tracedat([], [("irq", [C.SOFTIRQ_RAISE]),
                           ("lab", [BLOB_LOAD])], CMDLINES, [cpu0, cpu1])


def case_past():
    def tail(i):
        return C.common(902, 400) + struct.pack("<i", i) + b"xyz" * 9 + b"w"
    cpu0, cpu1 = interleave({4, 7}, tail, 30)
    return C.tracedat([], [("irq", [C.SOFTIRQ_RAISE]),
                           ("lab", [TAIL_LOAD])], CMDLINES, [cpu0, cpu1])


def case_endmap(good):
    # CPU 1: one page, filled to its last byte; its last record a
    # path_load whose text runs to the end of the page
    cpu1 = []
    t = C.T0
    body = 0
    while C.PAGE - 16 - body > 400:
        t += 100
        cpu1.append((t, C.softirq(401, len(cpu1) % 10)))
        body += 16
    # path_load: 4 bytes of header word + 4 of length, 48 fixed, the text
    n = C.PAGE - 16 - body - 8 - 48
    text = b"/" + b"x" * (n - 1)
    if good:
        text = text[:-1] + b"\0"
    t += 100
    cpu1.append((t, C.path_load(400, 1, text, "kw", 400, 1, tail=b"")))
    pages1 = C.ring_pages(cpu1)
    assert len(pages1) == C.PAGE
    assert struct.unpack_from("<Q", pages1, 8)[0] == C.PAGE - 16
    cpu0 = []
    for i in range(1500):
        t += 1000
        cpu0.append((t, C.softirq(401, i % 10)))
    return C.tracedat([], [("irq", [C.SOFTIRQ_RAISE]),
                           ("lab", [C.PATH_LOAD])], CMDLINES, [cpu0, cpu1])


def case_loc2():
    def loc(i):
        # good: the name at byte 16, NUL-terminated; bad: at byte 0x1f00
        at = 0x1f00 if i in (3, 8) else 16
        return (C.common(904, 400) + struct.pack("<HhI", at, 0, 400 + i) +
                b"vcpu%d\0\0\0" % (i % 10))
    cpu0, cpu1 = interleave(set(range(12)), loc, 12)
    return C.tracedat([], [("irq", [C.SOFTIRQ_RAISE]),
                           ("lab", [SHORT_LOC])], CMDLINES, [cpu0, cpu1])


def case_divzero():
    def ratio(i):
        return C.common(903, 400) + struct.pack("<ii", 7 * i, i - 6)
    cpu0, cpu1 = interleave(set(range(0, 20, 2)), ratio, 20)
    return C.tracedat([], [("irq", [C.SOFTIRQ_RAISE]),
                           ("lab", [RATIO])], CMDLINES, [cpu0, cpu1])


CASES = {"big": case_big, "past": case_past, "divzero": case_divzero,
         "loc2": case_loc2,
         "endmap": lambda: case_endmap(False),
         "endmap-good": lambda: case_endmap(True)}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        sys.exit("usage: gen-tracedat-overread.py %s > FILE.dat" %
                 "|".join(CASES))
    sys.stdout.buffer.write(CASES[sys.argv[1]]())
