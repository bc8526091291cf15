#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-tracedat-date.py OUT.dat -- a trace.dat on the wall clock, as
`trace-cmd record --date` writes it: the recorded version 7 file
tests/fixtures/tracedat/host-local-clock.dat (trace_clock local) with a
DATE option (id 1, in an options section appended and chained,
the text "0x<offset>" and its NUL: trace-record.c), which libtracecmd
adds to every time stamp, as trace-cmd report does unless given --nodate.
libtracecmd 1.3 takes the offset in microseconds (trace-cmd report of
"0x10" moves every event 16 us later).  The offset puts its events inside
tests/fixtures/qemu-log/kvm72.qlog's span (wall-clock ns of 2026-11-26),
so the two merge on one timeline (tests/cli/clocks/dat-date-*)."""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tracedatopts  # noqa: E402

OPT_DATE = 1
FIRST = 2795411394432           # the recording's first time stamp
WALL = 1795620722280000000      # where it lands: inside kvm72.qlog

top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
src = os.path.join(top, "tests", "fixtures", "tracedat", "host-local-clock.dat")
with open(src, "rb") as f:
    data = f.read()
date = b"0x%x\0" % ((WALL - FIRST) // 1000)
opt = struct.pack("<HI", OPT_DATE, len(date)) + date
with open(sys.argv[1], "wb") as f:
    f.write(tracedatopts.v7_append(data, opt))
