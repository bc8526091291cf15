#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""chrome-ts.py KTF -- --chrome's time stamps against the records' own.

Writes kvmtrace streams (records as tests/gen/gen-sample-kvmtrace.py
describes them: u32 hdr, u32 pid, u32 vcpu, u64 tsc, the data words) whose
TSC steps cross and land on the 100 us boundaries the JSON encoder keeps
the digits of (tl_json's json_us_text), by 1 ns, 99.999 us, 100 us, 1 s
..., from a stamp of 0, from one just below 100 us, and from one past
2^52 ns (the wall clock: written from a base, metadata ts_base_ns). Runs
`KTF --chrome -c 1000` (1000 MHz: a tick is a ns, no rounding) and checks
every instant's and slice's "ts" and "dur" text, in order, against what
this script works out from the records: an exit and the next entry of its
vCPU a slice, an exit before its entry an instant (unpaired), an entry
with nothing pending and any other event an instant, exits still open at
the end slices to the last stamp. Exit 0 if all match.
"""
import json
import os
import random
import struct
import subprocess
import sys
import tempfile

VMENTRY, VMEXIT, HLT, IO_WRITE = 0x00010001, 0x00010002, 0x00020011, 0x00020006
STEPS = [0, 1, 7, 999, 1000, 1001, 99999, 100000, 100001, 199999, 250000,
         999999, 1000000, 1000000007, 12345678901]


def us(ns):
    return "%d.%03d" % divmod(ns, 1000) if ns >= 0 else \
        "-%d.%03d" % divmod(-ns, 1000)


def stream(seed, start, n):
    rnd = random.Random(seed)
    out, recs, ts = [], [], start
    for _ in range(n):
        ts += rnd.choice(STEPS)
        ev = rnd.choice([VMENTRY, VMEXIT, VMEXIT, HLT, IO_WRITE])
        vcpu = rnd.randrange(3)
        data = {VMEXIT: [30, 0x1005, 0], IO_WRITE: [0x10, 1]}.get(ev, [])
        out.append(struct.pack("<III", ev | len(data) << 28 | 1 << 31,
                               1000, vcpu))
        out.append(struct.pack("<Q", ts))
        out.append(struct.pack("<%dI" % len(data), *data))
        recs.append((ev, vcpu, ts))
    return b"".join(out), recs


def expect(recs):
    events, pending, order = [], {}, []
    for ev, vcpu, ts in recs:
        if ev == VMEXIT:
            if vcpu in pending:
                events.append(("i", us(pending[vcpu])))
            elif vcpu not in order:
                order.append(vcpu)
            pending[vcpu] = ts
        elif ev == VMENTRY and vcpu in pending:
            t0 = pending.pop(vcpu)
            events.append(("X", us(t0), us(ts - t0)))
        else:
            if ev == VMENTRY and vcpu not in order:
                order.append(vcpu)
            events.append(("i", us(ts)))
    last = max(r[2] for r in recs)
    for vcpu in order:
        if vcpu in pending:
            events.append(("X", us(pending[vcpu]), us(last - pending[vcpu])))
    return events


def got(text):
    """The ts and dur of each i and X, as written (the JSON's own text)."""
    events = []
    for line in text.splitlines():
        if '"ph":"i"' not in line and '"ph":"X"' not in line:
            continue
        ts = line.split('"ts":', 1)[1].split(",", 1)[0]
        if '"ph":"X"' in line:
            dur = line.split('"dur":', 1)[1].split(",", 1)[0]
            events.append(("X", ts, dur))
        else:
            events.append(("i", ts))
    return events


def main():
    ktf = sys.argv[1]
    fails = 0
    cases = [("from 0", 1, 0), ("from 99.990 us", 2, 99990),
             ("past 2^52 ns", 3, (1 << 52) + 123456789)]
    with tempfile.TemporaryDirectory() as tmp:
        for i, (name, seed, start) in enumerate(cases):
            data, recs = stream(seed, start, 3000)
            path = os.path.join(tmp, "t%d.bin" % i)
            with open(path, "wb") as f:
                f.write(data)
            text = subprocess.run([ktf, "--chrome", "-c", "1000", path],
                                  check=True, stdout=subprocess.PIPE,
                                  universal_newlines=True).stdout
            base = int(json.loads(text)["metadata"].get("ts_base_ns", "0"))
            want = expect([(e, v, t - base) for e, v, t in recs])
            have = got(text)
            ok = want == have
            if not ok:
                fails += 1
                bad = next((k for k in range(min(len(want), len(have)))
                            if want[k] != have[k]), min(len(want), len(have)))
                print("# %s: event %d: want %s, got %s (%d, %d events)" %
                      (name, bad, want[bad:bad + 1], have[bad:bad + 1],
                       len(want), len(have)))
            print("%s %d - %s: %d stamps, base %d" %
                  ("ok" if ok else "not ok", i + 1, name, len(want), base))
    return 1 if fails else 0


if __name__ == "__main__":
    print("1..3")
    sys.exit(main())
