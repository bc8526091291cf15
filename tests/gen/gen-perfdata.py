#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-perfdata.py - write perf.data files no recording here gives.

usage: gen-perfdata.py [options] OUT

  --be          big-endian (every number, the tracing data, the raw records)
  --pipe        pipe layout (perf record -o -): 16-byte header, HEADER_ATTR,
                HEADER_TRACING_DATA records, no feature sections
  --zstd        the data records in PERF_RECORD_COMPRESSED (the zstd command)
  --zstd-split  with --zstd: each round in two COMPRESSED records, cut in
                the middle of a record (as perf record -z cuts one that
                wraps around its ring buffer)
  --zstd-nested with --zstd: the second round's block holds a COMPRESSED
                record of its own (a hostile file; perf never writes one)
  --single      one event (kvm_exit), no ids in the file and no
                PERF_SAMPLE_ID in its samples
  --pairs N     kvm_exit/kvm_entry pairs per vCPU (default 6)
  --cut N       drop the last N bytes (a file cut short)
  --no-names    no EVENT_DESC (names come from the tracing data)
  --cpu-clock   the events are cpu-clock (software) samples, no tracepoints
  --linux618    Linux 6.18's kvm_exit and kvm_entry formats (vcpu first,
                reasons by ISA through ?:, immediate_exit)
  --zoo         an event kvm_zoo whose print fmt uses printf's flags,
                widths and length modifiers on values of every size and
                sign (and __print_symbolic with a value it lacks)
  --unfinished  what perf record leaves when it is killed: data size 0,
                no feature sections (so no formats)
  --killed      the same with the feature bits perf record sets when it
                starts (as a real killed recording has them)
  --aux-past-end  after the second round, an AUXTRACE record whose payload
                (1 MiB) runs past the end of the data
  --tdata-past-end  with --pipe: the same with a HEADER_TRACING_DATA record
  --v1          perf.data version 1 (perf 3.x): magic PERFFILE, the byte
                order told by the attr size, 72-byte attrs (ABI 1)
  --ksym        an event kvm_ksym whose print fmt names kernel addresses
                (%pS, %ps), and a HEADER_BUILD_ID section naming the
                recording kernel (no running kernel's); its symbols:
                tests/fixtures/perf/gen-ksym.kallsyms
  --crash-format  kvm_exit's print fmt with one byte changed, on which
                libtraceevent 1.7 (and perf 6.1) crash while parsing it
  --div0        an event kvm_div whose print fmt divides by a field
                (libtraceevent evaluates it), each exit followed by one,
                CPU 0's of its middle pair dividing by 0 (SIGFPE)
  --renames     a COMM record renames each vCPU thread ("vcpu0-2")
                between the exit and the entry of every fifth pair from
                the third on (a thread's name changing inside a round)
  --late        in the third round, a kvm_exit of CPU 0 stamped before
                what the second round's FINISHED_ROUND let out (perf
                script prints it after later samples: a step back)

Two vCPU threads of a VM ("CPU 0/KVM" on CPU 0, "CPU 1/KVM" on CPU 1, named
by COMM records) exit with a few reasons (EXTERNAL_INTERRUPT, CPUID, HLT,
IO_INSTRUCTION, EPT_VIOLATION) and enter again after a time that depends
on the reason. The records of each CPU are written in rounds, CPU 1's
after CPU 0's, so the file is not in time order; a FINISHED_ROUND ends
each round, as perf record writes them. The event formats are those of
Linux 5.x (kvm_exit with isa, info1, info2; kvm_entry with vcpu_id, rip).

Layout: tools/perf/Documentation/perf.data-file-format.txt; the tracing
data is trace-cmd's (trace-cmd.dat(5), without options and CPU data).
"""
import argparse
import struct
import subprocess
import sys

# the fields every tracepoint starts with (the kernel's format files)
COMMON_FIELDS = """\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;
"""

KVM_EXIT = """name: kvm_exit
ID: 50
format:
""" + COMMON_FIELDS + """
\tfield:unsigned int exit_reason;\toffset:8;\tsize:4;\tsigned:0;
\tfield:unsigned long guest_rip;\toffset:16;\tsize:8;\tsigned:0;
\tfield:u32 isa;\toffset:24;\tsize:4;\tsigned:0;
\tfield:u64 info1;\toffset:32;\tsize:8;\tsigned:0;
\tfield:u64 info2;\toffset:40;\tsize:8;\tsigned:0;
\tfield:unsigned int vcpu_id;\toffset:48;\tsize:4;\tsigned:0;

print fmt: "reason %s rip 0x%lx info %llx %llx", __print_symbolic(REC->exit_reason, { 1, "EXTERNAL_INTERRUPT" }, { 10, "CPUID" }, { 12, "HLT" }, { 30, "IO_INSTRUCTION" }, { 48, "EPT_VIOLATION" }), REC->guest_rip, REC->info1, REC->info2
"""

KVM_ENTRY = """name: kvm_entry
ID: 51
format:
""" + COMMON_FIELDS + """
\tfield:unsigned int vcpu_id;\toffset:8;\tsize:4;\tsigned:0;
\tfield:unsigned long rip;\toffset:16;\tsize:8;\tsigned:0;

print fmt: "vcpu %u, rip 0x%lx", REC->vcpu_id, REC->rip
"""

# the formats of Linux 6.18 (x86, this machine's tracefs), ids as above
KVM_EXIT_618 = """name: kvm_exit
ID: 50
format:
""" + COMMON_FIELDS + """
\tfield:unsigned int exit_reason;\toffset:8;\tsize:4;\tsigned:0;
\tfield:unsigned long guest_rip;\toffset:16;\tsize:8;\tsigned:0;
\tfield:u32 isa;\toffset:24;\tsize:4;\tsigned:0;
\tfield:u64 info1;\toffset:32;\tsize:8;\tsigned:0;
\tfield:u64 info2;\toffset:40;\tsize:8;\tsigned:0;
\tfield:u32 intr_info;\toffset:48;\tsize:4;\tsigned:0;
\tfield:u32 error_code;\toffset:52;\tsize:4;\tsigned:0;
\tfield:unsigned int vcpu_id;\toffset:56;\tsize:4;\tsigned:0;
\tfield:u64 requests;\toffset:64;\tsize:8;\tsigned:0;

print fmt: "vcpu %u reason %s%s%s rip 0x%lx info1 0x%016llx info2 0x%016llx intr_info 0x%08x error_code 0x%08x requests 0x%016llx", REC->vcpu_id, (REC->isa == 1) ? __print_symbolic(REC->exit_reason & 0xffff, { 0, "EXCEPTION_NMI" }, { 1, "EXTERNAL_INTERRUPT" }, { 2, "TRIPLE_FAULT" }, { 3, "INIT_SIGNAL" }, { 4, "SIPI_SIGNAL" }, { 7, "INTERRUPT_WINDOW" }, { 8, "NMI_WINDOW" }, { 9, "TASK_SWITCH" }, { 10, "CPUID" }, { 12, "HLT" }, { 13, "INVD" }, { 14, "INVLPG" }, { 15, "RDPMC" }, { 16, "RDTSC" }, { 18, "VMCALL" }, { 19, "VMCLEAR" }, { 20, "VMLAUNCH" }, { 21, "VMPTRLD" }, { 22, "VMPTRST" }, { 23, "VMREAD" }, { 24, "VMRESUME" }, { 25, "VMWRITE" }, { 26, "VMOFF" }, { 27, "VMON" }, { 28, "CR_ACCESS" }, { 29, "DR_ACCESS" }, { 30, "IO_INSTRUCTION" }, { 31, "MSR_READ" }, { 32, "MSR_WRITE" }, { 33, "INVALID_STATE" }, { 34, "MSR_LOAD_FAIL" }, { 36, "MWAIT_INSTRUCTION" }, { 37, "MONITOR_TRAP_FLAG" }, { 39, "MONITOR_INSTRUCTION" }, { 40, "PAUSE_INSTRUCTION" }, { 41, "MCE_DURING_VMENTRY" }, { 43, "TPR_BELOW_THRESHOLD" }, { 44, "APIC_ACCESS" }, { 45, "EOI_INDUCED" }, { 46, "GDTR_IDTR" }, { 47, "LDTR_TR" }, { 48, "EPT_VIOLATION" }, { 49, "EPT_MISCONFIG" }, { 50, "INVEPT" }, { 51, "RDTSCP" }, { 52, "PREEMPTION_TIMER" }, { 53, "INVVPID" }, { 54, "WBINVD" }, { 55, "XSETBV" }, { 56, "APIC_WRITE" }, { 57, "RDRAND" }, { 58, "INVPCID" }, { 59, "VMFUNC" }, { 60, "ENCLS" }, { 61, "RDSEED" }, { 62, "PML_FULL" }, { 63, "XSAVES" }, { 64, "XRSTORS" }, { 67, "UMWAIT" }, { 68, "TPAUSE" }, { 74, "BUS_LOCK" }, { 75, "NOTIFY" }, { 77, "TDCALL" }, { 84, "MSR_READ_IMM" }, { 85, "MSR_WRITE_IMM" }) : __print_symbolic(REC->exit_reason, { 0x000, "read_cr0" }, { 0x002, "read_cr2" }, { 0x003, "read_cr3" }, { 0x004, "read_cr4" }, { 0x008, "read_cr8" }, { 0x010, "write_cr0" }, { 0x012, "write_cr2" }, { 0x013, "write_cr3" }, { 0x014, "write_cr4" }, { 0x018, "write_cr8" }, { 0x020, "read_dr0" }, { 0x021, "read_dr1" }, { 0x022, "read_dr2" }, { 0x023, "read_dr3" }, { 0x024, "read_dr4" }, { 0x025, "read_dr5" }, { 0x026, "read_dr6" }, { 0x027, "read_dr7" }, { 0x030, "write_dr0" }, { 0x031, "write_dr1" }, { 0x032, "write_dr2" }, { 0x033, "write_dr3" }, { 0x034, "write_dr4" }, { 0x035, "write_dr5" }, { 0x036, "write_dr6" }, { 0x037, "write_dr7" }, { 0x040 + 0, "DE excp" }, { 0x040 + 1, "DB excp" }, { 0x040 + 3, "BP excp" }, { 0x040 + 4, "OF excp" }, { 0x040 + 5, "BR excp" }, { 0x040 + 6, "UD excp" }, { 0x040 + 7, "NM excp" }, { 0x040 + 8, "DF excp" }, { 0x040 + 10, "TS excp" }, { 0x040 + 11, "NP excp" }, { 0x040 + 12, "SS excp" }, { 0x040 + 13, "GP excp" }, { 0x040 + 14, "PF excp" }, { 0x040 + 16, "MF excp" }, { 0x040 + 17, "AC excp" }, { 0x040 + 18, "MC excp" }, { 0x040 + 19, "XF excp" }, { 0x060, "interrupt" }, { 0x061, "nmi" }, { 0x062, "smi" }, { 0x063, "init" }, { 0x064, "vintr" }, { 0x065, "cr0_sel_write" }, { 0x066, "read_idtr" }, { 0x067, "read_gdtr" }, { 0x068, "read_ldtr" }, { 0x069, "read_rt" }, { 0x06a, "write_idtr" }, { 0x06b, "write_gdtr" }, { 0x06c, "write_ldtr" }, { 0x06d, "write_rt" }, { 0x06e, "rdtsc" }, { 0x06f, "rdpmc" }, { 0x070, "pushf" }, { 0x071, "popf" }, { 0x072, "cpuid" }, { 0x073, "rsm" }, { 0x074, "iret" }, { 0x075, "swint" }, { 0x076, "invd" }, { 0x077, "pause" }, { 0x078, "hlt" }, { 0x079, "invlpg" }, { 0x07a, "invlpga" }, { 0x07b, "io" }, { 0x07c, "msr" }, { 0x07d, "task_switch" }, { 0x07e, "ferr_freeze" }, { 0x07f, "shutdown" }, { 0x080, "vmrun" }, { 0x081, "hypercall" }, { 0x082, "vmload" }, { 0x083, "vmsave" }, { 0x084, "stgi" }, { 0x085, "clgi" }, { 0x086, "skinit" }, { 0x087, "rdtscp" }, { 0x088, "icebp" }, { 0x089, "wbinvd" }, { 0x08a, "monitor" }, { 0x08b, "mwait" }, { 0x08d, "xsetbv" }, { 0x08f, "write_efer_trap" }, { 0x090, "write_cr0_trap" }, { 0x094, "write_cr4_trap" }, { 0x098, "write_cr8_trap" }, { 0x0a2, "invpcid" }, { 0x0a5, "buslock" }, { 0x0a6, "idle-halt" }, { 0x400, "npf" }, { 0x401, "avic_incomplete_ipi" }, { 0x402, "avic_unaccelerated_access" }, { 0x403, "vmgexit" }, { 0x80000001, "vmgexit_mmio_read" }, { 0x80000002, "vmgexit_mmio_write" }, { 0x80000003, "vmgexit_nmi_complete" }, { 0x80000004, "vmgexit_ap_hlt_loop" }, { 0x80000005, "vmgexit_ap_jump_table" }, { 0x80000010, "vmgexit_page_state_change" }, { 0x80000011, "vmgexit_guest_request" }, { 0x80000012, "vmgexit_ext_guest_request" }, { 0x80000013, "vmgexit_ap_creation" }, { 0x8000fffd, "vmgexit_hypervisor_feature" }, { -1, "invalid_guest_state" }), (REC->isa == 1 && REC->exit_reason & ~0xffff) ? " " : "", (REC->isa == 1) ? __print_flags(REC->exit_reason & ~0xffff, " ", { 0x80000000, "FAILED_VMENTRY" }) : "", REC->guest_rip, REC->info1, REC->info2, REC->intr_info, REC->error_code, REC->requests
"""

KVM_ENTRY_618 = """name: kvm_entry
ID: 51
format:
""" + COMMON_FIELDS + """
\tfield:unsigned int vcpu_id;\toffset:8;\tsize:4;\tsigned:0;
\tfield:unsigned long rip;\toffset:16;\tsize:8;\tsigned:0;
\tfield:bool immediate_exit;\toffset:24;\tsize:1;\tsigned:0;
\tfield:u32 intr_info;\toffset:28;\tsize:4;\tsigned:0;
\tfield:u32 error_code;\toffset:32;\tsize:4;\tsigned:0;

print fmt: "vcpu %u, rip 0x%lx intr_info 0x%08x error_code 0x%08x%s", REC->vcpu_id, REC->rip, REC->intr_info, REC->error_code, REC->immediate_exit ? "[immediate exit]" : ""
"""

# printf's flags, widths and length modifiers, for the hand-made text
KVM_ZOO = """name: kvm_zoo
ID: 52
format:
""" + COMMON_FIELDS + """
\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;
\tfield:unsigned int b;\toffset:12;\tsize:4;\tsigned:0;
\tfield:u16 c;\toffset:16;\tsize:2;\tsigned:0;
\tfield:u8 d;\toffset:18;\tsize:1;\tsigned:0;
\tfield:s8 g;\toffset:19;\tsize:1;\tsigned:1;
\tfield:s16 f;\toffset:20;\tsize:2;\tsigned:1;
\tfield:u16 pad;\toffset:22;\tsize:2;\tsigned:0;
\tfield:s64 h;\toffset:24;\tsize:8;\tsigned:1;
\tfield:u64 i;\toffset:32;\tsize:8;\tsigned:0;
\tfield:char name[8];\toffset:40;\tsize:8;\tsigned:1;
\tfield:unsigned int kind;\toffset:48;\tsize:4;\tsigned:0;

print fmt: "a=%d b=%u c=%x d=%#x e=%08x f=%-6d| g=%5u h=%lld i=%llu j=%lx k=%#llx l=%hd m=%hhu n=%hx o=%s p=%-8s| q=%10s r=%X s=%#08x t=%zu z=%#x g2=%d %% u=%s v=%s w=%d x=%s y=%s", REC->a, REC->b, REC->c, REC->d, REC->b, REC->f, REC->g, REC->h, REC->i, REC->i, REC->h, REC->a, REC->b, REC->h, REC->name, __print_symbolic(REC->kind, { 0, "zero" }, { 1, "one" }, { 0x10, "sixteen" }, { 1, "uno" }), __print_symbolic(REC->kind, { 0, "zero" }, { 1, "one" }, { 0x10, "sixteen" }), REC->b, REC->c, REC->i, REC->pad, REC->g, (REC->kind == 1) ? "yes" : "no", __print_flags(REC->b & 0xff, "|", { 1, "A" }, { 2, "B" }, { 0x10, "C" }), REC->c + REC->d * 2 - (REC->b >> 28), __print_symbolic(REC->kind, { -1, "minus" }, { 5, "five" }), (REC->kind == 16) ? __print_symbolic(REC->d & 3, { 0, "d0" }, { 1, "d1" }) : __print_flags(REC->d, ",", { 0, "none" }, { 4, "four" })
"""


# a quotient in the print fmt: libtraceevent divides by a field, and a
# sample whose divisor is 0 crashes it (SIGFPE), as perf script crashes
KVM_DIV = """name: kvm_div
ID: 54
format:
""" + COMMON_FIELDS + """
\tfield:unsigned int a;\toffset:8;\tsize:4;\tsigned:0;
\tfield:unsigned int b;\toffset:12;\tsize:4;\tsigned:0;

print fmt: "a=%u q=%u", REC->a, REC->a / REC->b
"""


def raw_div(w, pid, a, b):
    return w.p('HBBi', 54, 0, 0, pid) + w.p('II', a, b)


# kernel addresses printed by name (%pS, %ps), as kmem:kmalloc's call_site
KVM_KSYM = """name: kvm_ksym
ID: 53
format:
""" + COMMON_FIELDS + """
\tfield:unsigned long call_site;\toffset:8;\tsize:8;\tsigned:0;
\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;

print fmt: "call_site=%pS function=%ps", (void *)REC->call_site, REC->function
"""

# addresses around the symbols of tests/fixtures/perf/gen-ksym.kallsyms
KSYM_ADDRS = [0xffffffff81000000, 0xffffffff81000010, 0xffffffff810000ff,
              0xffffffff81000100, 0xffffffff81000180, 0xffffffff81000200,
              0xffffffff81000300, 0xffffffff81000404, 0xffffffff81001000,
              0xffffffffc0001000, 0xffffffffc0001010, 0xffffffff80ffffff,
              0xffffffff81000500, 0xffffffffc0003000]
# the recording kernel's build-id (not any running one's)
KSYM_BUILD_ID = bytes(range(0x40, 0x54))


def raw_ksym(w, pid, k):
    a = KSYM_ADDRS[k % len(KSYM_ADDRS)]
    b = KSYM_ADDRS[(k + 5) % len(KSYM_ADDRS)]
    return w.p('HBBi', 53, 0, 0, pid) + w.p('QQ', a, b)


def build_id_section(w):
    name = b'[kernel.kallsyms]\0'
    name += bytes(-len(name) % 64)
    body = w.p('i', -1) + KSYM_BUILD_ID + bytes([20, 0, 0, 0]) + name
    # misc: PERF_RECORD_MISC_KERNEL, PERF_RECORD_MISC_BUILD_ID_SIZE
    return w.p('IHH', 67, 1 | 1 << 15, 8 + len(body)) + body


def raw_zoo(w, pid, k):
    a = (k * 7919 + 3) % 2**31 * (-1 if k % 3 else 1)
    b = (k * 2654435761) % 2**32
    c = (k * 40503) % 2**16
    d = (k * 37) % 256
    g = (k * 53) % 256 - 128
    f = -k * 97 if k % 2 else k * 97
    h = -(k * 1234567891011) if k % 2 else k * 1234567891011
    i = (k * 0x9e3779b97f4a7c15) % 2**64
    name = (b'qemu%d' % k)[:8]
    r = w.p('HBBi', 52, 0, 0, pid) + w.p('iIHBbhH', a, b, c, d, g, f, 0)
    r += w.p('qQ', h, i) + name + bytes(8 - len(name))
    return r + w.p('I', [0, 1, 16, 5][k % 4]) + bytes(4)


HEADER_PAGE = """\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;
\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;
\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;
\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;
"""

# sample_type bits
IP, TID, TIME, ID, CPU, PERIOD, RAW = 1, 2, 4, 64, 128, 256, 1024
REASONS = [(1, 900), (10, 1500), (12, 40000), (30, 6000), (48, 12000)]


class W:
    def __init__(self, be):
        self.e = '>' if be else '<'
        self.be = be

    def p(self, fmt, *v):
        return struct.pack(self.e + fmt, *v)


def tracing_data(w, events, crash=False):
    b = b'\x17\x08\x44tracing' + b'0.6\0'
    b += bytes([1 if w.be else 0, 8]) + w.p('I', 4096)
    hp = HEADER_PAGE.encode()
    b += b'header_page\0' + w.p('Q', len(hp)) + hp
    he = b'# compressed entry header\n'
    b += b'header_event\0' + w.p('Q', len(he)) + he
    b += w.p('I', 0)                        # ftrace formats
    b += w.p('I', 1) + b'kvm\0' + w.p('I', len(events))
    for fmt in events:
        f = fmt.encode()
        if crash:
            f = f.replace(b'(REC->exit_reason,', b'(REC->exit_reaso\x90,')
        b += w.p('Q', len(f)) + f
    b += w.p('I', 0)                        # kallsyms
    b += w.p('I', 0)                        # printk formats
    b += w.p('Q', 0)                        # saved cmdlines
    return b


def attr(w, config, sample_type, ptype=2, size=128):
    # type, size, config, period, sample_type, read_format, flags, ...
    flags = 1 << 18 | 1 << 9 | 1 << 1       # sample_id_all, comm, inherit
    if w.be:   # a big-endian compiler allocates bit fields from the top
        flags = int('{:064b}'.format(flags)[::-1], 2)
    a = w.p('IIQQQQQ', ptype, size, config, 1, sample_type, 0, flags)
    return a + bytes(size - len(a))


def sample_id(w, st, pid, tid, ts, eid, cpu):
    b = b''
    if st & TID:
        b += w.p('II', pid, tid)
    if st & TIME:
        b += w.p('Q', ts)
    if st & ID:
        b += w.p('Q', eid)
    if st & CPU:
        b += w.p('II', cpu, 0)
    return b


def record(w, rtype, body, misc=0):
    return w.p('IHH', rtype, misc, 8 + len(body)) + body


def raw_exit(w, pid, reason, rip, vcpu):
    r = w.p('HBBi', 50, 0, 0, pid) + w.p('I', reason) + bytes(4)
    r += w.p('Q', rip) + w.p('I', 1) + bytes(4)
    r += w.p('QQ', 0x1000 + reason, 0) + w.p('I', vcpu) + bytes(4)
    return r


def raw_exit_618(w, pid, reason, rip, vcpu):
    r = w.p('HBBi', 50, 0, 0, pid) + w.p('I', reason) + bytes(4)
    r += w.p('Q', rip) + w.p('I', 1) + bytes(4)
    r += w.p('QQ', 0x1000 + reason, 7) + w.p('II', 0x80000b0e, 3)
    return r + w.p('I', vcpu) + bytes(4) + w.p('Q', 0)


def raw_entry_618(w, pid, vcpu, rip):
    return w.p('HBBi', 51, 0, 0, pid) + w.p('I', vcpu) + bytes(4) + \
        w.p('Q', rip) + bytes([vcpu & 1]) + bytes(3) + w.p('II', 5, 6) + \
        bytes(4)


def raw_entry(w, pid, vcpu, rip):
    return w.p('HBBi', 51, 0, 0, pid) + w.p('I', vcpu) + bytes(4) + \
        w.p('Q', rip)


def sample(w, st, pid, tid, ts, eid, cpu, raw):
    b = b''
    if st & IP:
        b += w.p('Q', 0xffffffff81000000)
    b += sample_id(w, st & (TID | TIME | ID), pid, tid, ts, eid, cpu)
    if st & CPU:
        b += w.p('II', cpu, 0)
    if st & PERIOD:
        b += w.p('Q', 1)
    rb = b''
    if st & RAW:
        rb = w.p('I', len(raw)) + raw
        rb += bytes(-len(rb) % 8)
    return record(w, 9, b + rb)


def compressed(w):
    # version, type (1: zstd), level, ratio, mmap_len (the most a
    # COMPRESSED record inflates to)
    return w.p('IIIII', 1, 1, 3, 4, 528384) + bytes(4)


def build(args):
    w = W(args.be)
    single = args.single
    st = IP | TID | TIME | CPU | PERIOD | RAW | (0 if single else ID)
    ptype = 2
    if args.cpu_clock:
        st &= ~RAW
        ptype = 1
    events = [KVM_EXIT] if single else [KVM_EXIT, KVM_ENTRY]
    rexit, rentry = raw_exit, raw_entry
    if args.linux618:
        events = [KVM_EXIT_618] if single else [KVM_EXIT_618, KVM_ENTRY_618]
        rexit, rentry = raw_exit_618, raw_entry_618
    if args.zoo:
        events = events + [KVM_ZOO]
    if args.ksym:
        events = events + [KVM_KSYM]
    if args.div0:
        events = events + [KVM_DIV]
    ids = {50: [11, 12], 51: [21, 22], 52: [31, 32], 53: [41, 42],
           54: [51, 52]}
    # one event: no ids in the file at all (perf 4.9's uprobe files)
    file_ids = {c: [] for c in ids} if single else ids
    names = {50: 'kvm:kvm_exit', 51: 'kvm:kvm_entry', 52: 'kvm:kvm_zoo',
             53: 'kvm:kvm_ksym', 54: 'kvm:kvm_div'}
    if args.cpu_clock:
        names = {50: 'cpu-clock', 51: 'cpu-clock:u'}
    pid = 4242
    t0 = 5000 * 10**9 + 123456789
    # per CPU: the records of its vCPU thread, in its own time order
    cpus = []
    for cpu in (0, 1):
        tid = pid + 1 + cpu
        ts = t0 + 1000 * cpu
        recs = []
        comm = ('CPU %d/KVM' % cpu).encode() + b'\0'
        comm += bytes(-len(comm) % 8)
        recs.append((ts, record(w, 3, w.p('II', pid, tid) + comm +
                                sample_id(w, st, pid, tid, ts, ids[50][cpu],
                                          cpu))))
        ts += 5000
        for i in range(args.pairs):
            reason, cost = REASONS[(i + 2 * cpu) % len(REASONS)]
            rip = 0xffffffff81001000 + 0x10 * i
            recs.append((ts, sample(w, st, pid, tid, ts, ids[50][cpu], cpu,
                                    rexit(w, tid, reason, rip, cpu))))
            ts += cost + 7 * i
            if args.div0:
                # CPU 0's sample of its middle pair divides by 0
                b = 0 if cpu == 0 and i == args.pairs // 2 else i + 1
                recs.append((ts, sample(w, st, pid, tid, ts, ids[54][cpu],
                                        cpu, raw_div(w, tid, 1000 + i, b))))
                ts += 3
            if args.renames and i % 5 == 2:
                # the thread renamed between its exit and its entry
                c = ('vcpu%d-%d' % (cpu, i)).encode() + b'\0'
                c += bytes(-len(c) % 8)
                recs.append((ts, record(w, 3, w.p('II', pid, tid) + c +
                                        sample_id(w, st, pid, tid, ts - 1,
                                                  ids[50][cpu], cpu))))
            if not single:
                recs.append((ts, sample(w, st, pid, tid, ts, ids[51][cpu],
                                        cpu, rentry(w, tid, cpu, rip))))
            ts += 2000 + 300 * cpu
            if args.zoo:
                k = 2 * i + cpu
                recs.append((ts, sample(w, st, pid, tid, ts, ids[52][cpu],
                                        cpu, raw_zoo(w, tid, k))))
                ts += 10
            if args.ksym:
                k = 2 * i + cpu
                recs.append((ts, sample(w, st, pid, tid, ts, ids[53][cpu],
                                        cpu, raw_ksym(w, tid, k))))
                ts += 10
        cpus.append(recs)
    if args.ksym:
        # the kernel's map, as perf record synthesizes it (perf names
        # kernel addresses only inside it): pid -1, [_text, +16 MiB),
        # pgoff the address of _text; and the kvm module's
        maps = [(0xffffffff81000000, 16 << 20, 0xffffffff81000000,
                 b'[kernel.kallsyms]_text'),
                (0xffffffffc0001000, 0x2000, 0,
                 b'/lib/modules/gen/kernel/arch/x86/kvm/kvm.ko')]
        for start, size, pgoff, fname in maps:
            fname += bytes(8 - len(fname) % 8)
            cpus[0].insert(0, (t0, record(w, 1, w.p('IIQQQ', 0xffffffff, 0,
                                                    start, size, pgoff) +
                                          fname + sample_id(w, st, 0xffffffff,
                                                            0, t0, ids[50][0],
                                                            0), misc=1)))
    # rounds: a few records of CPU 0, then of CPU 1, then FINISHED_ROUND
    data = []
    per = 3
    n = max(len(c) for c in cpus)
    for start in range(0, n, per):
        chunk = b''
        for c in cpus:
            chunk += b''.join(r for _, r in c[start:start + per])
        data.append(chunk)
    if args.late:
        # a sample of CPU 0's thread stamped before the times that the
        # second round's FINISHED_ROUND let out: perf counts it out of
        # order, queues it all the same and prints it at the next flush,
        # after later samples
        tid = pid + 1
        late = t0 + 2500
        data[2] += sample(w, st, pid, tid, late, ids[50][0], 0,
                          rexit(w, tid, 12, 0xffffffff81000ff0, 0))
    fin = record(w, 68, b'')
    def zrec(b):
        z = subprocess.run(['zstd', '-q', '-c', '-3'], input=b,
                           stdout=subprocess.PIPE, check=True).stdout
        # no padding: perf inflates the whole payload
        return record(w, 81, z)
    if args.zstd:
        out = []
        for i, chunk in enumerate(data):
            if args.zstd_nested and i == 1:
                # after the round's own records: round 0's again
                chunk = chunk + zrec(data[0] * ((3 << 19) // len(data[0])))
            if args.zstd_split:
                # 13 bytes into the record that holds the middle byte
                at, mid = 0, len(chunk) // 2
                while True:
                    n = struct.unpack_from(w.e + 'H', chunk, at + 6)[0]
                    if at + n > mid:
                        break
                    at += n
                cut = at + 13
                last = args.zstd_lose_tail and i == len(data) - 1
                out.append(zrec(chunk[:cut]) +
                           (b'' if last else zrec(chunk[cut:])))
            else:
                out.append(zrec(chunk))
        data = out
    body = b''.join(chunk + fin for chunk in data)
    if args.aux_past_end or args.tdata_past_end:
        at = len(data[0] + fin + data[1] + fin)
        if args.aux_past_end:
            # size, offset, reference, idx, tid, cpu, reserved
            past = record(w, 71, w.p('QQQIIII', 1 << 20, 0, 0, 0, 0, 0, 0))
        else:
            past = record(w, 66, w.p('II', 1 << 20, 0))
        body = body[:at] + past + body[at:]
    configs = [50] if single else [50, 51]
    if args.zoo:
        configs.append(52)
    if args.ksym:
        configs.append(53)
    if args.div0:
        configs.append(54)
    tdata = tracing_data(w, events, args.crash_format)
    if args.pipe:
        f = b'PERFILE2' if not args.be else b'2ELIFREP'
        f += w.p('Q', 16)
        for c in configs:
            f += record(w, 64, attr(w, c, st, ptype) +
                        b''.join(w.p('Q', i) for i in file_ids[c]))
        if args.zstd:
            f += record(w, 80, w.p('Q', 27) + compressed(w))
        if args.hostname:
            # HEADER_FEATURE (80) HOSTNAME (3), as perf record -o - writes it
            name = args.hostname.encode() + b'\0'
            name += bytes(-len(name) % 64)
            f += record(w, 80, w.p('Q', 3) + w.p('I', len(name)) + name +
                        bytes(4))
        tpad = tdata + bytes(-len(tdata) % 8)
        f += record(w, 66, w.p('II', len(tpad), 0)) + tpad
        return f + body
    # normal file: header, attrs, ids, data, feature table, features
    hdr_size = 104
    asz = 72 if args.v1 else 128
    attr_size = asz + 16
    attrs_off = hdr_size
    ids_off = attrs_off + attr_size * len(configs)
    idblob = b''
    attrs = b''
    for c in configs:
        attrs += attr(w, c, st, ptype, asz) + w.p('QQ', ids_off + len(idblob),
                                             8 * len(file_ids[c]))
        idblob += b''.join(w.p('Q', i) for i in file_ids[c])
    data_off = ids_off + len(idblob)
    feat_off = data_off + len(body)
    feats = []
    if not args.cpu_clock:
        feats.append(tdata)                        # bit 1: TRACING_DATA
    # bit 2: HOSTNAME; perf trusts the feature bits of a file of the
    # other byte order only when this one is set
    # (bit 2 is BUILD_ID, bit 3 HOSTNAME: --ksym writes them right; the
    # other files keep the bytes they were made with)
    # with --ksym the name is HOSTNAME's (bit 3), --hostname's if given
    host = ((args.hostname if args.ksym and args.hostname else
             'gen-perfdata').encode() + b'\0')
    host += bytes(-len(host) % 64)
    if args.ksym:
        feats.append(build_id_section(w))
    feats.append(w.p('I', len(host)) + host)
    if args.hostname and not args.ksym:
        # bit 3: HOSTNAME, a perf_header_string as perf record writes it
        name = args.hostname.encode() + b'\0'
        name += bytes(-len(name) % 64)
        feats.append(w.p('I', len(name)) + name)
    if not args.no_names:
        desc = w.p('II', len(configs), asz)
        for c in configs:
            name = names[c].encode() + b'\0'
            name += bytes(-len(name) % 64)
            desc += attr(w, c, st, ptype, asz) + w.p('I', len(file_ids[c]))
            desc += w.p('I', len(name)) + name
            desc += b''.join(w.p('Q', i) for i in file_ids[c])
        feats.append(desc)                         # bit 12: EVENT_DESC
    if args.zstd:
        feats.append(compressed(w))                # bit 27: COMPRESSED
    bits = 1 << 2 | (0 if args.no_names else 1 << 12)
    bits |= 1 << 3 if args.ksym or args.hostname else 0
    bits |= 0 if args.cpu_clock else 1 << 1
    bits |= 1 << 27 if args.zstd else 0
    table = b''
    at = feat_off + 16 * len(feats)
    blobs = b''
    for fb in feats:
        table += w.p('QQ', at, len(fb))
        at += len(fb)
        blobs += fb
    h = (b'PERFILE2' if not args.be else b'2ELIFREP')
    if args.v1:
        h = b'PERFFILE'     # whatever the byte order
    h += w.p('QQ', hdr_size, attr_size)
    h += w.p('QQ', attrs_off, len(attrs))
    if args.unfinished or args.killed:
        # as perf record leaves a file when it is killed: the header
        # written at the start, data, no data size, no features
        bits = bits if args.killed else 0
        h = (b'PERFILE2' if not args.be else b'2ELIFREP')
        h += w.p('QQ', hdr_size, attr_size)
        h += w.p('QQ', attrs_off, len(attrs))
        h += w.p('QQ', data_off, 0)
        h += w.p('QQ', 0, 0)
        h += w.p('QQQQ', bits, 0, 0, 0)
        return h + attrs + idblob + body
    h += w.p('QQ', data_off, len(body))
    h += w.p('QQ', 0, 0)
    h += w.p('QQQQ', bits, 0, 0, 0)
    assert len(h) == hdr_size
    return h + attrs + idblob + body + table + blobs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--be', action='store_true')
    ap.add_argument('--pipe', action='store_true')
    ap.add_argument('--zstd', action='store_true')
    ap.add_argument('--zstd-split', action='store_true')
    ap.add_argument('--zstd-nested', action='store_true')
    ap.add_argument('--zstd-lose-tail', action='store_true')
    ap.add_argument('--single', action='store_true')
    ap.add_argument('--no-names', action='store_true')
    ap.add_argument('--cpu-clock', action='store_true')
    ap.add_argument('--crash-format', action='store_true')
    ap.add_argument('--v1', action='store_true')
    ap.add_argument('--ksym', action='store_true')
    ap.add_argument('--linux618', action='store_true')
    ap.add_argument('--zoo', action='store_true')
    ap.add_argument('--unfinished', action='store_true')
    ap.add_argument('--killed', action='store_true')
    ap.add_argument('--aux-past-end', action='store_true')
    ap.add_argument('--tdata-past-end', action='store_true')
    ap.add_argument('--pairs', type=int, default=6)
    ap.add_argument('--renames', action='store_true')
    ap.add_argument('--div0', action='store_true')
    ap.add_argument('--late', action='store_true')
    ap.add_argument('--cut', type=int, default=0)
    ap.add_argument('--hostname', help='a HOSTNAME feature')
    ap.add_argument('out')
    args = ap.parse_args()
    f = build(args)
    if args.cut:
        f = f[:-args.cut]
    with open(args.out, 'wb') as o:
        o.write(f)
    return 0


if __name__ == '__main__':
    sys.exit(main())
