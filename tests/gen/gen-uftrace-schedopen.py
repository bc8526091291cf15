#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-uftrace-schedopen.py OUTDIR -- a uftrace data directory whose tasks
end switched out: the last perf event of each is a sched-out inside a
function, with no sched-in after it (a server killed while its threads
sleep, as kimleeju/xdp_redis's public recording of issue 38 ends).

  4242  main > work; sched-out/in once inside work (a call of
        linux:schedule), then a sched-out that never comes back
  4243  main > idle; a pre-empting sched-out that never comes back

uftrace report counts the open sched-outs as calls of linux:schedule
lasting until the task's last record; their slot holds the sched-out's
id, which no symbol names.  The references are uftrace 0.13's:
    tests/gen/gen-uftrace-schedopen.py tests/fixtures/uftrace-gen
    uftrace report -d tests/fixtures/uftrace-gen/sched-open
    uftrace dump -d tests/fixtures/uftrace-gen/sched-open
Layout: gen-uftrace-qemu.py's synth/ (uftrace record's), with the
PERF_EVENT feature and one perf-cpu0.dat of PERF_RECORD_SWITCH records.
"""
import importlib.util
import os
import shutil
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "gen_uftrace_qemu", os.path.join(HERE, "gen-uftrace-qemu.py"))
g = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(g)

SYMS = [("T", 0x1100, "main"), ("T", 0x1180, "work"), ("T", 0x1200, "idle"),
        ("?", 0x1300, "__sym_end")]
BASE = 0x55550000a000
NS = 5000000000000
SWITCH, SWITCH_OUT, OUT_PREEMPT = 14, 0x2000, 0x4000


def switch(pid, tid, ts, misc):
    return struct.pack("<IHHIIQ", SWITCH, misc, 24, pid, tid, ts)


def write_schedopen(d):
    if os.path.exists(d):
        shutil.rmtree(d)
    os.makedirs(d)
    a = {n: BASE + off + 9 for t, off, n in SYMS if t != "?"}
    t = NS
    main = [(t, g.ENTRY, 0, a["main"]), (t + 100, g.ENTRY, 1, a["work"]),
            (t + 900, g.EXIT, 1, a["work"]), (t + 1000, g.ENTRY, 1, a["work"])]
    child = [(t + 50, g.ENTRY, 0, a["main"]), (t + 200, g.ENTRY, 1, a["idle"]),
             (t + 300, g.EXIT, 1, a["idle"]), (t + 400, g.ENTRY, 1, a["idle"])]
    g.write(os.path.join(d, "4242.dat"), b"".join(g.record(*r) for r in main))
    g.write(os.path.join(d, "4243.dat"), b"".join(g.record(*r) for r in child))
    perf = [switch(4242, 4242, t + 200, SWITCH_OUT),
            switch(4242, 4242, t + 500, 0),
            switch(4243, 4243, t + 450, SWITCH_OUT | OUT_PREEMPT),
            switch(4242, 4242, t + 1100, SWITCH_OUT)]
    g.write(os.path.join(d, "perf-cpu0.dat"), b"".join(perf))
    lines = [
        "exename:/work/schedopen",
        "build_id:00112233445566778899aabbccddeeff00112233",
        "exit_status:0",
        "cmdline:uftrace record ./schedopen",
        "cpuinfo:lines=2",
        "cpuinfo:nr_cpus=1 / 1 (online/possible)",
        "cpuinfo:desc=synthetic",
        "meminfo:1.0 / 2.0 GB (free / total)",
        "osinfo:lines=3",
        "osinfo:kernel=Linux 6.1.0",
        "osinfo:hostname=schedopen",
        'osinfo:distro="synthetic"',
        "taskinfo:lines=2",
        "taskinfo:nr_tid=2",
        "taskinfo:tids=4242,4243",
        "usageinfo:lines=6",
        "usageinfo:systime=0.000000",
        "usageinfo:usrtime=0.001000",
        "usageinfo:ctxsw=1 / 1 (voluntary / involuntary)",
        "usageinfo:maxrss=1000",
        "usageinfo:pagefault=0 / 100 (major / minor)",
        "usageinfo:iops=0 / 0 (read / write)",
        "loadinfo:0.00 / 0.00 / 0.00",
        "record_date:Thu Nov 21 00:00:00 2024",
        "elapsed_time:0.000001200 sec",
        "pattern_type:regex",
        "uftrace_version:v0.13 ( x86_64 )",
    ]
    # PLTHOOK | TASK_SESSION | SYM_REL_ADDR | MAX_STACK | PERF_EVENT
    g.write(os.path.join(d, "info"),
            g.header(0x163, 0x3bff, max_stack=1024) +
            "".join(l + "\n" for l in lines).encode())
    g.write(os.path.join(d, "task.txt"),
            'SESS timestamp=4999.999999000 pid=4242 sid=5eed5eed5eed5eed '
            'exename="/work/schedopen"\n'
            "TASK timestamp=4999.999999100 tid=4242 pid=4242\n"
            "TASK timestamp=4999.999999200 tid=4243 pid=4242\n")
    g.write(os.path.join(d, "sid-5eed5eed5eed5eed.map"),
            "%012x-%012x r-xp 00000000 00:00 0 /work/schedopen\n"
            "7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0 [stack]\n"
            % (BASE, BASE + 0x5000))
    g.write(os.path.join(d, "schedopen.sym"),
            "".join("%016x %s %s\n" % (off, t, n) for t, off, n in SYMS))


def main():
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    write_schedopen(os.path.join(sys.argv[1], "sched-open"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
