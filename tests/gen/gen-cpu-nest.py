#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-cpu-nest.py > tests/fixtures/perfetto/cpu-nest.dat: a small v6
trace.dat (written by gen-tracedat-classes.py's writer) whose CPU tracks
test how slices nest, in --chrome and --perfetto alike:

  CPU 0  a task switched in at t, a softirq entered at the same t and an
         irq inside it at the same t again (three slices opening at one
         instant: the later ones are inside the earlier), then their exits
         in order; an irq whose exit was lost, then a task switch (the
         handler ends there, "repaired"); an irq exit that matches no
         handler open (an instant); a task running at the end.
  CPU 1  an irq exit before any entry (an instant), a softirq left open at
         the end (closed at the last time stamp, "repaired").

`trace-cmd report` reads it (tests/cli/perfetto/cpu-nest-report.cmd).
"""
import importlib.util
import os
import struct
import sys

sys.dont_write_bytecode = True
_spec = importlib.util.spec_from_file_location(
    "classes", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "gen-tracedat-classes.py"))
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)

IRQ_ENTRY = C.fmt("irq_handler_entry", 120, [
    ("int irq", 8, 4, 1), ("__data_loc char[] name", 12, 4, 1)],
    '"irq=%d name=%s", REC->irq, __get_str(name)')
IRQ_EXIT = C.fmt("irq_handler_exit", 121, [
    ("int irq", 8, 4, 1), ("int ret", 12, 4, 1)],
    '"irq=%d ret=%s", REC->irq, REC->ret ? "handled" : "unhandled"')
VEC = ('__print_symbolic(REC->vec, { 0, "HI" }, { 1, "TIMER" }, '
       '{ 3, "NET_RX" }, { 7, "SCHED" }, { 9, "RCU" })')
SOFTIRQ_ENTRY = C.fmt("softirq_entry", 122, [("unsigned int vec", 8, 4, 0)],
                      '"vec=%u [action=%s]", REC->vec, ' + VEC)
SOFTIRQ_EXIT = C.fmt("softirq_exit", 123, [("unsigned int vec", 8, 4, 0)],
                     '"vec=%u [action=%s]", REC->vec, ' + VEC)


def irq_entry(pid, irq, name):
    text = name.encode() + b"\0"
    return C.common(120, pid) + struct.pack("<iI", irq, len(text) << 16 | 16) + text


def irq_exit(pid, irq):
    return C.common(121, pid) + struct.pack("<ii", irq, 1)


def softirq(eid, pid, vec):
    return C.common(eid, pid) + struct.pack("<I", vec)


def main():
    t = C.T0
    cpu0 = [
        (t + 1000, C.switch("swapper/0", 0, "worker", 300)),
        (t + 1000, softirq(122, 300, 3)),
        (t + 1000, irq_entry(300, 24, "eth0")),
        (t + 1400, irq_exit(300, 24)),
        (t + 1900, softirq(123, 300, 3)),
        (t + 2500, irq_entry(300, 11, "timer")),       # its exit is lost
        (t + 3000, C.switch("worker", 300, "shell", 301)),
        (t + 3500, irq_exit(301, 9)),                  # nothing open: instant
        (t + 4000, C.switch("shell", 301, "worker", 300)),
        (t + 4000, irq_entry(300, 24, "eth0")),
        (t + 4000, irq_exit(300, 24)),
        (t + 6000, C.switch("worker", 300, "swapper/0", 0)),
        (t + 6200, C.switch("swapper/0", 0, "shell", 301)),
    ]
    cpu1 = [
        (t + 1200, irq_exit(0, 24)),                   # entry before the trace
        (t + 2000, C.switch("swapper/1", 0, "kworker/1:0", 40)),
        (t + 5000, softirq(122, 40, 1)),               # open at the end
        (t + 7000, C.wakeup(40, "kworker/1:0", 300, 0)),
    ]
    cmd = [(300, "worker"), (301, "shell"), (40, "kworker/1:0")]
    data = C.tracedat([], [("sched", [C.SCHED_SWITCH, C.SCHED_WAKEUP]),
                           ("irq", [IRQ_ENTRY, IRQ_EXIT, SOFTIRQ_ENTRY,
                                    SOFTIRQ_EXIT])], cmd, [cpu0, cpu1])
    sys.stdout.buffer.write(data)


if __name__ == "__main__":
    main()
