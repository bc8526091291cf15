#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write QEMU simple-backend trace files (log version 4) from the format.

  gen-qemu-simple.py OUTDIR

writes, for tests/fixtures/qemu/trace-events:

  simple.bin          ids shuffled, mappings mid-file, two pids, a time
                      step back, strings with quotes, control bytes and
                      600 bytes, a NULL string, dropped-events records
  simple-cut.bin      simple.bin cut in the middle of a record
  simple-v3.bin       a header of log version 3 (older QEMU)
  simple-damaged.bin  an id without mapping, an event the dictionary
                      lacks, a record whose length disagrees with its
                      declaration, then good records again
  simple-vcpu72.bin   QEMU 7.2's vcpu events, with their __cpu argument
  simple-mono.bin     records on CLOCK_MONOTONIC within the span of
                      tests/fixtures/qemu/host-mono.dat (tests/gen/gen-qemu-mono.sh)
  simple-extremes.bin time stamps 0 .. 2^64 - 1 (deltas beyond 2^53 ns,
                      where simpletrace.py's float shows), all-ones values
  plain.qlog           a log-backend file without stamps (-D FILE alone,
                      as every qemu-user log), cpu_index -1 (DMA, MSI
                      outside a vCPU) among the vCPUs, another message
  mixed.qlog           a log-backend file (7.2 stamps) with lines that
                      cannot be read back: another message, an event the
                      dictionary lacks, a reading that is not unique, a
                      format that does not fit

The format (QEMU trace/simple.c): u64 ~0, u64 0xf2b177cb0aa429b4, u64
version; then per record a u64 type: 0 mapping (u64 id, u32 len, name),
1 event (u64 id, u64 ns, u32 length = 24 + argument bytes, u32 pid, per
argument a u64 or u32 length + bytes). Id ~1 - 1 is the dropped record.
The expected outputs of simple.bin come from QEMU's scripts/simpletrace.py
(see tests/cli/qemu/README).
"""
import os
import random
import struct
import sys

MAGIC = 0xf2b177cb0aa429b4
DROPPED = 0xfffffffffffffffe

# name -> argument kinds ('q' u64, 's' string), as trace-events declares
EVENTS = {
    "kvm_vcpu_ioctl": "qqq",
    "kvm_run_exit": "qq",
    "kvm_io_window_exit": "",
    "memory_region_ops_read": "qqqqqs",
    "dma_blk_io": "qqqq",
    "qemu_test_text": "sqs",
    "qemu_test_disabled": "q",
    "guest_cpu_reset": "",
    "guest_user_syscall_ret": "qq",
}


def header(version=4):
    return struct.pack("<QQQ", 0xffffffffffffffff, MAGIC, version)


def mapping(eid, name):
    b = name.encode()
    return struct.pack("<QQI", 0, eid, len(b)) + b


def args_bytes(kinds, values):
    out = b""
    for k, v in zip(kinds, values):
        if k == "s":
            b = b"" if v is None else v
            out += struct.pack("<I", len(b)) + b
        else:
            out += struct.pack("<Q", v & 0xffffffffffffffff)
    return out


def event(eid, ts, pid, payload, length=None):
    if length is None:
        length = 24 + len(payload)
    return struct.pack("<QQQII", 1, eid, ts, length, pid) + payload


class Writer:
    def __init__(self, rng):
        self.rng = rng
        ids = list(range(len(EVENTS)))
        rng.shuffle(ids)
        self.ids = dict(zip(EVENTS, (i * 7 + 3 for i in ids)))
        self.out = bytearray()

    def map(self, name, eid=None):
        self.out += mapping(self.ids[name] if eid is None else eid, name)

    def ev(self, name, ts, pid, *values, eid=None):
        self.out += event(self.ids[name] if eid is None else eid, ts, pid,
                          args_bytes(EVENTS[name], values))

    def dropped(self, ts, pid, n):
        self.out += event(DROPPED, ts, pid, struct.pack("<Q", n))


def neg(v):
    return v & 0xffffffffffffffff


def simple(rng):
    w = Writer(rng)
    w.out += header()
    names = list(EVENTS)
    # QEMU maps every event at open; these come in shuffled order, and a
    # few only later, mid-file
    late = {"qemu_test_text", "guest_user_syscall_ret"}
    order = [n for n in names if n not in late]
    rng.shuffle(order)
    for n in order:
        w.map(n)
    ts = 7_000_000_000 + rng.randrange(1_000_000)
    pids = (4242, 4243)
    for i in range(40):
        ts += rng.randrange(1, 5000)
        pid = pids[i % 7 == 3]
        cpu = i % 2
        w.ev("kvm_vcpu_ioctl", ts, pid, cpu, 0xae80, 0)
        ts += rng.randrange(100, 90000)
        w.ev("kvm_run_exit", ts, pid, cpu, rng.choice((2, 2, 2, 6, 17)))
        if i % 5 == 0:
            ts += 1234
            w.ev("memory_region_ops_read", ts, pid, cpu,
                 0x55d0c0a8e000 + i, 0xfed00000 + 8 * i, i * 3, 4,
                 b"hpet")
        if i % 9 == 4:
            ts += 17
            w.ev("dma_blk_io", ts, pid, 0x55d0c1000000, 0x55d0c2000000,
                 neg(-512 * i), i & 1)
        if i == 12:
            w.map("qemu_test_text")
        if i > 12 and i % 6 == 1:
            ts += 5
            w.ev("qemu_test_text", ts, pid, b"it's", neg(-22),
                 b'say "hi"\tthen\\n')
        if i == 20:
            # a time step back (another thread's record written late)
            w.ev("kvm_io_window_exit", ts - 3500, pid)
            w.dropped(ts + 10, pid, 17)
        if i == 25:
            w.map("guest_user_syscall_ret")
            ts += 1
            w.ev("qemu_test_text", ts, pid, bytes(range(0, 40)) + b"\x7f\x80\xff",
                 0x7fffffff, b"both ' and \"")
            ts += 1
            w.ev("qemu_test_text", ts, pid, b"A" * 300 + b"'" + b"B" * 299,
                 -1, None)
            ts += 1
            w.ev("qemu_test_disabled", ts, pid, 0xffffffffffffffff)
        if i > 25 and i % 4 == 0:
            ts += 9
            w.ev("guest_user_syscall_ret", ts, pid, 231, neg(-38))
            ts += 2
            w.ev("guest_cpu_reset", ts, pid)
        if i == 30:
            # an id mapped again to another event, as a later QEMU may
            w.map("kvm_io_window_exit", w.ids["qemu_test_disabled"])
            ts += 3
            w.ev("kvm_io_window_exit", ts, pid, eid=w.ids["qemu_test_disabled"])
            w.map("qemu_test_disabled")
    w.dropped(ts + 100, pids[0], 3)
    return bytes(w.out)


def damaged(rng):
    w = Writer(rng)
    w.out += header()
    for n in EVENTS:
        w.map(n)
    ts = 9_000_000_000
    w.ev("kvm_run_exit", ts, 7, 0, 2)
    # an id no mapping names
    w.out += event(9999, ts + 10, 7, struct.pack("<QQ", 1, 2))
    # an event the dictionary lacks, twice
    w.map("virtio_queue_notify", 5000)
    w.out += event(5000, ts + 20, 7, struct.pack("<QQQ", 1, 2, 3))
    w.ev("kvm_run_exit", ts + 30, 7, 1, 6)
    w.out += event(5000, ts + 40, 7, struct.pack("<QQQ", 1, 2, 3))
    # a record longer than its declaration
    w.out += event(w.ids["kvm_run_exit"], ts + 50, 7,
                   struct.pack("<QQQ", 1, 2, 3))
    w.ev("qemu_test_text", ts + 60, 7, b"still", 3, b"here")
    return bytes(w.out)


def vcpu72(rng):
    w = Writer(rng)
    w.out += header()
    for n in EVENTS:
        w.map(n)
    ts = 11_000_000_000
    cpu = 0x55d0c3b1f000
    # QEMU 7.2 wrote the vCPU pointer first; current QEMU writes none
    w.ev("kvm_run_exit", ts, 99, 0, 2)
    w.out += event(w.ids["guest_cpu_reset"], ts + 5, 99,
                   struct.pack("<Q", cpu))
    w.out += event(w.ids["guest_user_syscall_ret"], ts + 9, 99,
                   struct.pack("<QQQ", cpu, 60, 0))
    w.ev("guest_cpu_reset", ts + 11, 99)
    return bytes(w.out)


def mono(rng):
    # between the events of host-mono.dat (3 .. 75 ns on CLOCK_MONOTONIC)
    w = Writer(rng)
    w.out += header()
    for n in EVENTS:
        w.map(n)
    for i in range(4):
        w.ev("kvm_vcpu_ioctl", 10 + 16 * i, 321, i % 2, 0xae80, 0)
        w.ev("kvm_run_exit", 17 + 16 * i, 321, i % 2, 2)
    return bytes(w.out)


def extremes():
    w = Writer(random.Random(0))
    w.out += header()
    w.map("kvm_run_exit", 5)
    for ts in (1, 2**63 + 12345, 3, 2**64 - 1, 4_500_000_000_000_001, 0,
               123456789012345678):
        w.ev("kvm_run_exit", ts, 2**32 - 1, 2**64 - 1, 7, eid=5)
    return bytes(w.out)


MIXED_LOG = """\
4242@1700000000.000001:kvm_run_exit cpu_index 1, reason 2
4242@1700000000.000002:qemu-system-x86_64: terminating on signal 15
4242@1700000000.000003:virtio_queue_notify vdev 0x1 n 0 vq 0x2
4242@1700000000.000004:qemu_test_text label x delta 1 text y delta 2 text z
4242@1700000000.000005:qemu_test_text label it's delta -22 text say "hi"
4242@1700000000.000006:kvm_run_exit cpu_index one, reason 2
4243@1700000000.000007:guest_user_syscall_ret cpu=0x55d0c3b1f000 num=0x000000000000003c ret=0x0000000000000000
4243@1700000000.000008:guest_cpu_reset cpu=0x55d0c3b1f000 
4243@1700000000.000009:dma_blk_io dbs=0x1 bs=(nil) offset=-4096 to_dev=1
"""

PLAIN_LOG = """\
kvm_vcpu_ioctl cpu_index 0, type 0xae80, arg (nil)
kvm_run_exit cpu_index 0, reason 2
memory_region_ops_read cpu -1 mr 0x55d0c0a8e000 addr 0xfed00000 value 0x0 size 4 name 'hpet'
kvm_vcpu_ioctl cpu_index 1, type 0xae80, arg (nil)
kvm_run_exit cpu_index 1, reason 17
kvm_io_window_exit 
kvm_run_exit cpu_index -1, reason 2
qemu-system-x86_64: terminating on signal 15
dma_blk_io dbs=0x1 bs=(nil) offset=-4096 to_dev=1
"""


def main():
    outdir = sys.argv[1]
    rng = random.Random(30)
    data = simple(rng)
    files = {
        "simple.bin": data,
        "simple-cut.bin": data[:len(data) - 700],
        "simple-v3.bin": header(3) + data[24:200],
        "simple-damaged.bin": damaged(rng),
        "simple-vcpu72.bin": vcpu72(rng),
        "simple-mono.bin": mono(rng),
    }
    files["mixed.qlog"] = MIXED_LOG.encode()
    files["plain.qlog"] = PLAIN_LOG.encode()
    files["simple-extremes.bin"] = extremes()
    for name, b in files.items():
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(b)


if __name__ == "__main__":
    main()
