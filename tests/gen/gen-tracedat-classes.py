#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-tracedat-classes.py CLASS > FILE.dat: small version 6 trace.dat files
holding the kinds of records real recordings have that trace-cmd reads and
a too strict reader refused (issue 25), written from scratch:

  stack    ftrace:kernel_stack events (`trace-cmd record -T`) whose
           `unsigned long caller[8]` holds 0 to 8 entries: the kernel
           writes as many as the stack has, so the record stops within the
           array; kallsyms names the callers. trace-cmd report prints
           `<stack trace >` and a `=> func (addr)` line per entry.
  nul      an out-of-tree event whose `__data_loc char[] path` holds
           "(null)" in 6 bytes with its NUL just after them, still inside
           the record (as LISA's sched_load_se): libtraceevent prints it
           to the NUL.
  comm     a `trace-cmd listen` file: no saved cmdlines for pids 100 and
           101, whose names come from sched_switch and sched_wakeup as the
           file is read; events before those print <...>.
  damaged  good records and, among them on CPU 0, damaged ones: a
           __data_loc string pointing past its record, one without a NUL
           before its record ends, and softirq_raise records too short for
           their `vec`; CPU 1's records go on around them.
  fgraph   function graph events (`trace-cmd record -p function_graph`) on
           two CPUs over several pages: trace-cmd report prints an entry
           whose exit follows it on its CPU as one leaf line, "func();",
           reading that exit ahead through libtracecmd's iterators (the
           plugin of libtracecmd's own), which must stand where
           libtracecmd's reading of every record leaves them. Made at
           test time (tests/cli/tracedat/class-fgraph.cmd); its reference,
           `trace-cmd report` of it, is class-fgraph.out there.
  badpage  CPU 0's second of three pages has a header claiming more than a
           page: libtracecmd (and trace-cmd report) silently end CPU 0
           there; kvmtrace_format says so and goes on at its third page
           (no trace-cmd reference: trace-cmd prints none of it).

The formats are those of this machine's kernel (6.x tracefs), written out
here; the records follow them. The reference is `trace-cmd report` of the
file (trace-cmd 3.1.6), kept beside it as FILE.dat.report:

  for c in stack nul comm damaged badpage; do
    python3 tests/gen/gen-tracedat-classes.py $c >tests/fixtures/tracedat/class-$c.dat
    trace-cmd report -i tests/fixtures/tracedat/class-$c.dat \\
      >tests/fixtures/tracedat/class-$c.dat.report
  done
"""
import struct
import sys

PAGE = 4096
COMMON = (
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n")


def fmt(name, eid, fields, pfmt):
    return ("name: %s\nID: %d\nformat:\n%s%s\nprint fmt: %s\n" %
            (name, eid, COMMON,
             "".join("\tfield:%s;\toffset:%d;\tsize:%d;\tsigned:%d;\n" % f
                     for f in fields), pfmt)).encode()


KERNEL_STACK = fmt("kernel_stack", 4, [
    ("int size", 8, 4, 1),
    ("unsigned long caller[8]", 16, 64, 0)],
    '"' + "\\t=> %ps\\n" * 8 + '", ' +
    ", ".join("(void *)REC->caller[%d]" % i for i in range(8)))
STATE = "0x00000001 | 0x00000002 | 0x00000004"
SCHED_SWITCH = fmt("sched_switch", 372, [
    ("char prev_comm[16]", 8, 16, 0), ("pid_t prev_pid", 24, 4, 1),
    ("int prev_prio", 28, 4, 1), ("long prev_state", 32, 8, 1),
    ("char next_comm[16]", 40, 16, 0), ("pid_t next_pid", 56, 4, 1),
    ("int next_prio", 60, 4, 1)],
    '"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> '
    'next_comm=%s next_pid=%d next_prio=%d", REC->prev_comm, REC->prev_pid, '
    'REC->prev_prio, (REC->prev_state & (' + STATE + ')) ? '
    '__print_flags(REC->prev_state & (' + STATE + '), "|", '
    '{ 0x00000001, "S" }, { 0x00000002, "D" }, { 0x00000004, "T" }) : "R", '
    'REC->next_comm, REC->next_pid, REC->next_prio')
SCHED_WAKEUP = fmt("sched_wakeup", 374, [
    ("char comm[16]", 8, 16, 0), ("pid_t pid", 24, 4, 1),
    ("int prio", 28, 4, 1), ("int target_cpu", 32, 4, 1)],
    '"comm=%s pid=%d prio=%d target_cpu=%03d", REC->comm, REC->pid, '
    'REC->prio, REC->target_cpu')
SOFTIRQ_RAISE = fmt("softirq_raise", 221, [("unsigned int vec", 8, 4, 0)],
                    '"vec=%u [action=%s]", REC->vec, __print_symbolic(REC->vec, '
                    '{ 0, "HI" }, { 1, "TIMER" }, { 7, "SCHED" }, { 9, "RCU" })')
PATH_LOAD = fmt("path_load", 900, [
    ("int cpu", 8, 4, 1), ("__data_loc char[] path", 12, 4, 1),
    ("char comm[16]", 16, 16, 1), ("pid_t pid", 32, 4, 1),
    ("unsigned long load", 40, 8, 0)],
    '"cpu=%d path=%s comm=%s pid=%d load=%lu", REC->cpu, __get_str(path), '
    'REC->comm, REC->pid, REC->load')

FGRAPH_ENTRY = fmt("funcgraph_entry", 11, [
    ("unsigned long func", 8, 8, 0), ("int depth", 16, 4, 1)],
    '"--> %ps (%d)", (void *)REC->func, REC->depth')
FGRAPH_EXIT = fmt("funcgraph_exit", 10, [
    ("unsigned long func", 8, 8, 0), ("int depth", 16, 4, 1),
    ("unsigned int overrun", 20, 4, 0),
    ("unsigned long long calltime", 24, 8, 0),
    ("unsigned long long rettime", 32, 8, 0)],
    '"<-- %ps (%d) (start: %llx  end: %llx) over: %d", (void *)REC->func, '
    'REC->depth, REC->calltime, REC->rettime, REC->depth')

HEADER_PAGE = (
    b"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
    b"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
    b"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
    b"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n")
HEADER_EVENT = (
    b"# compressed entry header\n\ttype_len    :    5 bits\n"
    b"\ttime_delta  :   27 bits\n\tarray       :   32 bits\n\n"
    b"\tpadding     : type == 29\n\ttime_extend : type == 30\n"
    b"\ttime_stamp : type == 31\n\tdata max type_len  == 28\n")

FUNCS = [(0xffffffff81100000 + 0x1000 * i, n) for i, n in enumerate([
    "do_syscall_64", "entry_SYSCALL_64_after_hwframe", "ksys_write",
    "vfs_write", "schedule", "__schedule", "worker_thread", "kthread",
    "ret_from_fork", "ftrace_syscall_exit"])]


def common(eid, pid):
    return struct.pack("<HBBi", eid, 1, 0, pid)


def comm16(s):
    return s.encode()[:16].ljust(16, b"\0")


def switch(prev, ppid, nxt, npid, state=1):
    return (common(372, ppid) + comm16(prev) +
            struct.pack("<iiq", ppid, 120, state) + comm16(nxt) +
            struct.pack("<ii", npid, 120))


def wakeup(pid, comm, target, cpu):
    return common(374, pid) + comm16(comm) + struct.pack("<iii", target, 120, cpu)


def softirq(pid, vec):
    return common(221, pid) + struct.pack("<I", vec)


def stack(pid, n, base=0):
    callers = [FUNCS[(base + i) % len(FUNCS)][0] + 0x10 * (i + 1)
               for i in range(n)]
    return (common(4, pid) + struct.pack("<iI", n, 0) +
            struct.pack("<%dQ" % n, *callers))


def path_load(pid, cpu, text, comm, who, load, loc=None, tail=b"\0\0"):
    """text at byte 48, declared as len(text) bytes; tail after it."""
    if loc is None:
        loc = len(text) << 16 | 48
    return (common(900, pid) + struct.pack("<iI", cpu, loc) +
            comm16(comm) + struct.pack("<iIQ", who, 0, load) + text + tail)


def ring_pages(recs):
    """recs: [(ts, payload)] of one CPU: its ring-buffer pages, joined."""
    out = bytearray()
    i = 0
    while i < len(recs):
        base = prev = recs[i][0]
        body = bytearray()
        while i < len(recs):
            ts, payload = recs[i]
            payload += b"\0" * (-len(payload) % 4)
            delta = ts - prev
            assert 0 <= delta < 1 << 27
            n = len(payload) // 4
            if n <= 28:
                ev = struct.pack("<I", n | delta << 5) + payload
            else:
                ev = struct.pack("<II", delta << 5, len(payload) + 4) + payload
            if len(body) + len(ev) > PAGE - 16:
                break
            body += ev
            prev = ts
            i += 1
        out += struct.pack("<QQ", base, len(body)) + body
        out += b"\0" * (PAGE - 16 - len(body))
    return bytes(out)


def tracedat(ftrace, systems, cmdlines, per_cpu, kallsyms=b""):
    out = bytearray(b"\x17\x08\x44tracing6\0" + bytes([0, 8]) +
                    struct.pack("<I", PAGE))
    for name, text in ((b"header_page\0", HEADER_PAGE),
                       (b"header_event\0", HEADER_EVENT)):
        out += name + struct.pack("<Q", len(text)) + text
    out += struct.pack("<I", len(ftrace))
    for f in ftrace:
        out += struct.pack("<Q", len(f)) + f
    out += struct.pack("<I", len(systems))
    for name, fmts in systems:
        out += name.encode() + b"\0" + struct.pack("<I", len(fmts))
        for f in fmts:
            out += struct.pack("<Q", len(f)) + f
    out += struct.pack("<I", len(kallsyms)) + kallsyms
    out += struct.pack("<I", 0)                         # trace_printk
    cl = "".join("%d %s\n" % c for c in cmdlines).encode()
    out += struct.pack("<Q", len(cl)) + cl
    out += struct.pack("<I", len(per_cpu))
    out += b"options  \0"
    clk = b"[local] global counter uptime perf mono mono_raw boot x86-tsc\n\0"
    out += struct.pack("<HI", 4, len(clk)) + clk        # TRACECLOCK
    out += struct.pack("<H", 0) + b"flyrecord\0"
    blobs = [ring_pages(r) for r in per_cpu]
    clock = b"[local] global counter uptime perf mono mono_raw boot x86-tsc\n"
    table_end = len(out) + 16 * len(blobs) + 8 + len(clock)
    off = table_end + (-table_end % PAGE)
    for b in blobs:
        out += struct.pack("<QQ", off, len(b))
        off += len(b)
    out += struct.pack("<Q", len(clock)) + clock
    out += b"\0" * (-len(out) % PAGE)
    for b in blobs:
        out += b
    return bytes(out)


T0 = 5000_000_000_000   # 5000 s, local clock (ns)


def case_stack():
    ks = "".join("%016x T %s\n" % f for f in FUNCS).encode()
    cpu0, cpu1 = [], []
    t = T0
    for i in range(40):
        t += 1500 + 37 * i
        (cpu0 if i % 3 else cpu1).append(
            (t, softirq(200 + i % 2, i % 10) if i % 4 == 0 else
             stack(200 + i % 2, i % 9, i)))
    cmd = [(200, "writer"), (201, "worker")]
    return tracedat([KERNEL_STACK], [("irq", [SOFTIRQ_RAISE])], cmd,
                    [cpu0, cpu1], ks)


def case_nul():
    cpu0 = []
    t = T0
    for i in range(12):
        t += 2000
        if i % 3 == 2:
            rec = path_load(0, 0, b"/tasks/a\0", "kworker/0:1", 300 + i, i)
        else:
            # "(null)" declared as 6 bytes, its NUL the 7th, in the record
            rec = path_load(0, 0, b"(null)", "kworker/0:1", 300 + i, 7 * i)
        cpu0.append((t, rec))
    return tracedat([], [("lab", [PATH_LOAD])], [(300, "kworker/0:1")], [cpu0])


def case_comm():
    recs = [
        softirq(100, 1),                        # <...>-100: no name yet
        softirq(101, 9),
        switch("ls", 100, "sh", 101),           # names both
        softirq(100, 1),
        softirq(101, 7),
        wakeup(102, "rcu_sched", 102, 0),       # names 102
        softirq(102, 9),
        switch("sh", 101, "ls", 100),
        softirq(103, 1),                        # never named: <...>
    ]
    cpu0 = [(T0 + 1000 * (i + 1), r) for i, r in enumerate(recs)]
    # a cmdlines entry names 104 only
    return tracedat([], [("sched", [SCHED_SWITCH, SCHED_WAKEUP]),
                         ("irq", [SOFTIRQ_RAISE])], [(104, "init")], [cpu0])


def case_damaged():
    cpu0, cpu1 = [], []
    t = T0
    bad = {
        3: path_load(400, 0, b"/a\0\0", "kw", 400, 1,
                     loc=200 << 16 | 48),       # past the record
        6: path_load(400, 0, b"/abcdefg", "kw", 400, 2, tail=b""),
        9: common(221, 401),                    # softirq_raise without vec
        10: common(221, 401),
    }
    for i in range(16):
        t += 1000
        cpu0.append((t, bad.get(i) or
                     path_load(400, 0, b"/ok%d\0" % i, "kw", 400, i)))
        cpu1.append((t + 500, softirq(401, i % 10)))
    return tracedat([], [("irq", [SOFTIRQ_RAISE]), ("lab", [PATH_LOAD])],
                    [(400, "loader"), (401, "irqd")], [cpu0, cpu1])


def case_badpage():
    """CPU 0 fills three pages; the second's header says it holds 5000
    bytes, more than a page: libtracecmd stops CPU 0 there."""
    cpu0, cpu1 = [], []
    t = T0
    for i in range(150):
        t += 1000
        cpu0.append((t, path_load(400, 0, b"/p%03d\0" % i, "kw", 400, i)))
        if i % 10 == 0:
            cpu1.append((t + 500, softirq(401, i % 10)))
    data = bytearray(tracedat([], [("irq", [SOFTIRQ_RAISE]),
                                   ("lab", [PATH_LOAD])],
                              [(400, "loader"), (401, "irqd")], [cpu0, cpu1]))
    i = data.index(b"flyrecord\0") + 10
    off0, size0 = struct.unpack_from("<QQ", data, i)
    assert size0 >= 3 * PAGE
    struct.pack_into("<Q", data, off0 + PAGE + 8, 5000)
    return bytes(data)


def case_fgraph():
    """Calls on two CPUs, leaves among them, over several pages each."""
    ks = "".join("%016x T %s\n" % f for f in FUNCS).encode()
    per = [[], []]
    t = T0
    # first other events over pages of both CPUs (read without
    # libtracecmd's per-record calls until the first entry is printed)
    for i in range(700):
        t += 200 + 7 * (i % 3)
        per[(i // 5) % 2].append((t, softirq(500 + (i // 5) % 2, i % 10)))
    for i in range(400):
        cpu = (i // 7) % 2
        pid = 500 + cpu
        f = FUNCS[i % len(FUNCS)][0]
        t += 300 + 11 * (i % 5)
        if i % 3 == 0:      # a leaf: its exit next on the CPU
            per[cpu].append((t, common(11, pid) + struct.pack("<Qi", f, 1)))
            per[cpu].append((t + 100, common(10, pid) + struct.pack(
                "<QiIQQ", f, 1, 0, t, t + 100)))
            t += 100
        elif i % 3 == 1:    # an entry whose exit comes later
            per[cpu].append((t, common(11, pid) + struct.pack("<Qi", f, 0)))
        else:
            per[cpu].append((t, common(10, pid) + struct.pack(
                "<QiIQQ", f, 0, 0, t - 500, t)))
    return tracedat([FGRAPH_EXIT, FGRAPH_ENTRY], [("irq", [SOFTIRQ_RAISE])],
                    [(500, "runner"), (501, "walker")], per, ks)


CASES = {"fgraph": case_fgraph, "stack": case_stack, "nul": case_nul, "comm": case_comm,
         "damaged": case_damaged, "badpage": case_badpage}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        sys.exit("usage: gen-tracedat-classes.py %s > FILE.dat" %
                 "|".join(CASES))
    sys.stdout.buffer.write(CASES[sys.argv[1]]())
