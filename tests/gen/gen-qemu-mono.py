#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-qemu-mono.py OUT.dat — a trace.dat on CLOCK_MONOTONIC, as
`trace-cmd record -C mono` writes it, for the merge with a QEMU simple
trace (tests/cli/qemu/merge-mono*): the recorded version 6 file
tests/fixtures/tracedat/clock-counter-v6.dat with the text of its
trace_clock (the TRACECLOCK option's text after the CPU table) saying
"[mono]" instead of "[counter]". Its time stamps (3 .. 75) are then read
as nanoseconds; tests/gen/gen-qemu-simple.py's simple-mono.bin lies
between them."""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tracedatopts  # noqa: E402

top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
src = os.path.join(top, "tests", "fixtures", "tracedat", "clock-counter-v6.dat")
with open(src, "rb") as f:
    parts = tracedatopts.v6_parse(f.read())
text = b"local global counter uptime perf [mono] mono_raw boot x86-tsc\n"
parts["clock"] = struct.pack("<Q", len(text)) + text
with open(sys.argv[1], "wb") as f:
    f.write(tracedatopts.v6_write(parts))
