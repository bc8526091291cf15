# SPDX-License-Identifier: GPL-2.0-or-later
"""Options trace-cmd writes for a host and its guests, written into a
recorded little-endian trace.dat as trace-cmd writes them (trace-cmd.dat.v6(5),
trace-cmd.dat.v7(5), trace-cmd's trace-output.c / trace-record.c), and the
time stamp correction libtracecmd 3.1.6 applies to a guest's records
(trace-input.c: timestamp_host_sync(), timestamp_correction_calc()).

Used by gen-hostguest.py. Debian's libtracecmd headers do not declare
tracecmd_add_option() or tracecmd_copy(), so the bytes are written here:

- version 6: the file is rebuilt: the headers as they were (the kallsyms
  text may be replaced), "options  \\0" and the options, then
  "flyrecord\\0", the CPU table, the trace_clock text (with TRACECLOCK)
  and the CPU data, each page-aligned;
- version 7: an options section is appended at the end of the file and
  chained from the DONE option of the last options section.
"""
import struct
import sys

MAGIC = b"\x17\x08\x44tracing"
OPT_DONE, OPT_BUFFER, OPT_TRACECLOCK = 0, 3, 4
OPT_TRACEID, OPT_TIME_SHIFT, OPT_GUEST = 11, 12, 13
OPT_TSC2NSEC = 14
MASK = (1 << 64) - 1


def u16(d, p):
    return struct.unpack_from("<H", d, p)[0]


def u32(d, p):
    return struct.unpack_from("<I", d, p)[0]


def u64(d, p):
    return struct.unpack_from("<Q", d, p)[0]


def opt(oid, body):
    return struct.pack("<HI", oid, len(body)) + body


def traceid(tid):
    return opt(OPT_TRACEID, struct.pack("<Q", tid))


def guest(name, tid, pids):
    """GUEST: name, trace id, vCPU count, {vcpu, host pid} per vCPU."""
    body = name.encode() + b"\0" + struct.pack("<QI", tid, len(pids))
    for vcpu, pid in enumerate(pids):
        body += struct.pack("<II", vcpu, pid)
    return opt(OPT_GUEST, body)


def time_shift(peer, interpolate, cpus, fractions):
    """TIME_SHIFT: cpus is per CPU a list of (time, offset, scaling,
    fraction); fractions: write the arrays of fraction shifts."""
    body = struct.pack("<QII", peer, 1 if interpolate else 0, len(cpus))
    for s in cpus:
        body += struct.pack("<I", len(s))
        body += b"".join(struct.pack("<Q", t) for t, _, _, _ in s)
        body += b"".join(struct.pack("<q", o) for _, o, _, _ in s)
        body += b"".join(struct.pack("<Q", m) for _, _, m, _ in s)
    if fractions:
        for s in cpus:
            body += b"".join(struct.pack("<Q", f) for _, _, _, f in s)
    return opt(OPT_TIME_SHIFT, body)


def tsc2nsec(mult, shift, offset):
    return opt(OPT_TSC2NSEC, struct.pack("<IIQ", mult, shift, offset))


# ------------------------------------------------------------ version 6

def v6_parse(data):
    """The parts of a version 6 file: head (up to kallsyms), kallsyms,
    middle (printk, cmdlines, CPU count), options, CPU data."""
    if data[:10] != MAGIC or data[10:12] != b"6\0" or data[12] != 0:
        sys.exit("not a little-endian version 6 trace.dat")
    page = u32(data, 14)
    p = 18
    for name in (b"header_page\0", b"header_event\0"):
        if data[p:p + len(name)] != name:
            sys.exit("no %s at %#x" % (name, p))
        p += len(name)
        p += 8 + u64(data, p)
    n = u32(data, p)                        # ftrace event formats
    p += 4
    for _ in range(n):
        p += 8 + u64(data, p)
    n = u32(data, p)                        # systems of event formats
    p += 4
    for _ in range(n):
        p = data.index(b"\0", p) + 1
        k = u32(data, p)
        p += 4
        for _ in range(k):
            p += 8 + u64(data, p)
    head = data[:p]
    ksize = u32(data, p)
    kallsyms = data[p + 4:p + 4 + ksize]
    q = p + 4 + ksize
    q += 4 + u32(data, q)                   # trace_printk
    q += 8 + u64(data, q)                   # cmdlines
    ncpus = u32(data, q)
    q += 4
    middle = data[p + 4 + ksize:q]
    opts = []
    if data[q:q + 10] == b"options  \0":
        q += 10
        while True:
            oid = u16(data, q)
            q += 2
            if oid == OPT_DONE:
                break
            size = u32(data, q)
            opts.append((oid, data[q + 4:q + 4 + size]))
            q += 4 + size
    if data[q:q + 10] != b"flyrecord\0":
        sys.exit("not a flyrecord trace")
    q += 10
    cpus = []
    for i in range(ncpus):
        off, size = struct.unpack_from("<QQ", data, q + 16 * i)
        cpus.append(data[off:off + size])
    q += 16 * ncpus
    clock = b""
    if any(oid == OPT_TRACECLOCK for oid, _ in opts):
        # the text of trace_clock follows the table
        clock = data[q:q + 8 + u64(data, q)]
    if any(oid == OPT_BUFFER for oid, _ in opts):
        sys.exit("instances are not handled here")
    return dict(page=page, head=head, kallsyms=kallsyms, middle=middle,
                opts=opts, cpus=cpus, clock=clock)


