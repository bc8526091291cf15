#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-exits.py -- a host trace with KVM exits, as a non-nested host records it.

  gen-exits.py tracedat TEMPLATE.dat SYMS [--clock local|x86-tsc] [--seed N]
               [--exits N] > host.dat
  gen-exits.py kvmtrace SYMS [--seed N] [--exits N] > host.kvmtrace

The machines here run KVM nested (kvm_pvm): their recordings hold no
kvm_exit/kvm_entry. This writes what a plain VMX host would have:

- tracedat: a version 6 trace.dat whose headers, event formats (the kvm
  system as this kernel's tracefs gives it), kallsyms and printk formats
  are copied from TEMPLATE.dat (a file recorded here, e.g.
  tests/fixtures/tracedat/host-kvm-v6.dat), with our own cmdlines,
  TRACECLOCK option and ring-buffer pages. Records follow the formats'
  field offsets: kvm_exit, kvm_entry, and during exits kvm_pio, kvm_mmio,
  kvm_msr, kvm_hypercall, kvm_inj_virq.
- kvmtrace: the 2008 packed records, VMEXIT (exit code, RIP low, high),
  VMENTRY, IO_WRITE, MSR_WRITE, INJ_VIRQ.

Two VMs: A with vCPUs 0 and 1 (host threads 1001, 1002 on CPUs 0, 1) and
B with vCPU 0 (thread 2001 on CPU 2), so that two vCPU 0s exit at
overlapping times. Exit reasons are VMX basic reasons; each exit's guest
RIP lies in a function of SYMS (a kallsyms text: "ADDR T NAME"). About 2 %
of exits meet another exit before their entry (unpaired), and each vCPU's
last exit has no entry. Deterministic for a seed.
"""
import argparse
import random
import struct
import sys

VMX = {  # reason: (name, mean exit time in ns, functions, kind)
    1: ("EXTERNAL_INTERRUPT", 1500, None, "virq"),
    10: ("CPUID", 900, ["native_cpuid"], None),
    12: ("HLT", 40000, ["native_safe_halt", "default_idle"], None),
    18: ("VMCALL", 2500, ["kvm_hypercall"], "hypercall"),
    30: ("IO_INSTRUCTION", 6000, ["serial8250_tx_chars", "i8042_read"], "pio"),
    32: ("MSR_WRITE", 1200, ["native_write_msr", "x2apic_send_IPI"], "msr"),
    48: ("EPT_VIOLATION", 3500, ["clear_page_erms", "copy_page"], None),
    49: ("EPT_MISCONFIG", 5000, ["iowrite32", "virtnet_poll"], "mmio"),
}
WEIGHTS = {1: 20, 10: 3, 12: 15, 18: 4, 30: 12, 32: 20, 48: 16, 49: 10}
THREADS = [  # (pid, comm, vcpu, cpu)
    (1001, "CPU 0/KVM", 0, 0),
    (1002, "CPU 1/KVM", 1, 1),
    (2001, "CPU 0/KVM", 0, 2),
]


def load_syms(path):
    syms = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 3 and f[1] in "tTwW":
            syms[f[2]] = int(f[0], 16)
    return syms


def events(args, syms):
    """(ts, cpu, pid, name, fields) in time order per CPU."""
    rnd = random.Random(args.seed)
    names = sorted(syms)
    out = []
    per = max(1, args.exits // len(THREADS))
    for pid, comm, vcpu, cpu in THREADS:
        t = 1_000_000 + 37 * pid
        for i in range(per):
            t += rnd.randint(500, 30000)  # guest runs
            reason = rnd.choices(list(WEIGHTS), list(WEIGHTS.values()))[0]
            name, mean, funcs, kind = VMX[reason]
            func = rnd.choice(funcs) if funcs else rnd.choice(names)
            rip = syms[func] + rnd.randrange(0, 0x40)
            out.append((t, cpu, pid, "kvm_exit", dict(
                exit_reason=reason, guest_rip=rip, isa=1, info1=0, info2=0,
                intr_info=0x800000ec if reason == 1 else 0, error_code=0,
                vcpu_id=vcpu, requests=0)))
            dur = max(200, int(rnd.lognormvariate(0, 0.6) * mean))
            if kind and rnd.random() < 0.9:
                k = t + rnd.randint(50, max(60, dur // 3))
                if kind == "pio":
                    port = 0x3f8 if func == "serial8250_tx_chars" else 0x60
                    out.append((k, cpu, pid, "kvm_pio", dict(
                        rw=int(port == 0x3f8), port=port, size=1, count=1,
                        val=0x41)))
                elif kind == "mmio":
                    gpa = rnd.choice([0xfebf1000, 0xfebf1004, 0xfee00300])
                    out.append((k, cpu, pid, "kvm_mmio", dict(
                        type=2, len=4, gpa=gpa, val=1)))
                elif kind == "msr":
                    ecx = 0x6e0 if func == "native_write_msr" else 0x830
                    out.append((k, cpu, pid, "kvm_msr", dict(
                        write=1, ecx=ecx, data=rnd.getrandbits(40),
                        exception=0)))
                elif kind == "hypercall":
                    out.append((k, cpu, pid, "kvm_hypercall", dict(
                        nr=rnd.choice([5, 9, 11]), a0=0, a1=0, a2=0, a3=0)))
                elif kind == "virq":
                    out.append((k, cpu, pid, "kvm_inj_virq", dict(
                        vector=rnd.choice([0xec, 0x22, 0x31]), soft=0,
                        reinjected=0)))
            last = i == per - 1
            if last or rnd.random() < 0.02:
                # no entry: the next exit (or the end) comes first
                t += dur
                continue
            t += dur
            out.append((t, cpu, pid, "kvm_entry", dict(
                vcpu_id=vcpu, rip=rip + 2, immediate_exit=0, intr_info=0,
                error_code=0)))
    out.sort(key=lambda e: (e[0], e[1]))
    return out


# ------------------------------------------------------------ trace.dat

class Template:
    """The sections of a v6 trace.dat up to the cmdlines."""

    def __init__(self, data):
        if data[:12] != b"\x17\x08\x44tracing6\0":
            sys.exit("the template is not a version 6 trace.dat")
        self.data = data
        p = 18
        for name in (b"header_page\0", b"header_event\0"):
            assert data[p:p + len(name)] == name
            p += len(name)
            p += 8 + struct.unpack_from("<Q", data, p)[0]
        n = struct.unpack_from("<I", data, p)[0]
        p += 4
        for _ in range(n):
            p += 8 + struct.unpack_from("<Q", data, p)[0]
        self.formats = {}
        n = struct.unpack_from("<I", data, p)[0]
        p += 4
        for _ in range(n):
            e = data.index(b"\0", p)
            p = e + 1
            m = struct.unpack_from("<I", data, p)[0]
            p += 4
            for _ in range(m):
                sz = struct.unpack_from("<Q", data, p)[0]
                self.parse_format(data[p + 8:p + 8 + sz].decode())
                p += 8 + sz
        self.before_kallsyms = data[:p]
        k = p
        p += 4 + struct.unpack_from("<I", data, p)[0]   # kallsyms
        self.kallsyms = data[k:p]
        self.printk = data[p:p + 4 + struct.unpack_from("<I", data, p)[0]]
        p += len(self.printk)
        self.head = data[:p]
        self.page = struct.unpack_from("<I", data, 14)[0]

    def parse_format(self, text):
        name, eid, fields = None, None, {}
        for line in text.splitlines():
            line = line.strip()
            if line.startswith("name:"):
                name = line.split()[1]
            elif line.startswith("ID:"):
                eid = int(line.split()[1])
            elif line.startswith("field:"):
                parts = [x.strip() for x in line.split(";")]
                decl = parts[0][len("field:"):].strip()
                fname = decl.split()[-1].split("[")[0]
                off = int(parts[1].split(":")[1])
                size = int(parts[2].split(":")[1])
                fields[fname] = (off, size)
        if name:
            self.formats[name] = (eid, fields)

    def record(self, name, pid, values):
        eid, fields = self.formats[name]
        size = max(off + sz for off, sz in fields.values())
        rec = bytearray(size)
        values = dict(values, common_type=eid, common_flags=0,
                      common_preempt_count=0, common_pid=pid)
        for fname, (off, sz) in fields.items():
            v = values.get(fname, 0) & ((1 << (8 * sz)) - 1)
            rec[off:off + sz] = v.to_bytes(sz, "little")
        return bytes(rec)


def ring_pages(recs, page):
    """recs: [(ts, payload)] of one CPU. Ring-buffer pages, joined."""
    out = bytearray()
    i = 0
    while i < len(recs):
        base = recs[i][0]
        body = bytearray()
        prev = base
        while i < len(recs):
            ts, payload = recs[i]
            payload += b"\0" * (-len(payload) % 4)
            delta = ts - prev
            ext = b""
            if delta >= 1 << 27:
                ext = struct.pack("<II", 30 | (delta & ((1 << 27) - 1)) << 5,
                                  delta >> 27)
                delta = 0
            ev = ext + struct.pack("<I", len(payload) // 4 | delta << 5) + payload
            if len(body) + len(ev) > page - 16:
                break
            body += ev
            prev = ts
            i += 1
        out += struct.pack("<QQ", base, len(body)) + body
        out += b"\0" * (page - 16 - len(body))
    return bytes(out)


def tracedat(args, evs):
    tpl = Template(open(args.template, "rb").read())
    page = tpl.page
    cpus = 1 + max(t[3] for t in THREADS)   # the guest's too: 3 vCPUs
    if args.kallsyms:
        ks = open(args.kallsyms, "rb").read()
        out = bytearray(tpl.before_kallsyms + struct.pack("<I", len(ks)) + ks +
                        tpl.printk)
    else:
        out = bytearray(tpl.head)
    cmdlines = "".join("%d %s\n" % (pid, comm) for pid, comm, _, _ in THREADS)
    out += struct.pack("<Q", len(cmdlines)) + cmdlines.encode()
    out += struct.pack("<I", cpus)
    out += b"options  \0"
    clocks = ["local", "global", "counter", "uptime", "perf", "mono",
              "mono_raw", "boot", "tai", "x86-tsc"]
    clk = " ".join("[%s]" % c if c == args.clock else c for c in clocks) + "\n\0"
    out += struct.pack("<HI", 4, len(clk)) + clk.encode()
    out += struct.pack("<HI", 8, 4) + struct.pack("<I", cpus)
    if args.uname:
        # UNAME (5) as trace-cmd record writes it: "SYSNAME NODENAME
        # RELEASE MACHINE", NUL-terminated
        body = args.uname.encode() + b"\0"
        out += struct.pack("<HI", 5, len(body)) + body
    if args.guest_names is not None:
        # GUEST options (13) as `trace-cmd record -A` writes them: name,
        # trace id, vCPU count, {vcpu, host pid} per vCPU; VM A, then B
        names = args.guest_names.split(",")
        for i, (name, pids) in enumerate(zip(names, [[1001, 1002], [2001]])):
            body = name.encode() + b"\0" + struct.pack(
                "<QI", 0x6775657374000a01 + i, len(pids))
            for v, pid in enumerate(pids):
                body += struct.pack("<II", v, pid)
            out += struct.pack("<HI", 13, len(body)) + body
    out += struct.pack("<H", 0)
    out += b"flyrecord\0"
    per_cpu = [[] for _ in range(cpus)]
    for ts, cpu, pid, name, fields in evs:
        per_cpu[cpu].append((ts, tpl.record(name, pid, fields)))
    blobs = [ring_pages(r, page) for r in per_cpu]
    clock = ("[%s]" % args.clock).encode()
    table_end = len(out) + 16 * cpus + 8 + len(clock)
    off = table_end + (-table_end % page)
    for b in blobs:
        out += struct.pack("<QQ", off, len(b))
        off += len(b)
    out += struct.pack("<Q", len(clock)) + clock
    out += b"\0" * (-len(out) % page)
    for b in blobs:
        out += b
    return bytes(out)


# ------------------------------------------------------------ kvmtrace

def kvmtrace(evs):
    out = bytearray(struct.pack("<I", 0x12345678))   # the magic word
    for ts, cpu, pid, name, f in evs:
        vcpu = [t[2] for t in THREADS if t[0] == pid][0]
        tgid = 1000 if pid < 2000 else 2000      # the VM's process
        if name == "kvm_exit":
            eid, data = 0x00010002, [f["exit_reason"], f["guest_rip"] & 0xffffffff,
                                     f["guest_rip"] >> 32]
        elif name == "kvm_entry":
            eid, data = 0x00010001, []
        elif name == "kvm_pio":
            eid, data = 0x00020006, [f["port"], f["size"]]
        elif name == "kvm_msr":
            eid, data = 0x0002000c, [f["ecx"], f["data"] & 0xffffffff,
                                     f["data"] >> 32]
        elif name == "kvm_inj_virq":
            eid, data = 0x00020002, [f["vector"]]
        else:
            continue
        hdr = eid | len(data) << 28 | 1 << 31
        out += struct.pack("<IIIQ", hdr, tgid, vcpu, ts)
        out += struct.pack("<%dI" % len(data), *data)
    return bytes(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=["tracedat", "kvmtrace"])
    ap.add_argument("rest", nargs="+")
    ap.add_argument("--clock", default="local")
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--exits", type=int, default=300)
    ap.add_argument("--kallsyms", help="the kallsyms section (a guest's)")
    ap.add_argument("--guest-names", metavar="A,B",
                    help="GUEST options naming VM A and VM B (a name may "
                    "be empty)")
    ap.add_argument("--uname", metavar="TEXT",
                    help="a UNAME option, e.g. 'Linux host-a 6.1.0 x86_64'")
    ap.add_argument("--no-events", action="store_true",
                    help="no records: a guest file for its kallsyms")
    args = ap.parse_args()
    if args.kind == "tracedat":
        args.template, syms = args.rest
    else:
        (syms,) = args.rest
    evs = [] if args.no_events else events(args, load_syms(syms))
    data = tracedat(args, evs) if args.kind == "tracedat" else kvmtrace(evs)
    sys.stdout.buffer.write(data)


if __name__ == "__main__":
    main()
