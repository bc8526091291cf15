#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-big-qemu-simple.py N OUT — a QEMU simple trace (log version 4) of N
event records of tests/fixtures/qemu/trace-events, as a busy KVM guest
makes them: KVM_RUN ioctls and run exits of 4 vCPUs, every 8th exit an
MMIO read with a memory region name. For tests/bench/bench-qemu.sh."""
import struct
import sys

n, out = int(sys.argv[1]), sys.argv[2]
ids = {"kvm_vcpu_ioctl": 3, "kvm_run_exit": 10,
       "memory_region_ops_read": 17}
buf = bytearray(struct.pack("<QQQ", 0xffffffffffffffff,
                            0xf2b177cb0aa429b4, 4))
for name, i in ids.items():
    b = name.encode()
    buf += struct.pack("<QQI", 0, i, len(b)) + b
ioctl = [struct.pack("<QQQ", cpu, 0xae80, 0) for cpu in range(4)]
exit_ = [struct.pack("<QQ", cpu, 2) for cpu in range(4)]
name = b"e1000-mmio"
with open(out, "wb") as f:
    ts = 5_000_000_000
    for k in range(n):
        cpu = (k >> 1) & 3
        ts += 700 + (k * 7919) % 3000
        if k % 16 == 15:
            args = struct.pack("<QQQQQI", cpu, 0x55d0c0a8e000, 0xfebc0000 + k % 64,
                               k & 0xffff, 4, len(name)) + name
            eid = ids["memory_region_ops_read"]
        elif k & 1:
            args, eid = exit_[cpu], ids["kvm_run_exit"]
        else:
            args, eid = ioctl[cpu], ids["kvm_vcpu_ioctl"]
        buf += struct.pack("<QQQII", 1, eid, ts, 24 + len(args), 4242) + args
        if len(buf) > 1 << 20:
            f.write(buf)
            buf.clear()
    f.write(buf)
