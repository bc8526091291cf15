#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-tracedat-pfmt.py > FILE.dat: a version 6 trace.dat whose events
print through their print fmt (no plugin), the text tracecmd-pfmt.c makes
from the print fmt compiled, with the values where that text can go
wrong: the kvm events a guest making exits fires (kvm_fpu, kvm_pio,
kvm_userspace_exit, kvm_entry, formats as this machine's kernel 6.18 has
them), each field through 0, 1, the sign bits and all ones; and events of
our own ("lab" system) that take every conversion, operator, symbol and
flag form the compiled path knows, and some it does not (a typecast, %c,
'#', a shift of 64, a symbol named by a word), which go through
tep_print_event() as before.

The reference is `trace-cmd report` of the file (trace-cmd 3.1.6,
libtraceevent 1.7.1), kept beside it:

  python3 tests/gen/gen-tracedat-pfmt.py >tests/fixtures/tracedat/pfmt.dat
  trace-cmd report -i tests/fixtures/tracedat/pfmt.dat \\
    >tests/fixtures/tracedat/pfmt.dat.report

The writer of the file is gen-tracedat-classes.py's.
"""
import importlib.util
import os
import struct
import sys

_spec = importlib.util.spec_from_file_location(
    "classes", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "gen-tracedat-classes.py"))
classes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(classes)
fmt, common, tracedat, T0 = (classes.fmt, classes.common, classes.tracedat,
                             classes.T0)

# this machine's kvm formats (/sys/kernel/tracing/events/kvm/*/format)
KVM_FPU = fmt("kvm_fpu", 37, [("u32 load", 8, 4, 0)],
              '"%s", __print_symbolic(REC->load, {0, "unload"}, {1, "load"})')
KVM_PIO = fmt("kvm_pio", 110, [
    ("unsigned int rw", 8, 4, 0), ("unsigned int port", 12, 4, 0),
    ("unsigned int size", 16, 4, 0), ("unsigned int count", 20, 4, 0),
    ("unsigned int val", 24, 4, 0)],
    '"pio_%s at 0x%x size %d count %d val 0x%x %s", REC->rw ? "write" : '
    '"read", REC->port, REC->size, REC->count, REC->val, REC->count > 1 ? '
    '"(...)" : ""')
EXITS = ["UNKNOWN", "EXCEPTION", "IO", "HYPERCALL", "DEBUG", "HLT", "MMIO",
         "IRQ_WINDOW_OPEN", "SHUTDOWN", "FAIL_ENTRY", "INTR", "SET_TPR",
         "TPR_ACCESS", "S390_SIEIC", "S390_RESET", "DCR", "NMI",
         "INTERNAL_ERROR", "OSI", "PAPR_HCALL", "S390_UCONTROL", "WATCHDOG",
         "S390_TSCH", "EPR", "SYSTEM_EVENT", "S390_STSI", "IOAPIC_EOI",
         "HYPERV", "ARM_NISV", "X86_RDMSR", "X86_WRMSR"]
KVM_USERSPACE_EXIT = fmt("kvm_userspace_exit", 42, [
    ("__u32 reason", 8, 4, 0), ("int errno", 12, 4, 1)],
    '"reason %s (%d)", REC->errno < 0 ? (REC->errno == -4 ? "restart" : '
    '"error") : __print_symbolic(REC->reason, ' +
    ", ".join('{ %d, "KVM_EXIT_" "%s" }' % (i, n)
              for i, n in enumerate(EXITS)) +
    '), REC->errno < 0 ? -REC->errno : REC->reason')
KVM_ENTRY = fmt("kvm_entry", 115, [
    ("unsigned int vcpu_id", 8, 4, 0), ("unsigned long rip", 16, 8, 0),
    ("bool immediate_exit", 24, 1, 0), ("u32 intr_info", 28, 4, 0),
    ("u32 error_code", 32, 4, 0)],
    '"vcpu %u, rip 0x%lx intr_info 0x%08x error_code 0x%08x%s", '
    'REC->vcpu_id, REC->rip, REC->intr_info, REC->error_code, '
    'REC->immediate_exit ? "[immediate exit]" : ""')

# lab:nums: every number conversion on fields of each size and sign
NUMS_FIELDS = [("s8 a", 8, 1, 1), ("u16 b", 10, 2, 0), ("s32 c", 12, 4, 1),
               ("u32 d", 16, 4, 0), ("s64 e", 24, 8, 1), ("u64 f", 32, 8, 0)]
NUMS = fmt("nums", 901, NUMS_FIELDS,
           '"a=%d hh=%hhd hhu=%hhu hhx=%hhx b=%hd hu=%hu hx=%hx bd=%d '
           'c=%d cu=%u cx=%08x cX=%X ci=%i cl=%ld cll=%lld d=%u dd=%d '
           'dlu=%lu e=%lld eu=%llu ex=%llx ed=%d f=%llu fx=%016llx '
           'fX=%llX fl=%lx w=[%-5d] z=[%05d] n=[%5u] zx=[%-08x]\\t%%\\\\ end", '
           'REC->a, REC->a, REC->a, REC->a, REC->b, REC->b, REC->b, REC->b, '
           'REC->c, REC->c, REC->c, REC->c, REC->c, REC->c, REC->c, REC->d, '
           'REC->d, REC->d, REC->e, REC->e, REC->e, REC->e, REC->f, REC->f, '
           'REC->f, REC->f, REC->c, REC->c, REC->d, REC->c')
# lab:ops: operators as eval_num_arg() computes them (all unsigned 64-bit)
OPS = fmt("ops", 902, [("s32 x", 8, 4, 1), ("u32 y", 12, 4, 0),
                       ("u64 z", 16, 8, 0)],
          '"add=%lld sub=%lld mul=%llu div=%llu mod=%llu and=%llx or=%llx '
          'land=%d lor=%d shl=%llx shr=%llx eq=%d ne=%d lt=%d le=%d gt=%d '
          'ge=%d not=%d neg=%lld inv=%llx cond=%u neg4=%d cmp=%s", '
          'REC->x + REC->y, REC->x - REC->y, REC->y * 3, REC->z / 7, '
          'REC->z % 10, REC->z & 0xff0, REC->y | 0x10, REC->x && REC->y, '
          'REC->x || REC->y, REC->z << 4, REC->z >> 60, REC->x == REC->y, '
          'REC->x != REC->y, REC->x < 0, REC->y <= 5, REC->x > REC->y, '
          'REC->y >= 5, !REC->y, -REC->x, ~REC->y, '
          'REC->y ? (REC->x ? 1 : 2) : 3, REC->x == -4, '
          'REC->x < 0 ? (REC->x == -4 ? "restart" : "error") : "ok"')
# lab:strs: symbols (a hex value, -1, none matching), flags with and
# without delimiter, an operator other than ?: (prints nothing)
STRS = fmt("strs", 903, [("unsigned int k", 8, 4, 0),
                         ("unsigned long fl", 16, 8, 0)],
           '"sym=%s flags=%s bare=%s none=[%s] neg=%s end", '
           '__print_symbolic(REC->k, { 0, "zero" }, { 0x10, "sixteen" }, '
           '{ 010, "eight" }, { -1, "minus" }, { 1, "one" }), '
           '__print_flags(REC->fl, "|", { 0x1, "A" }, { 0x2, "B" }, '
           '{ 0x6, "CD" }, { 0x100, "H" }), '
           '__print_flags(REC->fl & 0xf, "", { 1, "a" }, { 2, "b" }, '
           '{ 4, "c" }), REC->k + 1, '
           '__print_flags(REC->k, ",", { -1, "nothing" }, { 1, "one" })')
# not compiled: each goes through tep_print_event()
CAST = fmt("cast", 904, [("u32 v", 8, 4, 0)],
           '"v=%d c=%c h=%#x", (int)REC->v, REC->v, REC->v')
SHIFT = fmt("shift", 905, [("u32 v", 8, 4, 0)],
            '"s=%llx", 1ULL << REC->v')
WORD = fmt("word", 906, [("u32 v", 8, 4, 0)],
           '"w=%s", __print_symbolic(REC->v, { HI_SOFTIRQ, "hi" }, '
           '{ 1, "one" })')

EDGES32 = [0, 1, 2, 4, 5, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff,
           0x7fffffff, 0x80000000, 0xfffffffc, 0xffffffff, 0x12345678]
EDGES64 = [0, 1, 0x7fffffffffffffff, 0x8000000000000000,
           0xffffffffffffffff, 0x123456789abcdef0, 0xfffffffffffffffc]


def kvm_records(pid):
    out = []
    for load in (0, 1, 2, 0xffffffff):
        out.append(common(37, pid) + struct.pack("<I", load))
    for i, v in enumerate(EDGES32):
        out.append(common(110, pid) + struct.pack(
            "<IIIII", i % 3, (0x10 + i) & 0xffff, v, (0, 1, 2, 7)[i % 4],
            v ^ 0x5a5a))
    for reason in list(range(32)) + [0x80000000, 0xffffffff]:
        for err in (0, -4, -5, 4):
            if err and reason % 5:
                continue
            out.append(common(42, pid) + struct.pack("<Ii", reason, err))
    for i, v in enumerate(EDGES64):
        out.append(common(115, pid) + struct.pack(
            "<IIQB3xII", i, 0, v, i & 1, EDGES32[i], EDGES32[-1 - i]))
    return out


def lab_records(pid):
    out = []
    for i, v in enumerate(EDGES32):
        w = EDGES64[i % len(EDGES64)]
        out.append(common(901, pid) + struct.pack(
            "<bxHiI4xqQ", struct.unpack("<b", bytes([v & 0xff]))[0],
            v & 0xffff, struct.unpack("<i", struct.pack("<I", v))[0], v,
            struct.unpack("<q", struct.pack("<Q", w))[0], w ^ v))
    for i, v in enumerate(EDGES32):
        y = EDGES32[-1 - i]
        out.append(common(902, pid) + struct.pack(
            "<IIQ", v, y, EDGES64[i % len(EDGES64)] ^ (v << 8)))
    for k in (0, 1, 8, 0x10, 3, 0xffffffff):
        for fl in (0, 1, 3, 6, 7, 0x106, 0x1000, 0xffffffffffffffff):
            out.append(common(903, pid) + struct.pack("<I4xQ", k, fl))
    for v in (0, 65, 0xffffffff):
        out.append(common(904, pid) + struct.pack("<I", v))
    for v in (0, 4, 63, 64, 65):
        out.append(common(905, pid) + struct.pack("<I", v))
    for v in (0, 1, 2):
        out.append(common(906, pid) + struct.pack("<I", v))
    return out


def main():
    cpu0 = [(T0 + 1000 * (i + 1), r)
            for i, r in enumerate(kvm_records(500))]
    cpu1 = [(T0 + 700 * (i + 1), r)
            for i, r in enumerate(lab_records(501))]
    data = tracedat([], [("kvm", [KVM_FPU, KVM_PIO, KVM_USERSPACE_EXIT,
                                  KVM_ENTRY]),
                         ("lab", [NUMS, OPS, STRS, CAST, SHIFT, WORD])],
                    [(500, "guest"), (501, "lab")], [cpu0, cpu1])
    sys.stdout.buffer.write(data)


if __name__ == "__main__":
    main()
