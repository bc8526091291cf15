#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Reference kvmtrace_format: the 2008 Python tool ported to Python 3.

The differential suite (tests/gen/gen-differential.py) computes the expected
output of the C tool with this module. It follows the 2008 script
(seeds/kvmtrace_format-2008-patch.txt) line by line, with the decisions of
DESIGN.md:

 - a record is u32 hdr (bits 0-27 event, 28-30 n_data, 31 tsc flag), u32 pid,
   u32 vcpu, u64 tsc if the flag is set, then n_data u32 words; all 7 words
   are read (the 2008 code read up to 5);
 - a leading u32 magic 0x12345678 selects the byte order (read as 0x78563412:
   big-endian) and is consumed; no magic: little-endian;
 - the format dict has tsc/ts, reltsc/relts, event, pid, vcpu, '1'..'7';
 - -c MHZ is float(MHZ); tsc becomes tsc / (mhz * 1000000.0), reltsc stays
   integer ticks;
 - rule file lines ending in "\\r\\n" lose the "\\r"; the regex, '#' and empty
   line handling are the 2008 ones (on bytes, as Python 2 str);
 - on TypeError: the raw template, then the repr of the dict of the 2008 keys
   in the 2008 order;
 - a truncated last record: every complete record, then a diagnostic on
   stderr and exit status 1.

Python 3's % operator does the formatting; the output is UTF-8.

