# SPDX-License-Identifier: GPL-2.0-or-later
"""The pieces of a uftrace data directory the generators share.

The writer's magic, one record in uftrace's layout (libmcount's struct
uftrace_record), a file written whole, and the info file of a generated
program. gen-uftrace-big.py, gen-uftrace-runs.py and gen-uftrace-qemu.py
import it.
"""

import os
import struct

MAGIC = b"Ftrace!\0"
ENTRY, EXIT, LOST, EVENT = 0, 1, 2, 3
RECORD_MAGIC = 5


def record(ts, typ, depth, addr, more=0, big=False):
    """One uftrace_record: u64 time; u64 type:2 more:1 magic:3 depth:10 addr:48."""
    if big:
        # big-endian bit fields are allocated from the most significant bit
        data = (typ << 62) | (more << 61) | (RECORD_MAGIC << 58) | \
            ((depth & 0x3ff) << 48) | (addr & 0xffffffffffff)
        return struct.pack(">QQ", ts, data)
    data = typ | (more << 2) | (RECORD_MAGIC << 3) | ((depth & 0x3ff) << 6) | \
        ((addr & 0xffffffffffff) << 16)
    return struct.pack("<QQ", ts, data)


def write(path, data):
    """data (bytes, or text written as UTF-8) as the whole of path."""
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def write_info(out, name, tids):
    """out/info of program /NAME/prog (cmdline NAME) with tasks tids."""
    info = [
        "exename:/%s/prog" % name, "build_id:0", "exit_status:0",
        "cmdline:%s" % name,
        "cpuinfo:lines=2", "cpuinfo:nr_cpus=1 / 1 (online/possible)",
        "cpuinfo:desc=x", "meminfo:1 / 1", "osinfo:lines=3",
        "osinfo:kernel=Linux", "osinfo:hostname=h", "osinfo:distro=d",
        "taskinfo:lines=2", "taskinfo:nr_tid=%d" % len(tids),
        "taskinfo:tids=" + ",".join(str(t) for t in tids),
    ]
    # feature: TASK_SESSION | SYM_REL_ADDR; info: exename..taskinfo
    hdr = MAGIC + struct.pack("<IHBBQQHHI", 4, 40, 1, 2, 0x22, 0xff, 0, 0, 0)
    write(os.path.join(out, "info"), hdr + ("\n".join(info) + "\n").encode())
