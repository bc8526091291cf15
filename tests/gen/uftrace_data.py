# SPDX-License-Identifier: GPL-2.0-or-later
"""The pieces of a uftrace data directory the generators share.

The writer's magic, one record in uftrace's layout (libmcount's struct
uftrace_record), a file written whole, and the info file and session map
of a generated program, written as `uftrace record` (v0.13) would so that
`uftrace dump` reads them and names what kvmtrace_format names.
gen-uftrace-big.py, gen-uftrace-runs.py, gen-uftrace-edge.py and
gen-uftrace-qemu.py import it.
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


# The [stack] line libmcount's record_proc_maps() copies from
# /proc/self/maps into every sid-SID.map. uftrace's read_session_map()
# (utils/session.c) takes the kernel base from it (guess_kernel_base():
# 0xffff800000000000 for this one); without it the base stays 0,
# is_kernel_address() holds for every address and find_symtabs()
# (utils/symbol.c) looks user addresses up in the kernel's symbols: uftrace
# dump then prints <401000> where the program's .sym names func_a.
STACK = "7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0 [stack]\n"


def write_map(out, sid, lines, same=None):
    """out/sid-SID.map: the text lines (mappings), then the [stack] line.

    With a dict same, a map whose text an earlier one had is a hard link
    to it (gen-uftrace-big.py's 50 000 sessions: 200 MB of 4 KiB blocks
    otherwise); a reader sees the same bytes in each.
    """
    path = os.path.join(out, "sid-%s.map" % sid)
    text = lines + STACK
    if same is not None and text in same:
        try:
            os.link(same[text], path)
            return
        except OSError:
            pass        # EMLINK, or no hard links here: a copy
    write(path, text)
    if same is not None:
        same[text] = path


def write_program(out, name, t0, tids, funcs, base=0x400000):
    """The task.txt, sid-0000000000000001.map and prog.sym of program
    /NAME/prog: one session of pid tids[0] a second before t0 (ns), a TASK
    line for each tid, the program mapped at base, funcs[i] at 0x1000 +
    0x100 * i of it (relative: SYM_REL_ADDR)."""
    sec = t0 // 10**9 - 1
    task = ['SESS timestamp=%d.%09d pid=%d sid=%016x exename="/%s/prog"'
            % (sec, 0, tids[0], 1, name)]
    task += ["TASK timestamp=%d.%09d tid=%d pid=%d" % (sec, 1, t, tids[0])
             for t in tids]
    write(os.path.join(out, "task.txt"), "\n".join(task) + "\n")
    write_map(out, "%016x" % 1, "%x-%x r-xp 00000000 08:01 1 /%s/prog\n"
              % (base, base + 0x10000, name))
    write(os.path.join(out, "prog.sym"),
          "".join("%016x T %s\n" % (0x1000 + 0x100 * i, f)
                  for i, f in enumerate(funcs))
          + "%016x ? __sym_end\n" % (0x1000 + 0x100 * len(funcs)))


def write_info(out, name, tids, max_stack=1024, argspec=None, retspec=None):
    """out/info of program /NAME/prog (cmdline NAME) with tasks tids,
    recorded with --max-stack=MAX_STACK (uftrace's default 1024: libmcount
    records no call nested deeper), and with ARGSPEC or RETSPEC (uftrace
    record -A ARGSPEC -R RETSPEC; the features ARGUMENT, RETVAL, the info
    ARG_SPEC) when given.

    The program has no build-id (as one linked with --build-id=none):
    uftrace record then writes no build_id line and leaves EXE_BUILD_ID
    out of the mask (fill_exe_build_id() in cmds/info.c fails), and the
    map lines carry none (update_session_map()). A build_id line must
    hold 40 hex digits: uftrace's read_exe_build_id() refuses less and
    with it the whole info file.
    """
    info = [
        "exename:/%s/prog" % name, "exit_status:0",
        "cmdline:%s" % name,
        "cpuinfo:lines=2", "cpuinfo:nr_cpus=1 / 1 (online/possible)",
        "cpuinfo:desc=x", "meminfo:1 / 1", "osinfo:lines=3",
        "osinfo:kernel=Linux", "osinfo:hostname=h", "osinfo:distro=d",
        "taskinfo:lines=2", "taskinfo:nr_tid=%d" % len(tids),
        "taskinfo:tids=" + ",".join(str(t) for t in tids),
    ]
    # feature: TASK_SESSION | SYM_REL_ADDR | MAX_STACK (the header's
    # max_stack, which uftrace record always sets); info: exename..taskinfo
    # but build_id (0x02)
    feat, mask = 0x62, 0xfd
    if argspec or retspec:
        # the lines of read_arg_spec() (cmds/info.c), after taskinfo
        spec = ["argspec:" + argspec] if argspec else []
        spec += ["retspec:" + retspec] if retspec else []
        info += ["argspec:lines=%d" % len(spec)] + spec
        feat |= (0x08 if argspec else 0) | (0x10 if retspec else 0)
        mask |= 0x400
    hdr = MAGIC + struct.pack("<IHBBQQHHI", 4, 40, 1, 2, feat, mask,
                              max_stack, 0, 0)
    write(os.path.join(out, "info"), hdr + ("\n".join(info) + "\n").encode())
