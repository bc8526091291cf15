#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-hostguest.py [OUTDIR]: host/guest trace.dat pairs as `trace-cmd record
-A` writes them, made from the recordings in tests/fixtures/tracedat/, and
the output of `trace-cmd report -i HOST -i GUEST ...` on them.

trace-cmd record -A needs a guest agent over vsock, which these machines do
not have. So the options trace-cmd writes are added to recorded files
(tracedatopts.py): TRACEID on every file, GUEST on the hosts, TIME_SHIFT on
the guests. Then every guest record's time as libtracecmd hands it out
(`trace-cmd report -t`) is checked against the correction computed here from
the recording's own time stamps; the script stops on the first difference.

Run from the top of the source tree; needs trace-cmd. OUTDIR defaults to
tests/fixtures/hostguest. The files:

  host7.dat      v7, mixed-sched.dat: GUEST vm-a (2 vCPUs: 31484 31485)
                 and vm-b (2 vCPUs: 29744 31479)
  host7-anon.dat host7.dat with vm-b's GUEST option of an empty name
  guest-a6.dat   v6, tc-syscalls.dat with kallsyms naming the real-mode
                 RIPs of the host's tinyguest: TIME_SHIFT onto host7,
                 interpolated, scaling 1.0005 (fraction arrays), offsets
                 changing 3 and 4 times on the two CPUs
  guest-b7.dat   v7, host-kvm-tsc-change.dat: TIME_SHIFT onto host7, not
                 interpolated, scaling 1, no fraction arrays, CPU 1's
                 offset steps by 500; one record lands on a host record's
                 time
  host7n.dat     host7.dat with TSC2NSEC (2600 MHz)
  guest-b7n.dat  guest-b7.dat with TSC2NSEC (2600 MHz)
  host6.dat      v6, host-kvm-v6.dat: GUEST vm-c (2 vCPUs: 29978 4242)
  guest-c7.dat   v7, tc-syscalls.dat: TIME_SHIFT onto host6, one offset per
                 CPU, 5M ticks apart; mostly outside host6's span
  orphan7.dat    v7, tc-syscalls.dat: TIME_SHIFT onto a trace id no file
                 has, scaling 2 without fraction arrays
  guest-d7.dat   v7, tc-syscalls.dat: TIME_SHIFT onto host7, interpolated,
                 scaling 32771 / 2^16 (fraction arrays): two guest times
                 for each host time (`gen-hostguest.py --scaled` writes it
                 alone)
  split7.dat     `trace-cmd split` of host7.dat (no TRACECLOCK option)
and tests/cli/hostguest/NAME.out: `trace-cmd report` (whole, its cpus=N
lines included) of the combinations in REPORTS and of the files in SINGLES.
`gen-hostguest.py --reports [OUTDIR]` writes only these references.
"""
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tracedatopts as T  # noqa: E402

REC = "tests/fixtures/tracedat"
CLI = "tests/cli/hostguest"
ID_H7, ID_H6 = 0x4b564d54486f7374, 0x4b564d5448367374
ID_A, ID_B, ID_C = 0x6775657374410001, 0x6775657374420002, 0x6775657374430003
ID_ORPHAN, ID_NOBODY = 0x6775657374440004, 0x0dead0000000beef
ID_D = 0x6775657374450005

# trace-cmd report -i ... combinations: name -> files, first -i first
REPORTS = {
    "host7-a6-b7": ["host7.dat", "guest-a6.dat", "guest-b7.dat"],
    "b7-host7": ["guest-b7.dat", "host7.dat"],
    "host6-c7": ["host6.dat", "guest-c7.dat"],
    "host6-host7-a6": ["host6.dat", "host7.dat", "guest-a6.dat"],
    "host7n-b7n": ["host7n.dat", "guest-b7n.dat"],
    # split7.dat prints seconds, host-kvm-v7.dat ticks; both are x86-tsc
    "split7-kvm7": ["split7.dat", "../tracedat/host-kvm-v7.dat"],
}
SINGLES = ["guest-a6.dat", "orphan7.dat", "split7.dat"]

LINE = re.compile(rb"^\s*(.*?)-(-?\d+)\s+\[(\d+)\]\s*([\d.]+): ")


def records(path):
    """(cpu, ts) of each record in the order of `trace-cmd report -t`."""
    out = subprocess.run(["trace-cmd", "report", "-t", path], check=True,
                         capture_output=True).stdout
    recs = []
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            recs.append((int(m.group(3)), int(m.group(4).replace(b".", b""))))
    return recs


def check(orig, made, interpolate, cpus):
    """Every record of made is its record of orig, corrected."""
    want, got = {}, {}
    for cpu, ts in records(orig):
        want.setdefault(cpu, []).append(T.shift(ts, cpu, interpolate, cpus))
    for cpu, ts in records(made):
        got.setdefault(cpu, []).append(ts)
    if want != got:
        for cpu in sorted(want):
            for i, (w, g) in enumerate(zip(want[cpu], got.get(cpu, []))):
                if w != g:
                    sys.exit("%s: CPU %d record %d: libtracecmd %d, computed %d"
                             % (made, cpu, i, g, w))
        sys.exit("%s: record counts differ" % made)
    return sum(len(v) for v in got.values())


def first_ts(path, cpu=None):
    return [ts for c, ts in records(path) if cpu is None or c == cpu]


def write_reports(out):
    """tests/cli/hostguest/NAME.out: `trace-cmd report` of REPORTS and
    SINGLES, whole (its cpus=N lines included, as kvmtrace_format prints
    them)."""
    os.makedirs(CLI, exist_ok=True)
    runs = [(name, ["-i" + os.path.join(out, f) for f in files])
            for name, files in REPORTS.items()]
    runs += [(f[:-4], [os.path.join(out, f)]) for f in SINGLES]
    for name, args in runs:
        res = subprocess.run(["trace-cmd", "report"] + args, check=True,
                             capture_output=True).stdout
        with open(os.path.join(CLI, name + ".out"), "wb") as f:
            f.write(res)


def scaled(out):
    """guest-d7.dat: tc-syscalls.dat with a TIME_SHIFT onto host7 whose
    scaling (32771 / 2^16, in the fraction arrays) is about a half: two
    guest ticks give each host tick, so the host time does not tell the
    guest's own; `guest_ts` must still be the recorded one."""
    src = REC + "/tc-syscalls.dat"
    g = first_ts(src)
    g0, g1 = min(g), max(g)
    h0 = first_ts(REC + "/mixed-sched.dat")[0]
    scal, frac = 32771, 16
    base = h0 + 20000000 - ((g0 * scal) >> frac)
    d_cpus = [[(g0 - 100, base, scal, frac), (g1 + 100, base + 3000, scal, frac)],
              [(g0 - 700, base + 50, scal, frac), (g1 + 900, base - 2000, scal, frac)]]
    path = os.path.join(out, "guest-d7.dat")
    with open(path, "wb") as f:
        f.write(T.v7_append(open(src, "rb").read(),
                            T.traceid(ID_D) +
                            T.time_shift(ID_H7, True, d_cpus, True)))
    n = check(src, path, True, d_cpus)
    print("guest-d7.dat: %d guest records checked against libtracecmd" % n)


def main():
    if sys.argv[1:2] == ["--scaled"]:
        scaled(sys.argv[2] if len(sys.argv) > 2 else "tests/fixtures/hostguest")
        return
    if sys.argv[1:2] == ["--reports"]:
        # only the references, from the files made before
        write_reports(sys.argv[2] if len(sys.argv) > 2
                      else "tests/fixtures/hostguest")
        return
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/hostguest"
    os.makedirs(out, exist_ok=True)
    tmp = os.path.join(out, "tc-syscalls.v6.tmp")
    subprocess.run(["trace-cmd", "convert", "--file-version", "6", "-i",
                    REC + "/tc-syscalls.dat", "-o", tmp], check=True,
                   capture_output=True)

    def put(name, data):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        return os.path.join(out, name)

    host7 = open(REC + "/mixed-sched.dat", "rb").read()
    host7_ts = first_ts(REC + "/mixed-sched.dat")
    h0 = host7_ts[0]

    # host7: GUEST for vm-a and vm-b
    put("host7.dat", T.v7_append(host7, T.traceid(ID_H7) +
                                 T.guest("vm-a", ID_A, [31484, 31485]) +
                                 T.guest("vm-b", ID_B, [29744, 31479])))
    # host7-anon: the same, vm-b's GUEST option without a name
    put("host7-anon.dat", T.v7_append(host7, T.traceid(ID_H7) +
                                      T.guest("vm-a", ID_A, [31484, 31485]) +
                                      T.guest("", ID_B, [29744, 31479])))

    # guest-a6: interpolated, scaling 65569 / 2^16, offsets changing
    g = first_ts(tmp)
    g0, g1 = g[0], max(g)
    scal, frac = 65569, 16
    base = h0 + 10000000 - ((g0 * scal) >> frac)
    span = g1 - g0
    a_cpus = [
        [(g0 - 1000, base, scal, frac), (g0 + span // 2, base + 2000, scal, frac),
         (g1 + 1000, base - 1500, scal, frac)],
        [(g0 - 5000, base + 300, scal, frac), (g0 + span // 3, base - 700, scal, frac),
         (g0 + 2 * span // 3, base + 900, scal, frac), (g1 + 7, base + 400, scal, frac)],
    ]
    kallsyms = (b"0000000000001000 T guest_start\n"
                b"0000000000001010 t guest_loop\n"
                b"ffffffff81000000 T _text\n")
    v6 = T.v6_parse(open(tmp, "rb").read())
    a6 = put("guest-a6.dat", T.v6_write(
        v6, drop=(T.OPT_TRACEID,), kallsyms=kallsyms,
        add=T.traceid(ID_A) + T.time_shift(ID_H7, True, a_cpus, True)))
    n = check(tmp, a6, True, a_cpus)

    # guest-b7: steps, no fraction arrays; one record on a host record's time
    b_src = REC + "/host-kvm-tsc-change.dat"
    g = first_ts(b_src, 1)
    target = [t for t in host7_ts if t > h0 + 15000000][0]
    off = target - g[3]
    # (with two samples and no interpolation libtracecmd takes the first
    # offset only: a step needs a third)
    b_cpus = [[(0, off, 1, 0)],
              [(g[0] - 10, off, 1, 0), (g[len(g) // 2], off + 500, 1, 0),
               (g[-1] + 10, off + 500, 1, 0)]]
    b7 = put("guest-b7.dat", T.v7_append(
        open(b_src, "rb").read(),
        T.traceid(ID_B) + T.time_shift(ID_H7, False, b_cpus, False)))
    n += check(b_src, b7, False, b_cpus)
    if target not in first_ts(b7):
        sys.exit("guest-b7.dat: no record on host time %d" % target)

    # both converted to ns as trace-cmd record --tsc2nsec does: 2600 MHz
    n2 = T.tsc2nsec(6452775, 24, 0)
    put("host7n.dat", T.v7_append(open(os.path.join(out, "host7.dat"), "rb").read(), n2))
    put("guest-b7n.dat", T.v7_append(open(b7, "rb").read(), n2))

    # host6 and guest-c7: one offset per CPU, mostly outside the host span
    v6 = T.v6_parse(open(REC + "/host-kvm-v6.dat", "rb").read())
    put("host6.dat", T.v6_write(v6, drop=(T.OPT_TRACEID,),
                                add=T.traceid(ID_H6) +
                                T.guest("vm-c", ID_C, [29978, 4242])))
    h6 = first_ts(REC + "/host-kvm-v6.dat")[0]
    c_src = REC + "/tc-syscalls.dat"
    g0 = first_ts(c_src)[0]
    c_cpus = [[(g0, h6 - 2000000 - g0, 1, 0)],
              [(g0, h6 - 2000000 - g0 + 5000000, 1, 0)]]
    c7 = put("guest-c7.dat", T.v7_append(
        open(c_src, "rb").read(),
        T.traceid(ID_C) + T.time_shift(ID_H6, False, c_cpus, False)))
    n += check(c_src, c7, False, c_cpus)
    scaled(out)

    # orphan7: its host is nowhere; scaling 2, interpolated
    o_cpus = [[(g0, -g0, 2, 0), (g0 + 20000000, -g0 + 1000, 2, 0)],
              [(g0, -g0 + 10, 2, 0), (g0 + 20000000, -g0 - 1000, 2, 0)]]
    o7 = put("orphan7.dat", T.v7_append(
        open(c_src, "rb").read(),
        T.traceid(ID_ORPHAN) + T.time_shift(ID_NOBODY, True, o_cpus, False)))
    n += check(c_src, o7, True, o_cpus)
    os.unlink(tmp)

    # a file trace-cmd split wrote: without the TRACECLOCK option
    subprocess.run(["trace-cmd", "split", "-i", os.path.join(out, "host7.dat"),
                    "-o", os.path.join(out, "split7.dat"), "-e", "40"],
                   check=True, capture_output=True)
    os.replace(os.path.join(out, "split7.dat.1"), os.path.join(out, "split7.dat"))
    print("%d guest records checked against libtracecmd" % n)

    # the keys vm, host_tid, vcpu and guest_ts, from what was written above
    origs = {"guest-a6.dat": REC + "/tc-syscalls.dat",
             "guest-b7.dat": b_src}
    guests = {"guest-a6.dat": ("vm-a", [31484, 31485]),
              "guest-b7.dat": ("vm-b", [29744, 31479])}
    threads = {pid: (vm, v) for vm, pids in guests.values()
               for v, pid in enumerate(pids)}
    raw = {}
    for f, o in origs.items():
        for cpu, ts in records(o):
            raw.setdefault((f, cpu), []).append(ts)
    files = REPORTS["host7-a6-b7"]
    res = subprocess.run(["trace-cmd", "report", "-t"] +
                         ["-i" + os.path.join(out, f) for f in files],
                         check=True, capture_output=True).stdout
    keys = []
    for line in res.splitlines():
        name, _, rest = line.strip().partition(b": ")
        m = LINE.match(rest)
        if not m:
            continue
        f, pid, cpu = name.decode(), int(m.group(2)), int(m.group(3))
        ts = int(m.group(4).replace(b".", b""))
        if f in guests:
            vm, pids = guests[f]
            vals = (raw[(f, cpu)].pop(0), vm, str(pids[cpu]), str(cpu))
        elif pid in threads:
            vals = (ts, threads[pid][0], "", str(threads[pid][1]))
        else:
            vals = (ts, "", "", "")
        keys.append("%s %d %d cpu=%d pid=%d vm=%s host_tid=%s vcpu=%s\n" %
                    ((os.path.join(out, f), ts) + vals[:1] +
                     (cpu, pid) + vals[1:]))
    with open(os.path.join(CLI, "keys.out"), "w") as fo:
        fo.writelines(keys)

    write_reports(out)

    # guest_sym: the names the kvm plugin gives the guest RIPs
    emul = re.compile(rb"kvm_emulate_insn: +[0-9a-f]+:([0-9a-f]+) (\S+):")
    with open(os.path.join(CLI, "host7-a6-b7.out"), "rb") as f:
        syms = ["vm-a vcpu=0 rip=0x%s %s\n" % (m.group(1).decode(),
                                             m.group(2).decode())
                for m in map(emul.search, f) if m]
    with open(os.path.join(CLI, "guest-sym.out"), "w") as f:
        f.writelines(syms)


if __name__ == "__main__":
    main()