Usage: ref_kvmtrace_format.py [-c MHZ] [-f FORMATS] [FORMATS] [INPUT]
"""

import getopt
import os
import re
import struct
import sys

PROG = "kvmtrace_format"
MAGIC = 0x12345678
HEAD = 12

# the keys of the 2008 dict, in the 2008 order (printed on TypeError)
KEYS_2008 = ("tsc", "event", "reltsc", "pid", "vcpu", "1", "2", "3", "4", "5")

DEFAULT_RULES = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             "..", "..", "formats", "kvmtrace")


class RuleError(Exception):
    pass


class Truncated(Exception):
    def __init__(self, off, need, left):
        Exception.__init__(self, off, need, left)
        self.off, self.need, self.left = off, need, left


def parse_id(s):
    """int(eval(s)) for the integer literals of Python 2 (no eval)."""
    t = s
    if t[-1:] in ("L", "l"):
        t = t[:-1]
    if not t:
        raise RuleError("bad id %r" % s)
    low = t.lower()
    if low.startswith("0x"):
        base, digits = 16, t[2:]
    elif low.startswith("0o"):
        base, digits = 8, t[2:]
    elif low.startswith("0b"):
        base, digits = 2, t[2:]
    elif t[0] == "0":
        base, digits = 8, t  # Python 2: a leading 0 is octal
    else:
        base, digits = 10, t
    if not digits or not all(c in "0123456789abcdef"[:base] for c in digits.lower()):
        raise RuleError("bad id %r" % s)
    return int(digits, base)


# Python 2 str regex: \s is [ \t\n\r\f\v], . is anything but \n
RULE_RE = re.compile(rb"(\S+)\s+(\S.*)")


def read_defs(data):
    """The 2008 read_defs() on the bytes of a rule file: {id: template}."""
    defs = {}
    pos = 0
    while pos < len(data):
        nl = data.find(b"\n", pos)
        end = len(data) if nl < 0 else nl + 1
        line = data[pos:end]
        pos = end
        if line.endswith(b"\r\n"):
            line = line[:-2] + b"\n"
        if line[:1] == b"#" or line[:1] == b"\n":
            continue
        m = RULE_RE.match(line)
        if not m:
            raise RuleError("Bad format file")
        defs[parse_id(m.group(1).decode("ascii"))] = m.group(2).decode("utf-8")
    return defs


def records(data):
    """Yield (offset, hdr, pid, vcpu, tsc or None, words) of a kvmtrace
    stream; raise Truncated for an incomplete last record."""
    pos = 0
    order = "<"
    if len(data) >= 4:
        (w,) = struct.unpack_from("<I", data, 0)
        if w == MAGIC:
            pos = 4
        elif w == 0x78563412:
            order = ">"
            pos = 4
    while pos < len(data):
        left = len(data) - pos
        if left < HEAD:
            raise Truncated(pos, HEAD, left)
        hdr, pid, vcpu = struct.unpack_from(order + "III", data, pos)
        n_data = hdr >> 28 & 0x7
        tsc_in = hdr >> 31
        size = HEAD + 8 * tsc_in + 4 * n_data
        if left < size:
            raise Truncated(pos, size, left)
        p = pos + HEAD
        tsc = None
        if tsc_in:
            (tsc,) = struct.unpack_from(order + "Q", data, p)
            p += 8
        words = struct.unpack_from(order + "I" * n_data, data, p)
        yield pos, hdr, pid, vcpu, tsc, words
        pos += size


def format_trace(defs, data, mhz=None, name="<stdin>", stats=None):
    """Render a trace. Returns (stdout bytes, stderr bytes, exit status).
    stats, a dict, collects 'rendered' (rule ids rendered without TypeError),
    'typeerror' (rule ids that raised TypeError) and 'records'."""
    out = []
    err = b""
    rc = 0
    last_tsc = 0
    if stats is not None:
        stats.setdefault("rendered", set())
        stats.setdefault("typeerror", set())
        stats.setdefault("records", 0)
    try:
        for _off, hdr, pid, vcpu, tsc_raw, words in records(data):
            event = hdr & 0x0fffffff
            tsc_in = tsc_raw is not None
            tsc = tsc_raw if tsc_in else 0
            d = list(words) + [0] * (7 - len(words))
            if last_tsc > 0 and tsc_in:
                reltsc = tsc - last_tsc
            else:
                reltsc = 0
            if tsc_in:
                last_tsc = tsc
            if mhz:
                tsc = tsc / (mhz * 1000000.0)
            args = {"tsc": tsc, "ts": tsc, "reltsc": reltsc, "relts": reltsc,
                    "event": event, "pid": pid, "vcpu": vcpu}
            for i in range(7):
                args[str(i + 1)] = d[i]
            if stats is not None:
                stats["records"] += 1
            rid = event if event in defs else 0 if 0 in defs else None
            if rid is None:
                continue
            tmpl = defs[rid]
            try:
                line = tmpl % args
                if stats is not None:
                    stats["rendered"].add(rid)
            except TypeError:
                old = {k: args[k] for k in KEYS_2008}
                line = tmpl + "\n" + repr(old)
                if stats is not None:
                    stats["typeerror"].add(rid)
            out.append((line + "\n").encode("utf-8"))
    except Truncated as t:
        err = ("%s: %s: offset 0x%x: truncated record (%d bytes needed, %d left)\n"
               % (PROG, name, t.off, t.need, t.left)).encode("utf-8")
        rc = 1
    return b"".join(out), err, rc


def is_kvmtrace(path):
    try:
        with open(path, "rb") as f:
            head = f.read(4)
    except OSError:
        return False
    return len(head) == 4 and struct.unpack("<I", head)[0] in (MAGIC, 0x78563412)


def main(argv):
    try:
        opts, args = getopt.getopt(argv[1:], "c:f:")
    except getopt.GetoptError as e:
        sys.stderr.write("%s: %s\n" % (PROG, e))
        return 2
    mhz = None
    rules = None
    for o, v in opts:
        if o == "-c":
            mhz = float(v)
        elif o == "-f":
            rules = v
    if rules is None and args and not is_kvmtrace(args[0]):
        rules = args.pop(0)
    if len(args) > 1:
        sys.stderr.write("%s: the reference reads one input\n" % PROG)
        return 2
    with open(rules if rules is not None else DEFAULT_RULES, "rb") as f:
        defs = read_defs(f.read())
    if args:
        name = args[0]
        with open(name, "rb") as f:
            data = f.read()
    else:
        name = "<stdin>"
        data = sys.stdin.buffer.read()
    out, err, rc = format_trace(defs, data, mhz, name)
    sys.stdout.buffer.write(out)
    sys.stdout.flush()
    sys.stderr.buffer.write(err)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
