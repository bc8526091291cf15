#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-uftrace-names.py OUTDIR -- a uftrace data directory whose functions
have the mangled names that uftrace 0.13's own (simple) demangler spells
otherwise than libiberty: one call (entry, exit) of each, in this order.

The names come from the public recordings of issue 38 (std::ostream
members of a `-l` recording, boost's and zmq's conversion operators,
libstdc++'s thunks and transaction clones, the legacy Rust names of two
rftrace guests) and a few made here for the escapes none of those has
($SP$, $u22$, $u27$, $u2b$, $u3b$, $u3d$, $u7e$, and $u5c$, which
uftrace does not know).  The layout is gen-uftrace-qemu.py's synth/
(uftrace record's: 3-column .sym relative to the map start).

What uftrace prints for them is its dump of this directory:
    tests/gen/gen-uftrace-names.py tests/fixtures/uftrace-gen
    uftrace dump -d tests/fixtures/uftrace-gen/names \\
        > tests/cli/uftrace/names-uftrace013.out
(Debian 12's uftrace 0.13; a name whose length prefix is wrong makes
that uftrace crash, so keep them right when adding one.)
"""
import importlib.util
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "gen_uftrace_qemu", os.path.join(HERE, "gen-uftrace-qemu.py"))
g = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(g)

NAMES = [
    "_ZNSo6sentryC1ERSo",
    "_ZNSo6sentryD1Ev",
    "_ZNSo9_M_insertIlEERSoT_",
    "_ZNSo5flushEv",
    "_ZNSo3putEc",
    "_ZNSolsEi",
    "_ZNSolsEPFRSoS_E",
    "_ZNSi6ignoreEl",
    "_ZNSi10_M_extractIjEERSiRT_",
    "_ZNSirsERi",
    "_ZNSdD1Ev",
    "_ZNSdaSEOSd",
    "_ZNSs4_Rep10_M_destroyERKSaIcE",
    "_ZNSs7reserveEm",
    "_ZNKSs12find_last_ofEPKcm",
    "_ZNSsC1EPKcRKSaIcE",
    "_ZNSsD1Ev",
    "_ZNSsaSEPKc",
    "_ZNSspLEc",
    "_ZNKSscvSt17basic_string_viewIcSt11char_traitsIcEEEv",
    "_ZNSbIwSt11char_traitsIwESaIwEEC1Ev",
    "_ZNSaIcEC1Ev",
    "_ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_PKc",
    "_ZNK5boost9function0IvEcvMNS1_5dummyEFvvEEv",
    "_ZNK5boost9function2IviRK11InetAddressEcvMNS4_5dummyEFvvEEv",
    "_ZN3zmq9context_tcvPvEv",
    "_ZNK3FoocviEv",
    "_ZNK2cv6StringcvNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEB5cxx11Ev",
    "_ZNKSo6sentrycvbEv",
    "_ZNSt8ios_base7failureB5cxx11C1EPKcRKSt10error_code",
    "_ZNSt8ios_base7failureB5cxx11D0Ev",
    "_ZThn16_NSt7__cxx1118basic_stringstreamIcSt11char_traitsIcESaIcEED0Ev",
    "_ZTv0_n24_NSt13basic_fstreamIcSt11char_traitsIcEED1Ev",
    "_ZGTtNKSt11logic_error4whatEv",
    "_ZGTtNSt11range_errorC1EPKc",
    "_ZN3ABC3fooEv",
    "_ZN3ABCC1Ei",
    "_Znwm",
    "_ZN64_$LT$core..ops..range..RangeFull$u20$as$u20$core..fmt..Debug$GT$3fmt17h88b5e5dedea69901E",
    "_ZN3std2io5impls71_$LT$impl$u20$std..io..Write$u20$for$u20$alloc..boxed..Box$LT$W$GT$$GT$9write_fmt17hfac1a81174ecfcb0E",
    "_ZN4core4iter6traits8iterator8Iterator3any5check28_$u7b$$u7b$closure$u7d$$u7d$17h806868d5d60c8a9bE",
    "_ZN4core3num23_$LT$impl$u20$usize$GT$11checked_mul17hb0c552a4ddf441b8E.llvm.8118483998619638644",
    "_ZN44_$LT$$RF$T$u20$as$u20$core..fmt..Display$GT$3fmt17hc2e7d4b03e27f5b3E",
    "_ZN4core3ptr7mut_ptr31_$LT$impl$u20$$BP$mut$u20$T$GT$7is_null17hc2c8f11333511eeaE",
    "_ZN101_$LT$core..str..CharEscapeDebugContinue$u20$as$u20$core..ops..function..Fn$LT$$LP$char$C$$RP$$GT$$GT$4call17h7da309304cc0f835E",
    "_ZN42_$LT$$u21$$u20$as$u20$core..fmt..Debug$GT$3fmt17h017da54df1eca3bcE",
    "_ZN4core5slice29_$LT$impl$u20$$u5b$T$u5d$$GT$3len17h0123456789abcdefE",
    "_ZN5alloc4sync12Arc$LT$T$GT$9drop_slow17h8b8f872cceb0bcafE",
    "_ZN3std6thread5local4fast12Key$LT$T$GT$14try_initialize17h0123456789abcdefE",
    "_ZN3ktf18_$SP$x$u22$y$u27$z17h0123456789abcdefE",
    "_ZN3ktf19a$u2b$b$u3b$c$u3d$d17h0123456789abcdefE",
    "_ZN3ktf10tilde$u7e$17h0123456789abcdefE",
    "_ZN3ktf11a$u5c$b$LT$17h0123456789abcdefE",
    "_ZN3foo3bar17h05af221e174051e9E",
]
BASE = 0x55550000a000
NS = 5000000000123


def write_names(d):
    if os.path.exists(d):
        shutil.rmtree(d)
    os.makedirs(d)
    t = NS
    recs = []
    for i, _ in enumerate(NAMES):
        a = BASE + 0x1000 + i * 0x10 + 1
        recs.append(g.record(t, g.ENTRY, 0, a))
        recs.append(g.record(t + 10, g.EXIT, 0, a))
        t += 20
    g.write(os.path.join(d, "4242.dat"), b"".join(recs))
    lines = [
        "exename:/work/names",
        "build_id:00112233445566778899aabbccddeeff00112233",
        "exit_status:0",
        "cmdline:uftrace record ./names",
        "cpuinfo:lines=2",
        "cpuinfo:nr_cpus=2 / 2 (online/possible)",
        "cpuinfo:desc=synthetic",
        "meminfo:1.0 / 2.0 GB (free / total)",
        "osinfo:lines=3",
        "osinfo:kernel=Linux 6.1.0",
        "osinfo:hostname=names",
        'osinfo:distro="synthetic"',
        "taskinfo:lines=2",
        "taskinfo:nr_tid=1",
        "taskinfo:tids=4242",
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
    # PLTHOOK | TASK_SESSION | SYM_REL_ADDR | MAX_STACK; info 0x3bff
    g.write(os.path.join(d, "info"),
            g.header(0x63, 0x3bff, max_stack=1024) +
            "".join(l + "\n" for l in lines).encode())
    g.write(os.path.join(d, "task.txt"),
            'SESS timestamp=5000.000000000 pid=4242 sid=5eed5eed5eed5eed '
            'exename="/work/names"\n'
            "TASK timestamp=5000.000000100 tid=4242 pid=4242\n")
    g.write(os.path.join(d, "sid-5eed5eed5eed5eed.map"),
            "%012x-%012x r-xp 00000000 00:00 0 /work/names\n"
            "7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0 [stack]\n"
            % (BASE, BASE + 0x10000))
    g.write(os.path.join(d, "names.sym"),
            "".join("%016x T %s\n" % (0x1000 + i * 0x10, n)
                    for i, n in enumerate(NAMES)) +
            "%016x ? __sym_end\n" % (0x1000 + len(NAMES) * 0x10))


def main():
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    write_names(os.path.join(sys.argv[1], "names"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
