#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-sample-kvmtrace.py -- the README's sample trace, from a real recording.

  gen-sample-kvmtrace.py REPORT > sample.bin

REPORT is `trace-cmd report` of a recording of contrib/tinyguest on this
machine (tests/fixtures/tracedat/host-kvm-v6.dat.report, see contrib/README):
a real-mode KVM guest that reads its TSC and writes it out through ports
0x10, 0x11 and 0x12, 20 times, then halts.

The machines here run KVM nested (kvm_pvm), so that recording shows each
guest instruction emulated (kvm_emulate_insn) and no VM exits. This writes
what the 2008 kvmtrace of a VMX host records for the same run (packed
records, little-endian, no magic word, TSC stamps), the way the kernel's
vmx.c wrote them (KVMTRACE_*D):

- VMENTRY at each kvm_fpu load (KVM entering the guest);
- for each `out` (emulated at 0:1005, 0:100b, 0:1011): VMEXIT with exit
  reason 30 (IO_INSTRUCTION) and the guest RIP, at the instruction's
  stamp, then IO_WRITE (port, size) at the kvm_pio stamp;
- for the final `hlt` (0:101b): VMEXIT reason 12 (HLT), then HLT at the
  stamp of its kvm_userspace_exit.

The guest's own steps (rdtsc, mov, inc, cmp, jb) run natively on VMX and
make no records. What the recording cannot show, since the nested host
emulates with interrupts held off, is the host timer: on VMX a host
interrupt while the guest runs is an exit. One tick of a 1000 Hz host
timer is added at TICK ticks after the first entry (default 65536), in the
guest's run that holds it: VMEXIT reason 1 (EXTERNAL_INTERRUPT) at the RIP
the guest is at (the next `out`'s), INTR with the exit's interruption info
(0x800000ec: valid, external, vector 0xec, the host's LOCAL_TIMER_VECTOR),
and the next VMENTRY after the handler (1500 ticks later).

Records: u32 hdr (event id | n_data << 28 | 1 << 31: a TSC follows),
u32 pid (the recording's tgid), u32 vcpu_id (0), u64 tsc, n_data u32.
"""
import re
import struct
import sys

VMENTRY, VMEXIT = 0x00010001, 0x00010002
INTR, IO_WRITE, HLT = 0x0002000E, 0x00020006, 0x00020011
EXIT_EXTERNAL_INTERRUPT, EXIT_HLT, EXIT_IO_INSTRUCTION = 1, 12, 30
TICK = 65536
HANDLER = 1500

LINE = re.compile(r"^\s*(.+)-(\d+)\s+\[(\d+)\]\s*(\d+): (\w+):\s+(.*)$")


def record(out, ev, pid, tsc, *data):
    out.append(struct.pack("<III", ev | len(data) << 28 | 1 << 31, pid, 0))
    out.append(struct.pack("<Q", tsc))
    out.append(struct.pack("<%dI" % len(data), *data))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    events = []
    with open(sys.argv[1]) as f:
        for line in f:
            m = LINE.match(line)
            if m:
                events.append((int(m.group(4)), int(m.group(2)),
                               m.group(5), m.group(6)))
    out = []
    pid = events[0][1]
    first = None
    tick = None
    insn = None
    for ts, _, name, info in events:
        if name == "kvm_fpu" and info.strip() == "load":
            if first is None:
                first = ts
                tick = ts + TICK
            record(out, VMENTRY, pid, ts)
        elif name == "kvm_emulate_insn":
            cs, rip, code = re.match(r"(\w+):(\w+): (.*)", info).groups()
            rip = int(rip, 16)
            if code.startswith("66 e7") or code == "f4":
                if tick is not None and tick < ts:
                    # the host's tick fell in the guest's run before this
                    record(out, VMEXIT, pid, tick,
                           EXIT_EXTERNAL_INTERRUPT, rip, 0)
                    record(out, INTR, pid, tick + 200, 0x800000ec)
                    record(out, VMENTRY, pid, tick + HANDLER)
                    tick = None
                insn = code
                record(out, VMEXIT, pid, ts,
                       EXIT_HLT if code == "f4" else EXIT_IO_INSTRUCTION,
                       rip, 0)
        elif name == "kvm_pio":
            m = re.match(r"pio_write at 0x(\w+) size (\d+)", info)
            record(out, IO_WRITE, pid, ts, int(m.group(1), 16),
                   int(m.group(2)))
        elif name == "kvm_userspace_exit" and "KVM_EXIT_HLT" in info:
            record(out, HLT, pid, ts)
    sys.stdout.buffer.write(b"".join(out))


main()
