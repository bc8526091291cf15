#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Generate the differential CLI suite (tests/cli/diff.t).

  python3 tests/gen/gen-differential.py [--seed N] [--cases N] [--top DIR]

The defaults write the committed suite. Another seed and --top DIR write a
throw-away suite into DIR (link DIR/formats to the tree's formats and run
tests/cli/run.sh with KTF_SRCDIR=DIR) to fuzz the C tool further.

Writes, from a fixed seed, tests/fixtures/diff/NNN.bin (a kvmtrace stream)
and NNN.formats (a classic rule file), and tests/cli/diff/NNN.cmd with the
expected NNN.out, NNN.err and NNN.rc, computed by the reference
tests/gen/ref_kvmtrace_format.py (the 2008 tool on Python 3's % operator).

Random traces: event ids from a pool (some with rules, some without,
sometimes no rule 0), n_data 0..7, TSC on ~90% of the records, TSCs mostly
rising but sometimes backwards or 0, u32 edges; little-endian without magic,
with magic, big-endian; some cut at a random byte; with and without -c.
Random rule files: comments, blank lines, ids in hex/decimal/octal/binary,
templates of literal text and %(key)[flags][width][.prec][hlL]conv
conversions. The generator asserts that every subset of the flags '#0- +'
meets every conversion in a template the reference rendered (not just
wrote), and prints the coverage.
"""

import itertools
import os
import random
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import ref_kvmtrace_format as ref  # noqa: E402

FIXDIR = "tests/fixtures/diff"
CLIDIR = "tests/cli/diff"
SEED = 20080331
NCASES = 60
SIZE_LIMIT = 1500 * 1024

FLAGS = "#0- +"
CONVS = "diouxXeEfFgGsrac"
INT_ONLY = "xXoc"  # TypeError for a float (tsc under -c)
KEYS = ["tsc", "ts", "reltsc", "relts", "event", "pid", "vcpu",
        "1", "2", "3", "4", "5", "6", "7"]
CHAR_KEYS = ["1", "2", "3", "4", "5", "6", "7", "pid", "vcpu"]
MHZS = ["2400", "2394.5", "3.3", "1000", "0.5", "2666.666", "1", "3000.25"]
SHIPPED = "formats/kvmtrace"
UTF8_LIT = "µé→ß€ü✓"

ALL_COMBOS = {(f, c) for f in
              ("".join(s) for n in range(6) for s in itertools.combinations(FLAGS, n))
              for c in CONVS}
covered = set()


def flagset(s):
    return "".join(f for f in FLAGS if f in s)


def spec_combo(spec):
    """(flag subset, conversion) of a conversion as Python parses it:
    spec is the text after '%(key)'."""
    i = 0
    while i < len(spec) and spec[i] in FLAGS:
        i += 1
    return flagset(spec[:i]), spec[-1]


# ------------------------------------------------------------------ values

def u32(r):
    x = r.random()
    if x < 0.05:
        return 0
    if x < 0.10:
        return 0xffffffff
    if x < 0.14:
        return r.choice([0x7fffffff, 0x80000000, 1, 0xfffffffe])
    if x < 0.34:
        return r.randrange(256)
    if x < 0.49:
        return r.randrange(65536)
    return r.getrandbits(32)


def charval(r):
    """A code point %c can print: 0..0x10ffff without surrogates."""
    x = r.random()
    if x < 0.04:
        return 0
    if x < 0.55:
        return r.randrange(0x20, 0x7f)
    if x < 0.62:
        return r.randrange(1, 0x20)
    if x < 0.75:
        return r.randrange(0x80, 0x800)
    if x < 0.90:
        v = r.randrange(0x800, 0x10000 - 0x800)
        return v if v < 0xd800 else v + 0x800
    return r.randrange(0x10000, 0x110000)


class TscGen:
    def __init__(self, r):
        self.r = r
        self.t = r.choice([r.randrange(1000), r.randrange(10**12, 10**15),
                           r.randrange(10**15, 10**18),
                           (1 << 63) - r.randrange(10**9),
                           (1 << 64) - r.randrange(10**12, 10**13)])

    def next(self):
        r = self.r
        x = r.random()
        if x < 0.03:
            return 0
        if x < 0.05:
            return (1 << 64) - 1 - r.randrange(1000)
        if x < 0.10:
            self.t -= r.randrange(1, 10**r.randrange(1, 12))
        else:
            self.t += int(10 ** (r.random() * 9))
        self.t %= 1 << 64
        return self.t


# ------------------------------------------------------------------ traces

def make_trace(r, n, pool, char_events, order="le", magic=False,
               tsc_p=0.9, unknown_p=0.08, ndata_fn=None):
    """The bytes of a kvmtrace stream of n records, and the record offsets."""
    e = ">" if order == "be" else "<"
    out = bytearray()
    if magic:
        out += struct.pack(e + "I", ref.MAGIC)
    tg = TscGen(r)
    offs = []
    for i in range(n):
        if pool and r.random() >= unknown_p:
            ev = r.choice(pool)
        else:
            ev = r.choice([r.getrandbits(28), r.randrange(1, 64),
                           r.randrange(0x10000, 0x30000)])
        ch = ev in char_events
        nd = ndata_fn(r) if ndata_fn else r.randrange(8)
        has_tsc = r.random() < tsc_p
        hdr = ev | nd << 28 | (1 << 31 if has_tsc else 0)
        if i == 0 and not magic and hdr in (ref.MAGIC, 0x78563412):
            hdr ^= 1 << 31  # do not start with a magic word by chance
            has_tsc = not has_tsc
        val = charval if ch else u32
        offs.append(len(out))
        out += struct.pack(e + "III", hdr, val(r), val(r))
        if has_tsc:
            out += struct.pack(e + "Q", tg.next())
        for _ in range(nd):
            out += struct.pack(e + "I", val(r))
    return bytes(out), offs


def cut(r, data, offs):
    """Cut a trace at a random byte inside one of its last records."""
    first = max(0, len(offs) - max(3, len(offs) // 4))
    rec = r.randrange(first, len(offs))
    end = offs[rec + 1] if rec + 1 < len(offs) else len(data)
    return data[:r.randrange(offs[rec] + 1, end)]


# ------------------------------------------------------------------ rules

def id_literal(r, v):
    forms = ["0x%x", "0X%X", "0x%08x", "%d", "0o%o", "0O%o", "0%o", "bin"]
    f = r.choice(forms)
    if f == "%d" and v == 0:
        s = "0"
    elif f == "bin":
        s = "0b" + format(v, "b")
    elif f == "0%o":
        s = "0%o" % v
    else:
        s = f % v
    if r.random() < 0.05:
        s += r.choice("Ll")
    assert ref.parse_id(s) == v, s
    return s


def literal(r, n, utf8):
    s = []
    for _ in range(n):
        x = r.random()
        if x < 0.06:
            s.append("\t")
        elif x < 0.12:
            s.append("%%")
        elif utf8 and x < 0.17:
            s.append(r.choice(UTF8_LIT))
        else:
            c = chr(r.randrange(0x20, 0x7f))
            s.append("%%" if c == "%" else c)
    return "".join(s)


class Ctx:
    """What a case allows in its templates."""

    def __init__(self, r, mhz, utf8=False, typeerror_p=0.0):
        self.r = r
        self.mhz = mhz
        self.utf8 = utf8
        self.typeerror_p = typeerror_p


def pick_combo(r, charok):
    todo = [c for c in ALL_COMBOS - covered if charok or c[1] != "c"]
    if todo and r.random() < 0.7:
        return r.choice(sorted(todo))
    while True:
        f = "".join(x for x in FLAGS if r.random() < 0.3)
        c = r.choice(CONVS)
        if charok or c != "c":
            return f, c


def conversion(ctx, charok, combo=None):
    r = ctx.r
    flags, conv = combo or pick_combo(r, charok)
    fl = list(flags)
    r.shuffle(fl)
    if fl and r.random() < 0.05:
        fl.insert(r.randrange(len(fl) + 1), r.choice(fl))
    width = ""
    if r.random() < 0.5:
        w = r.randrange(0, 41)
        width = str(w)  # width 0 reads as the flag 0, as in Python
    prec = ""
    x = r.random()
    if x < 0.03:
        prec = "."
    elif x < 0.45:
        prec = "." + str(r.randrange(0, 26))
    length = r.choice(["", "", "", "", "", "h", "l", "L"])
    if conv == "c":
        if ctx.mhz and r.random() < ctx.typeerror_p:
            key = r.choice(["tsc", "ts"])
        else:
            assert charok
            key = r.choice(CHAR_KEYS)
    elif ctx.mhz and conv in INT_ONLY and r.random() < ctx.typeerror_p:
        key = r.choice(["tsc", "ts"])
    else:
        key = r.choice(KEYS + ["tsc", "reltsc"])
        if ctx.mhz and conv in INT_ONLY and key in ("tsc", "ts"):
            key = r.choice(KEYS[2:])
    return "%(" + key + ")" + "".join(fl) + width + prec + length + conv


def template(ctx, charok, nconv=None, combos=None):
    r = ctx.r
    if combos is not None:
        nconv = len(combos)
    elif nconv is None:
        nconv = r.choice([0, 1, 1, 2, 2, 3, 3, 4, 5])
    parts = [literal(r, r.choice([0, 1, 2, 4, 8]), ctx.utf8)]
    for i in range(nconv):
        parts.append(conversion(ctx, charok, combos[i] if combos else None))
        parts.append(literal(r, r.choice([0, 1, 1, 2, 3, 6]), ctx.utf8))
    if r.random() < 0.15:
        parts.append(r.choice([" ", "  ", "\t", " \t "]))
    t = "".join(parts)
    if not t.strip(" \t"):
        t = "x" + t
    if t[0] in " \t" and r.random() < 0.7:
        t = t.lstrip(" \t")  # mostly; else the regex eats the blanks
    return t


def comment(r):
    return "#" + literal(r, r.randrange(0, 30), False).replace("%%", "%")


def rule_file(r, rules, crlf=False, final_nl=True):
    """rules: [(id, template)]; with comments and blank lines between."""
    lines = []
    if r.random() < 0.6:
        lines.append(comment(r))
    for rid, tmpl in rules:
        while r.random() < 0.15:
            lines.append(r.choice(["", comment(r)]))
        sep = r.choice([" ", " ", "\t", "  ", " \t", "    "])
        lines.append(id_literal(r, rid) + sep + tmpl)
    nl = "\r\n" if crlf else "\n"
    text = nl.join(lines)
    if final_nl:
        text += nl
    return text.encode("utf-8")


# ------------------------------------------------------------------ cases

cases = []  # dicts: name, cmd, bin, formats, out, err, rc


def effective_specs(rules):
    """{id: [combo]} of the rules that win (later duplicates win)."""
    eff = {}
    for rid, tmpl in rules:
        eff[rid] = tmpl
    res = {}
    for rid, tmpl in eff.items():
        combos = []
        i = 0
        while True:
            i = tmpl.find("%", i)
            if i < 0:
                break
            if tmpl[i + 1] == "%":
                i += 2
                continue
            j = tmpl.index(")", i)
            k = j + 1
            while tmpl[k] not in CONVS:
                k += 1
            combos.append(spec_combo(tmpl[j + 1:k + 1]))
            i = k + 1
        res[rid] = combos
    return res


def add_case(kind, data, rules_bytes, mhz=None, how="stdin", rules=None):
    """how: stdin ($KTF F < B), farg ($KTF -f F B), pos ($KTF F B),
    shipped-stdin, shipped-farg, builtin-stdin, builtin-pos."""
    name = "%03d" % (len(cases) + 1)
    b = "%s/%s.bin" % (FIXDIR, name)
    f = "%s/%s.formats" % (FIXDIR, name)
    c = "-c %s " % mhz if mhz else ""
    if how.startswith("shipped"):
        with open(os.path.join(TOP, SHIPPED), "rb") as fd:
            rules_bytes = fd.read()
        f = SHIPPED
    elif how.startswith("builtin"):
        with open(os.path.join(TOP, SHIPPED), "rb") as fd:
            rules_bytes = fd.read()
        f = None
    cmd = {
        "stdin": "$KTF %s%s < %s" % (c, f, b),
        "farg": "$KTF %s-f %s %s" % (c, f, b),
        "pos": "$KTF %s%s %s" % (c, f, b),
        "shipped-stdin": "$KTF %s%s < %s" % (c, f, b),
        "shipped-farg": "$KTF %s-f %s %s" % (c, f, b),
        "builtin-stdin": "$KTF %s< %s" % (c, b),
        "builtin-pos": "$KTF %s%s" % (c, b),
    }[how]
    if how == "builtin-pos":
        assert data[:4] in (struct.pack("<I", ref.MAGIC), struct.pack(">I", ref.MAGIC))
    defs = ref.read_defs(rules_bytes)
    stats = {}
    out, err, rc = ref.format_trace(defs, data, float(mhz) if mhz else None,
                                    "<stdin>" if "stdin" in how else b, stats)
    if rules is not None:
        eff = effective_specs(rules)
        for rid in stats["rendered"]:
            covered.update(eff.get(rid, ()))
    cases.append(dict(name=name, kind=kind, cmd=cmd, bin=data,
                      formats=None if f in (None, SHIPPED) else rules_bytes,
                      out=out, err=err, rc=rc, stats=stats))
    return cases[-1]


def random_pool(r):
    pool = []
    for _ in range(r.randrange(3, 11)):
        x = r.random()
        if x < 0.3:
            pool.append(r.randrange(0x00010001, 0x00010003) if r.random() < 0.3
                        else r.randrange(0x00020001, 0x0002001a))
        elif x < 0.5:
            pool.append(r.randrange(1, 300))
        elif x < 0.55:
            pool.append(0)
        else:
            pool.append(r.getrandbits(28))
    return sorted(set(pool))


def random_case(r, kind="random", **kw):
    mhz = kw.get("mhz", r.choice(MHZS) if r.random() < 0.35 else None)
    ctx = Ctx(r, mhz, utf8=r.random() < 0.15,
              typeerror_p=kw.get("typeerror_p", 0.12 if r.random() < 0.4 else 0.0))
    pool = random_pool(r)
    char_events = set(e for e in pool if e != 0 and r.random() < 0.3)
    rules = []
    for ev in pool:
        if ev == 0 or r.random() < 0.75:
            rules.append((ev, template(ctx, ev in char_events)))
    have0 = kw.get("rule0", r.random() < 0.7)
    rules = [x for x in rules if x[0] != 0 or have0]
    if have0 and not any(x[0] == 0 for x in rules):
        rules.insert(r.randrange(len(rules) + 1), (0, template(ctx, False)))
    # duplicates (the later wins) and dead rules
    if rules and r.random() < 0.25:
        rid, _ = r.choice(rules)
        rules.insert(r.randrange(len(rules) + 1), (rid, template(ctx, rid in char_events)))
    if r.random() < 0.15:
        rules.append((r.choice([0x10000000, 0xffffffff, 0x10000000 + r.getrandbits(36)]),
                      template(ctx, True)))
    if not rules:
        rules.append((pool[0], template(ctx, pool[0] in char_events)))
    order = r.choice(["le", "le", "le-magic", "be-magic"])
    n = int(50 * 8 ** r.random())
    data, offs = make_trace(r, n, pool, char_events, order[:2],
                            order.endswith("magic"))
    if kw.get("truncate", r.random() < 0.2):
        data = cut(r, data, offs)
    how = r.choice(["stdin", "stdin", "farg", "pos"])
    fb = rule_file(r, rules, crlf=kw.get("crlf", r.random() < 0.05),
                   final_nl=kw.get("final_nl", r.random() > 0.05))
    return add_case(kind, data, fb, mhz, how, rules)


def edge_case(r, kind, mhz, tscs, ints, convs, keys):
    """One rule per conversion (event 1 + its index) with a grid of flags
    and precisions over keys; every record carries an edge tsc and an edge
    data word 1."""
    grid = [(f, w, p) for f in ("", "#", "0", "-", "+", " ", "#0+", "- #")
            for w, p in (("", ""), ("", ".0"), ("7", ".3"), ("", ".17"))]
    rules = []
    for i, c in enumerate(convs):
        specs = []
        for k in keys:
            specs += ["%%(%s)%s%s%s%s" % (k, f, w, p, c) for f, w, p in grid]
        rules.append((1 + i, c + ": " + "|".join(specs)))
    out = bytearray()
    n = max(len(tscs), len(ints))
    for j in range(n):
        for i in range(len(convs)):
            hdr = (1 + i) | 1 << 28 | 1 << 31
            out += struct.pack("<IIIQI", hdr, 0, 0, tscs[j % len(tscs)],
                               ints[(j + i) % len(ints)])
    return add_case(kind, bytes(out), rule_file(r, rules), mhz, "stdin", rules)


def shipped_pool():
    defs = ref.read_defs(open(os.path.join(TOP, SHIPPED), "rb").read())
    return sorted(k for k in defs if k)


def main():
    global NCASES
    import getopt
    opts, _ = getopt.getopt(sys.argv[1:], "", ["seed=", "cases=", "top="])
    seed, top = SEED, TOP
    for o, v in opts:
        if o == "--seed":
            seed = int(v)
        elif o == "--cases":
            NCASES = int(v)
        elif o == "--top":
            top = v
    r = random.Random(seed)
    os.makedirs(top, exist_ok=True)
    os.chdir(top)
    sp = shipped_pool()

    def sh_trace(n, order="le", magic=False, unknown_p=0.05):
        return make_trace(r, n, sp, set(), order, magic, unknown_p=unknown_p,
                          ndata_fn=lambda rr: rr.choice([0, 1, 2, 3, 3, 5, 7]))

    # the shipped rules, from the file and built in
    d, _ = sh_trace(150)
    add_case("shipped", d, None, how="shipped-stdin")
    d, o = sh_trace(120, "be", True)
    add_case("shipped-be-truncated", cut(r, d, o), None, how="shipped-farg")
    d, _ = sh_trace(100, "le", True)
    add_case("builtin", d, None, how="builtin-stdin")
    d, _ = sh_trace(80)
    add_case("builtin-mhz", d, None, mhz="2394.5", how="builtin-stdin")
    d, o = sh_trace(90, "le", True)
    add_case("builtin-magic-input-truncated", cut(r, d, o), None, how="builtin-pos")
    d, _ = sh_trace(60, "be", True)
    add_case("builtin-be-input-mhz", d, None, mhz="3.3", how="builtin-pos")
    d, _ = sh_trace(60, "le", False)
    add_case("shipped-mhz-farg", d, None, mhz="2400", how="shipped-farg")

    # tiny streams
    ctx = Ctx(r, None)
    tiny_rules = [(0, template(ctx, False)), (1, template(ctx, False))]
    tb = rule_file(r, tiny_rules)
    add_case("tiny-3-bytes", b"\x01\x00\x00", tb, how="stdin", rules=tiny_rules)
    add_case("magic-plus-7", struct.pack("<I", ref.MAGIC) + bytes(range(1, 8)),
             tb, how="farg", rules=tiny_rules)
    add_case("magic-only", struct.pack("<I", ref.MAGIC), tb, how="stdin")
    add_case("be-magic-only", struct.pack(">I", ref.MAGIC), tb, how="pos")
    # a header, then its TSC missing
    hdr = struct.pack("<III", 1 | 1 << 31 | 2 << 28, 5, 6)
    good = struct.pack("<IIIQ", 1 | 1 << 31, 7, 8, 12345)
    add_case("cut-before-tsc", good + hdr, tb, how="farg", rules=tiny_rules)
    add_case("cut-in-data", good + hdr + struct.pack("<QI", 99, 1), tb,
             how="stdin", rules=tiny_rules)

    # %c on small values with every flag subset
    ctx = Ctx(r, None)
    fsubs = sorted({f for f, _ in ALL_COMBOS})
    rules = []
    for k in range(0, len(fsubs), 4):
        rules.append((0x40 + k, template(ctx, True, combos=[(f, "c") for f in fsubs[k:k + 4]])))
    pool = [x[0] for x in rules]
    d, _ = make_trace(r, 120, pool, set(pool), unknown_p=0)
    add_case("char", d, rule_file(r, rules), how="stdin", rules=rules)

    # TypeError: %x/%o/%c of the float tsc under -c
    ctx = Ctx(r, "1000", typeerror_p=1.0)
    rules = [(0, "%(tsc)x " + template(Ctx(r, "1000"), False)),
             (5, template(Ctx(r, "1000"), False)),
             (6, "[%(ts)#o] %(event)d"),
             (7, "%(pid)d %(tsc)5c"),
             (8, template(ctx, True, nconv=3))]
    d, _ = make_trace(r, 100, [5, 6, 7, 8], {8}, tsc_p=0.8)
    add_case("typeerror", d, rule_file(r, rules), mhz="1000", how="farg", rules=rules)

    # rules: only rule 0; no rule 0; duplicates; CRLF; no final newline
    random_case(r, "no-rule0", rule0=False)
    ctx = Ctx(r, None)
    rules = [(0, template(ctx, False))]
    d, _ = make_trace(r, 80, [1, 2, 0x20001], set())
    add_case("only-rule0", d, rule_file(r, rules), how="stdin", rules=rules)
    rules = [(3, "first %(1)d"), (4, "four %(2)x"), (3, "second %(1)x"),
             (0, "zero %(event)d"), (4, "four again %(3)o"), (0, "zero again %(event)#x")]
    d, _ = make_trace(r, 60, [3, 4, 9], set())
    add_case("duplicates", d, rule_file(r, rules), how="stdin", rules=rules)
    random_case(r, "crlf", crlf=True)
    random_case(r, "no-final-newline", final_nl=False)

    # -c at the slowest clock it takes (1 kHz): floats far beyond 2**53
    ctx = Ctx(r, "0.001")
    rules = [(0, "%(tsc)d %(ts)s %(tsc).3f %(ts)r %(tsc)e %(relts)d"),
             (2, template(ctx, False))]
    d, _ = make_trace(r, 60, [1, 2], set())
    add_case("tiny-mhz", d, rule_file(r, rules), mhz="0.001", how="stdin", rules=rules)

    # edge values through a fixed grid of specs
    edge_ints = [0, 1, 7, 8, 9, 10, 15, 16, 255, 0x7fffffff, 0x80000000,
                 0xfffffffe, 0xffffffff]
    edge_tscs = [1, 2**64 - 1, 0, 2**53 - 1, 2**53, 2**53 + 1, 2**63 - 1, 2**63,
                 1, 10**16, 10**17 - 1, 123456789012345678, 99999999999999999]
    edge_case(r, "edges-int", None, edge_tscs, edge_ints, "diouxXeEfFgGsra",
              ["tsc", "reltsc", "1"])
    # floats: exact halves and quarters (ties), powers of ten, 2**53 region
    edge_case(r, "edges-float", "1",
              [500000, 1500000, 2500000, 250000, 125000, 375000, 1, 5, 99999,
               100000, 950000, 9500000, 99995000, 10**16, 10**15, 10**19,
               2**64 - 1, 123456789, 0],
              edge_ints, "diueEfFgGsra", ["tsc"])
    edge_case(r, "edges-float-exact", "0.001",
              [10**16, 10**16 - 2, 2**53 + 2, 10**15, 123456789012345678,
               2**64 - 1, 10**17, 1, 999999999999999999, 9999999999999998],
              edge_ints, "diueEfFgGsra", ["tsc"])

    while len(cases) < NCASES:
        random_case(r)

    # sweeps for what the random cases left
    sweeps = 0
    while ALL_COMBOS - covered:
        sweeps += 1
        assert sweeps < 10, "coverage does not converge"
        todo = sorted(ALL_COMBOS - covered)
        ctx = Ctx(r, None)
        rules = []
        for k in range(0, len(todo), 4):
            chunk = todo[k:k + 4]
            rules.append((0x100 + k, template(ctx, True, combos=chunk)))
        pool = [x[0] for x in rules]
        d, _ = make_trace(r, max(50, 3 * len(pool)), pool, set(pool), unknown_p=0)
        add_case("sweep", d, rule_file(r, rules), how="stdin", rules=rules)

    # equal stamps in a row (relts 0, not negative), a stamp of 0 between,
    # records without one, both through the shipped rules' head step and
    # a rule of its own; last, as the random state no longer matters
    tscs = [100, 100, 100, 50, 50, 0, 0, None, 7, 7, None, 2**64 - 1,
            2**64 - 1, 3, 3]
    d = b""
    for k, t in enumerate(tscs):
        ev = 0x10002 if k % 2 else 1
        if t is None:
            d += struct.pack("<IIII", ev | 1 << 28, 9, 2, k)
        else:
            d += struct.pack("<IIIQI", ev | 1 << 31 | 1 << 28, 9, 2, t, k)
    rules = [(1, "%(tsc)d %(relts)d [%(relts)5d] %(relts)+d %(reltsc)d %(1)d"),
             (0, "%(ts)d (+%(relts)12d)  other vcpu = 0x%(vcpu)08x  pid = 0x%(pid)08x")]
    add_case("equal-stamps", d, rule_file(r, rules), how="stdin", rules=rules)
    add_case("equal-stamps-shipped", d, None, how="shipped-stdin")

    # the head step's stamps as the last one's digits plus relts': carries
    # through all the low 8 digits and out of them, relts of 1 to 4
    # digits, 5 to 8 and more, 0, a step back, records without a stamp,
    # the digit count growing (8 to 9, 10 to 11, 16 to 17)
    steps = [1, 9, 1, 10000, 99999999, 100000000, 0, 12345, -7, 3,
             None, 4321, 89999999, 1, 55, 99999999, 100000001]
    t = 123499999990
    tscs = [t]
    for st in steps:
        if st is None:
            tscs.append(None)
            continue
        t += st
        tscs.append(t)
    tscs += [99999990, 99999999, 100000000, 100000001, 9999999999,
             10000000000, 9999999999999990, 9999999999999999,
             10000000000000000, 10000000000000009, 5, 10]
    d = b""
    for k, t in enumerate(tscs):
        ev = 0x10002 if k % 3 else 0x10001
        if t is None:
            d += struct.pack("<IIIIII", ev | 3 << 28, 9, 2, k, 0, 0)
        else:
            d += struct.pack("<IIIQIII", ev | 1 << 31 | 3 << 28, 9, 2, t,
                             k, 0xdead, 0xbeef)
    add_case("digit-carries-shipped", d, None, how="shipped-stdin")

    # a value as the step wrote it last (the renderer's memo): the same
    # again, another, 0 first (the empty memo holds 0's text) and between
    ids = [0, 0, 5, 5, 0, 0xfffffff, 0xfffffff, 0, 0x10002, 0x10002]
    d = b""
    for k, ev in enumerate(ids):
        d += struct.pack("<IIIQI", ev | 1 << 31 | 1 << 28, 9 + k // 3, 2,
                         1000 + k, k)
    rules = [(0, "%(event)x|%(event)#x|%(event)X|%(event)#X|%(event)d|%(pid)d|%(pid)x")]
    add_case("memo-values", d, rule_file(r, rules), how="stdin", rules=rules)

    write()
    report(seed == SEED and top == TOP)


def write():
    for dname, exts in ((FIXDIR, (".bin", ".formats")),
                        (CLIDIR, (".cmd", ".out", ".err", ".rc"))):
        os.makedirs(dname, exist_ok=True)
        for fn in os.listdir(dname):
            if fn.endswith(exts):
                os.unlink(os.path.join(dname, fn))
    for c in cases:
        n = c["name"]
        with open("%s/%s.bin" % (FIXDIR, n), "wb") as f:
            f.write(c["bin"])
        if c["formats"] is not None:
            with open("%s/%s.formats" % (FIXDIR, n), "wb") as f:
                f.write(c["formats"])
        with open("%s/%s.cmd" % (CLIDIR, n), "w") as f:
            f.write("# %s\n%s\n" % (c["kind"], c["cmd"]))
        with open("%s/%s.out" % (CLIDIR, n), "wb") as f:
            f.write(c["out"])
        if c["err"]:
            with open("%s/%s.err" % (CLIDIR, n), "wb") as f:
                f.write(c["err"])
        if c["rc"]:
            with open("%s/%s.rc" % (CLIDIR, n), "w") as f:
                f.write("%d\n" % c["rc"])
    with open("tests/cli/diff.t", "w") as f:
        f.write("diff/*\n")


def report(check_size=True):
    size = 0
    for dname in (FIXDIR, CLIDIR):
        for fn in os.listdir(dname):
            size += os.path.getsize(os.path.join(dname, fn))
    missing = ALL_COMBOS - covered
    print("cases: %d (%d truncated, %d with -c, %d stdin)" % (
        len(cases), sum(1 for c in cases if c["rc"]),
        sum(1 for c in cases if " -c " in c["cmd"]),
        sum(1 for c in cases if " < " in c["cmd"])))
    print("records: %d, TypeError rules: %d" % (
        sum(c["stats"]["records"] for c in cases),
        sum(len(c["stats"]["typeerror"]) for c in cases)))
    print("coverage: %d/%d (flag subset x conversion) rendered" % (
        len(ALL_COMBOS & covered), len(ALL_COMBOS)))
    for conv in CONVS:
        n = sum(1 for f, c in covered if c == conv)
        print("  %%%s: %d/32 flag subsets" % (conv, n))
    print("size: %d bytes in %s and %s" % (size, FIXDIR, CLIDIR))
    assert not missing, sorted(missing)
    assert size < SIZE_LIMIT or not check_size, size


if __name__ == "__main__":
    main()