def v6_write(f, drop=(), add=b"", kallsyms=None):
    """The bytes of a version 6 file from v6_parse()'s parts, without the
    options of ids in drop, with the options add and kallsyms text."""
    ks = f["kallsyms"] if kallsyms is None else kallsyms
    out = bytearray(f["head"] + struct.pack("<I", len(ks)) + ks + f["middle"])
    out += b"options  \0"
    for oid, body in f["opts"]:
        if oid not in drop:
            out += opt(oid, body)
    out += add + struct.pack("<H", OPT_DONE) + b"flyrecord\0"
    table = len(out)
    out += bytes(16 * len(f["cpus"])) + f["clock"]
    page = f["page"]
    for i, d in enumerate(f["cpus"]):
        out += bytes(-len(out) % page)
        struct.pack_into("<QQ", out, table + 16 * i, len(out), len(d))
        out += d
    return bytes(out)


# ------------------------------------------------------------ version 7

def v7_append(data, add):
    """data with an options section holding add appended and chained."""
    if data[:10] != MAGIC or data[10:12] != b"7\0" or data[12] != 0:
        sys.exit("not a little-endian version 7 trace.dat")
    ver = data.index(b"\0", 18) + 1         # compression name, version
    off_at = data.index(b"\0", ver) + 1
    at = u64(data, off_at)
    while True:
        sid, flags, strid, size = struct.unpack_from("<HHIQ", data, at)
        body = data[at + 16:at + 16 + size]
        pos, nxt = 0, None
        while pos + 6 <= len(body):
            oid, osize = struct.unpack_from("<HI", body, pos)
            if oid == OPT_DONE:
                nxt = at + 16 + pos + 6
                break
            pos += 6 + osize
        if nxt is None:
            sys.exit("options section at %#x without DONE" % at)
        if u64(data, nxt) == 0:
            break
        at = u64(data, nxt)
    out = bytearray(data)
    struct.pack_into("<Q", out, nxt, len(out))
    body = add + struct.pack("<HIQ", OPT_DONE, 8, 0)
    out += struct.pack("<HHIQ", 0, 0, strid, len(body)) + body
    return bytes(out)


# ------------------------------------------------------------ the correction

def _s64(v):
    v &= MASK
    return v - (1 << 64) if v >> 63 else v


def _cdiv(a, b):
    """C's signed division: the quotient truncated toward zero."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _calc(ts, interpolate, lo, hi):
    if interpolate:
        delta = _s64(hi[0] - lo[0])
        off = _s64(_s64(ts - lo[0]) * _s64(hi[1] - lo[1]))
        tscor = _s64(lo[1] + _cdiv(_s64(off + _cdiv(delta, 2)), delta))
    else:
        tscor = lo[1]
    ts = ((ts * lo[2]) & MASK) >> lo[3]
    return (ts + tscor) & MASK


def shift(ts, cpu, interpolate, cpus):
    """The host time libtracecmd gives a guest record at ts on cpu."""
    if cpu >= len(cpus):
        return ts
    s = sorted(cpus[cpu])
    if len(s) == 1:
        return (ts + s[0][1]) & MASK
    if len(s) == 2 or ts <= s[0][0]:
        return _calc(ts, interpolate, s[0], s[1])
    if ts >= s[-1][0]:
        return _calc(ts, interpolate, s[-2], s[-1])
    lo, hi = 0, len(s) - 1
    mid = (lo + hi) // 2
    while lo <= hi:
        if ts < s[mid][0]:
            hi = mid - 1
        elif ts > s[mid][0]:
            lo = mid + 1
        else:
            break
        mid = (lo + hi) // 2
    return _calc(ts, interpolate, s[mid], s[mid + 1])
