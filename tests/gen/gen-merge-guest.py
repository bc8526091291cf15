#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write the guest stream a non-nested KVM guest would have recorded.

Reads kvmtrace_format output of a host trace rendered with
tests/fixtures/merge/pio-samples.formats (write_tsc_offset and kvm_pio
lines) and writes, for every kvm_pio on port 0x10, a kvmtrace record
GUEST_SAMPLE (0x00030001; data: index, the port's value, 0) stamped
1000 host ticks before the pio on the guest's clock: guest = host + offset,
with the offset the host had last written for vCPU 0. With
--tsc-offset auto, kvmtrace_format must put each sample right back before
its kvm_pio (tests/gen/check-merge.sh).

  kvmtrace_format -f tests/fixtures/merge/pio-samples.formats HOST.dat |
      python3 tests/gen/gen-merge-guest.py > GUEST.kvmtrace
"""
import struct
import sys

offset = 0
out = bytearray()
i = 0
for line in sys.stdin:
    f = line.split()
    if len(f) < 4 or f[1] != "host":
        continue
    if f[2] == "write_tsc_offset":
        offset = int(f[4].split("=")[1])  # u64 holding a signed value
    elif f[2] == "kvm_pio" and f[3] == "port=0x10":
        host = int(f[0]) - 1000
        val = int(f[4].split("=")[1], 16)
        guest = (host + offset) % (1 << 64)
        hdr = 0x00030001 | 3 << 28 | 1 << 31
        out += struct.pack("<IIIQIII", hdr, 1, 0, guest, i, val, 0)
        i += 1
sys.stdout.buffer.write(out)
