#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Generate tests/unit/pyfmt-table.h: what Python's '%' operator prints.

Every row is one conversion spec applied to one value, with the bytes
Python 3 prints (or the class of error it raises), for test-pyfmt.c to
compare with src/pyfmt.c. The random choices use a fixed seed, so the
output only changes when this script or Python changes.

    tests/gen/gen-pyfmt-table.py > tests/unit/pyfmt-table.h

With --printable it prints instead the table of printable code points that
src/pyfmt.c embeds (repr() escapes every other one).

Strings are byte strings decoded as Python decodes OS data: UTF-8 with
errors='surrogateescape'; the output is encoded back the same way.
"""

import math
import random
import struct
import sys
import unicodedata

SEED = 0x6B766D74  # "kvmt"
PYTHON = (3, 11)

FLAG_CHARS = (('#', 0x01), ('0', 0x02), ('-', 0x04), (' ', 0x08), ('+', 0x10))
WIDTHS = (None, 0, 1, 5, 20, 40)
PRECS = (None, 0, 1, 3, 17, 30)
CONVS = 'diuoxXeEfFgGsrac'

ERR_NONE, ERR_INVAL, ERR_RANGE, ERR_DOM = 0, 1, 2, 3
ERR_NAMES = ('PYFMT_T_OK', 'PYFMT_T_EINVAL', 'PYFMT_T_ERANGE', 'PYFMT_T_EDOM')


def spec_text(flags, width, prec, conv):
    s = '%(v)'
    for ch, bit in FLAG_CHARS:
        if flags & bit:
            s += ch
    if width is not None:
        s += str(width)
    if prec is not None:
        s += '.' + str(prec)
    return s + conv


def expect(kind, value, flags, width, prec, conv):
    """(error class, output bytes) of Python for one row."""
    if kind == 's':
        value = value.decode('utf-8', 'surrogateescape')
    try:
        out = spec_text(flags, width, prec, conv) % {'v': value}
    except TypeError:
        return ERR_INVAL, b''
    except (OverflowError, ValueError):
        return (ERR_DOM if kind == 'f' else ERR_RANGE), b''
    try:
        # only a string argument brings surrogates that stand for bytes
        return ERR_NONE, out.encode('utf-8', 'surrogateescape'
                                    if kind == 's' else 'strict')
    except UnicodeEncodeError:
        # chr() of a surrogate: Python cannot print it to a UTF-8 stdout
        return ERR_RANGE, b''


def c_bytes(b):
    """A plain-ASCII C string literal; octal escapes cannot run on."""
    out = []
    for c in b:
        if c in (0x22, 0x5C):
            out.append('\\' + chr(c))
        elif c == 0x3F:
            out.append('\\?')  # no trigraphs, whatever the -std
        elif 0x20 <= c < 0x7F:
            out.append(chr(c))
        else:
            out.append('\\%03o' % c)
    return '"' + ''.join(out) + '"'


def c_double(x):
    if math.isnan(x):
        return '-NAN' if math.copysign(1.0, x) < 0 else 'NAN'
    if math.isinf(x):
        return '-INFINITY' if x < 0 else 'INFINITY'
    return x.hex()


def nearest_reads_back(x):
    """Do the nearest decimal digits, as many as repr(x) has, read back as x?
    Not always, at powers of two: the next double below is twice as close
    as the next one above."""
    mant = repr(x).split('e')[0].replace('-', '').replace('.', '')
    n = len(mant.strip('0'))
    return float('%.*e' % (n - 1, x)) == x


def random_double(rng):
    while True:
        x = struct.unpack('<d', rng.getrandbits(64).to_bytes(8, 'little'))[0]
        if math.isfinite(x):
            return x


INTS = [0, 1, -1, 7, -7, 9, 10, 99, 100, -100, 255, -255, 4096, 65535,
        999999999, 1000000000, 2**31 - 1, -2**31, 2**32 - 1, 2**32,
        10**15, 10**16, 2**53 + 1, 10**18, 2**63 - 1, 2**63, -2**63,
        10**19, 2**64 - 1, -(2**64 - 1)]

CHARS = [0, 9, 10, 32, 65, 0x7E, 0x7F, 0x80, 0xA0, 0xE9, 0xFF, 0x100,
         0x20AC, 0x2028, 0xD7FF, 0xD800, 0xDBFF, 0xDC80, 0xDFFF, 0xE000,
         0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF, 0x110000, -1,
         2**64 - 1, -(2**64 - 1)]

FLOATS = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, 2.5, 3.5, 0.1, 0.3, 2 / 3,
          9.5, 99.5, 100.0, 0.25, 0.125, 1e-4, 1e-5, 9.999e-5, 1e15, 1e16,
          123456.789, -123456.789, float(2**53 + 1), float(2**63),
          float(2**64), 18446744073709549568.0, 1e22, 1e23, 1e100, 1e300,
          -1e300, 1.7976931348623157e308, 2.2250738585072014e-308, 5e-324,
          0.000123456, 9.9999999, 0.99999999, 1234567.0, 1e-300,
          math.inf, -math.inf, math.nan, -math.nan]

STRS = [b'', b'a', b'x', b'hello world', b"it's", b'say "hi"',
        b'both \' and "', b'back\\slash', b'new\nline\ttab\rcr',
        b'\x00\x01\x1f\x7f', b'%(v)s', 'é'.encode(), 'naïve café'.encode(),
        '€ 20'.encode(), '😀!'.encode(), '\u2028'.encode(),
        '\xa0\xad\x85'.encode(), '\u0378\U000e0001\ufeff'.encode(),
        '\U0010ffff'.encode(), b'\xff', b'\xc3', b'a\xe2\x82b',
        b'\xed\xa0\x80', b'\xf4\x90\x80\x80', b'\xc0\xaf', b'\x80\xbf',
        'ÿ'.encode() + b'\xff', b'x' * 45]

CHAR_STRS = [b'a', b'\n', b"'", b'\x00', 'é'.encode(), '€'.encode(),
             '😀'.encode(), b'\xff', b'\xc3', b'', b'ab', 'éé'.encode(),
             b'\xe2\x82']

# Flag-mix rows use these fixed specs once per value as well
VALUE_SPECS = [(0, None, None), (0x01, None, None), (0x12, 20, None),
               (0x0C, 5, 3), (0x03, 40, 17), (0x00, 0, 30), (0x1F, 1, 0),
               (0x06, 8, None)]


def int_pool(rng):
    pool = list(INTS)
    for _ in range(40):
        pool.append(rng.getrandbits(64))
        pool.append(-rng.getrandbits(rng.randint(1, 64)))
        pool.append(rng.randrange(1000))
        pool.append(rng.getrandbits(rng.randint(1, 64)))
    return pool


def char_pool(rng):
    pool = list(CHARS)
    for _ in range(40):
        pool.append(rng.randrange(0x80))
        pool.append(rng.randrange(0x110000))
    return pool


def float_pool(rng):
    pool = list(FLOATS)
    for _ in range(40):
        pool.append(random_double(rng))
        pool.append(rng.uniform(-1e6, 1e6))
        pool.append(rng.uniform(0, 1) * 10.0**rng.randint(-30, 30))
        t = rng.getrandbits(64) >> rng.randint(0, 40)
        mhz = rng.choice((2400, 2400.5, 3.3, 2893.202, 1000))
        pool.append(t / (mhz * 1e6))
    return pool


def str_pool(rng):
    pool = list(STRS)
    alphabet = [chr(c) for c in range(0x20, 0x7F)] + list(
        '\t\n\'"\\éü€😀\u2028\x85\xa0\u0301中')
    for _ in range(20):
        n = rng.randint(1, 30)
        pool.append(''.join(rng.choice(alphabet) for _ in range(n)).encode())
        raw = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 12)))
        pool.append(raw)
    return pool


def rows_for(rng, conv, kind, pool, fixed, out):
    """Every flag subset with every width (a random precision each), then
    the fixed values with a few fixed specs."""
    for flags in range(32):
        for width in WIDTHS:
            prec = rng.choice(PRECS)
            out.append((flags, width, prec, conv, kind, rng.choice(pool)))
    for v in fixed:
        for flags, width, prec in rng.sample(VALUE_SPECS, 3):
            out.append((flags, width, prec, conv, kind, v))


def error_rows(rng, conv, kind, pool, out):
    for _ in range(12):
        out.append((rng.randrange(32), rng.choice(WIDTHS), rng.choice(PRECS),
                    conv, kind, rng.choice(pool)))


def build_rows():
    rng = random.Random(SEED)
    ints, chars = int_pool(rng), char_pool(rng)
    floats, strs = float_pool(rng), str_pool(rng)
    rows = []
    for conv in CONVS:
        if conv == 'c':
            rows_for(rng, conv, 'i', chars, CHARS, rows)
        else:
            rows_for(rng, conv, 'i', ints, INTS, rows)
        if conv in 'xXoc':
            error_rows(rng, conv, 'f', floats, rows)
        else:
            rows_for(rng, conv, 'f', floats, FLOATS, rows)
        if conv == 'c':
            rows_for(rng, conv, 's', CHAR_STRS, CHAR_STRS, rows)
        elif conv in 'sra':
            rows_for(rng, conv, 's', strs, STRS, rows)
        else:
            error_rows(rng, conv, 's', strs, rows)
    # '#g' where rounding carries into the exponent that picks e-style:
    # glibc 2.36 prints '%#.2g' % 99.666 as '1.e+02', Python '1.0e+02'
    for conv in 'gG':
        for v in (99.666, -99.97, 999.7, 9.96, 0.99996, 9.95e-5, 9999999.6,
                  0.0, 95.0):
            for prec in (None, 0, 1, 2, 3, 5):
                rows.append((0x01, rng.choice(WIDTHS), prec, conv, 'f', v))
    # repr(float): the powers of two whose shortest digits are not the
    # nearest ones of that length (all of them), other powers of two,
    # numbers near the switch to exponent form, random doubles
    powers = [2.0**k for k in range(-1074, 1024)]
    hard = [v for v in powers if not nearest_reads_back(v)]
    near = [10.0**k * m for k in range(-7, 19) for m in (1, 1.5, 9.999999)]
    for v in (hard + rng.sample(powers, 200) + near
              + [random_double(rng) for _ in range(600)]):
        rows.append((0, None, None, 'r', 'f', v))
    return rows


def emit_table(out):
    if sys.version_info[:2] != PYTHON:
        sys.stderr.write('warning: the table is meant for Python %d.%d\n'
                         % PYTHON)
    rows = build_rows()
    out.write('/* SPDX-License-Identifier: GPL-2.0-or-later */\n')
    out.write('/*\n * Generated by tests/gen/gen-pyfmt-table.py '
              '(Python %d.%d.%d, seed 0x%x):\n * do not edit.\n'
              % (sys.version_info[:3] + (SEED,)))
    out.write(' * One row: a spec, a value, and what Python\'s % operator '
              'prints for them.\n */\n')
    out.write('''#ifndef KTF_PYFMT_TABLE_H
#define KTF_PYFMT_TABLE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

enum pyfmt_t_err {
\tPYFMT_T_OK = 0,
\tPYFMT_T_EINVAL,\t/* TypeError */
\tPYFMT_T_ERANGE,\t/* OverflowError, or chr() of a surrogate */
\tPYFMT_T_EDOM,\t/* int() of inf or nan */
};

struct pyfmt_t_row {
\tunsigned flags;
\tint width;
\tint prec;
\tchar conv;
\tchar kind;\t\t/* 'i' neg/mag, 'f' f, 's' s/slen */
\tint neg;
\tuint64_t mag;
\tdouble f;
\tconst char *s;
\tsize_t slen;
\tint err;\t\t/* enum pyfmt_t_err */
\tconst char *out;
\tsize_t outlen;
};

/* clang-format off */
static const struct pyfmt_t_row pyfmt_t_rows[] = {
''')
    for flags, width, prec, conv, kind, v in rows:
        err, res = expect(kind, v, flags, width, prec, conv)
        neg, mag, f, s, slen = 0, 0, '0', 'NULL', 0
        if kind == 'i':
            neg, mag = int(v < 0), abs(v)
        elif kind == 'f':
            f = c_double(v)
        else:
            s, slen = c_bytes(v), len(v)
        out.write('\t{ 0x%02x, %d, %d, \'%s\', \'%s\', %d, 0x%xull, %s, '
                  '%s, %d, %s, %s, %d },\n'
                  % (flags, -1 if width is None else width,
                     -1 if prec is None else prec, conv, kind, neg, mag, f,
                     s, slen, ERR_NAMES[err], c_bytes(res), len(res)))
    out.write('};\n/* clang-format on */\n\n#endif\n')


def printable_ranges():
    """Ranges [first, last] of the code points >= U+0080 that
    str.isprintable() accepts."""
    ranges = []
    start = None
    for cp in range(0x80, 0x110000):
        if chr(cp).isprintable():
            if start is None:
                start = cp
        elif start is not None:
            ranges.append((start, cp - 1))
            start = None
    if start is not None:
        ranges.append((start, 0x10FFFF))
    return ranges


def emit_printable(out):
    r = printable_ranges()
    out.write('/*\n * Generated by tests/gen/gen-pyfmt-table.py --printable '
              '(Python %d.%d,\n * Unicode %s): the code points >= U+0080 '
              'that str.isprintable() accepts.\n */\n'
              % (sys.version_info[:2] + (unicodedata.unidata_version,)))
    out.write('/* clang-format off */\n')
    out.write('static const uint32_t pyfmt_printable[][2] = {\n')
    for i in range(0, len(r), 3):
        out.write('\t' + ' '.join('{ 0x%05x, 0x%05x },' % p
                                  for p in r[i:i + 3]) + '\n')
    out.write('};\n/* clang-format on */\n')


def main(argv):
    if argv[1:] == ['--printable']:
        emit_printable(sys.stdout)
    elif argv[1:] == []:
        emit_table(sys.stdout)
    else:
        sys.stderr.write('usage: %s [--printable]\n' % argv[0])
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
