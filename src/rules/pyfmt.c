// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Python 3.11's '%' conversions, after unicode_format_arg_output() and
 * friends in CPython's Objects/unicodeobject.c:
 *
 *  - numbers get a sign ('-', or '+' / ' ' from the flags), then the "0x"
 *    style prefix of '#', then the '0' fill, then the digits; '-' pads on
 *    the right with spaces and beats '0'. Inf and nan are zero-filled too
 *    ('%05f' % inf == '00inf'), unlike C's printf.
 *  - on integers the precision is a minimum digit count and 0 still prints
 *    a digit ('%.0d' % 0 == '0').
 *  - strings (s r a c) are padded with spaces only; precision truncates
 *    s r a to that many characters and is ignored by c.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pyfmt.h"
#include "pyfmt-int.h"

/* Digits of the integer part of DBL_MAX */
#define PYFMT_DBL_DIG10 309
/* Longest str(int) or repr(float): "-2.2250738585072014e-308" */
#define PYFMT_REPR_MAX 24
/*
 * Scratch room past the output that pyfmt_bound() grants: a run of digits
 * or padding may be stored as whole 8- or 16-byte words, up to 16 bytes
 * past its end.
 */
#define PYFMT_SLACK 16
/* Longest e/f/g body for precision p, without sign, with snprintf's NUL */
#define PYFMT_FLOAT_CAP(p) (PYFMT_DBL_DIG10 + 1 + (size_t)(p) + 8)

const uint64_t pyfmt_pow10[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
	10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
	100000000000ull, 1000000000000ull, 10000000000000ull,
	100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	100000000000000000ull, 1000000000000000000ull,
	10000000000000000000ull,
};

const char pyfmt_dig2[200] = "00010203040506070809"
				    "10111213141516171819"
				    "20212223242526272829"
				    "30313233343536373839"
				    "40414243444546474849"
				    "50515253545556575859"
				    "60616263646566676869"
				    "70717273747576777879"
				    "80818283848586878889"
				    "90919293949596979899";

const char pyfmt_hex_lower[16] = "0123456789abcdef";

/* "00" "01" … "ff", then "00" … "FF" */
const char pyfmt_hex2[2][512] = {
	{
		"000102030405060708090a0b0c0d0e0f"
		"101112131415161718191a1b1c1d1e1f"
		"202122232425262728292a2b2c2d2e2f"
		"303132333435363738393a3b3c3d3e3f"
		"404142434445464748494a4b4c4d4e4f"
		"505152535455565758595a5b5c5d5e5f"
		"606162636465666768696a6b6c6d6e6f"
		"707172737475767778797a7b7c7d7e7f"
		"808182838485868788898a8b8c8d8e8f"
		"909192939495969798999a9b9c9d9e9f"
		"a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"
		"b0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
		"c0c1c2c3c4c5c6c7c8c9cacbcccdcecf"
		"d0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
		"e0e1e2e3e4e5e6e7e8e9eaebecedeeef"
		"f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"
	},
	{
		"000102030405060708090A0B0C0D0E0F"
		"101112131415161718191A1B1C1D1E1F"
		"202122232425262728292A2B2C2D2E2F"
		"303132333435363738393A3B3C3D3E3F"
		"404142434445464748494A4B4C4D4E4F"
		"505152535455565758595A5B5C5D5E5F"
		"606162636465666768696A6B6C6D6E6F"
		"707172737475767778797A7B7C7D7E7F"
		"808182838485868788898A8B8C8D8E8F"
		"909192939495969798999A9B9C9D9E9F"
		"A0A1A2A3A4A5A6A7A8A9AAABACADAEAF"
		"B0B1B2B3B4B5B6B7B8B9BABBBCBDBEBF"
		"C0C1C2C3C4C5C6C7C8C9CACBCCCDCECF"
		"D0D1D2D3D4D5D6D7D8D9DADBDCDDDEDF"
		"E0E1E2E3E4E5E6E7E8E9EAEBECEDEEEF"
		"F0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF"
	},
};

struct pyfmt_pad {
	size_t left;	/* spaces before everything */
	size_t zero;	/* zeros after the sign and prefix */
	size_t right;	/* spaces after everything */
};

/* Python's padding of a number whose sign, prefix and digits take n bytes */
static void pyfmt_num_pad(const struct pyfmt_spec *sp, size_t n,
			  struct pyfmt_pad *pad)
{
	size_t fill = 0;

	if (sp->width > 0 && (size_t)sp->width > n)
		fill = (size_t)sp->width - n;
	pad->left = 0;
	pad->zero = 0;
	pad->right = 0;
	if (sp->flags & PYFMT_LEFT)
		pad->right = fill;
	else if (sp->flags & PYFMT_ZERO)
		pad->zero = fill;
	else
		pad->left = fill;
}

static char pyfmt_sign(const struct pyfmt_spec *sp, bool neg)
{
	if (neg)
		return '-';
	if (sp->flags & PYFMT_PLUS)
		return '+';
	if (sp->flags & PYFMT_SPACE)
		return ' ';
	return 0;
}

/*
 * n bytes of c at p, a number's left padding or zeros. Short runs are one
 * fixed 16-byte store instead of a call (see PYFMT_SLACK).
 */
static char *pyfmt_fill16(char *p, char c, size_t n)
{
	if (n <= 16)
		memcpy(p, c == ' ' ? "                " : "0000000000000000",
		       16);
	else
		memset(p, c, n);
	return p + n;
}

/*
 * Write the padding, sign, prefix and precision zeros of an integer of ndig
 * digits; returns where the digits go and sets *right to the spaces owed
 * after them.
 */
static char *pyfmt_int_head(char *p, const struct pyfmt_spec *sp, char sign,
			    const char *pfx, size_t plen, size_t ndig,
			    size_t *right)
{
	struct pyfmt_pad pad;
	size_t zeros = 0;

	if (sp->prec > 0 && (size_t)sp->prec > ndig)
		zeros = (size_t)sp->prec - ndig;
	pyfmt_num_pad(sp, (sign != 0) + plen + zeros + ndig, &pad);
	p = pyfmt_fill16(p, ' ', pad.left);
	if (sign)
		*p++ = sign;
	if (plen) {
		memcpy(p, pfx, plen);
		p += plen;
	}
	p = pyfmt_fill16(p, '0', zeros + pad.zero);
	*right = pad.right;
	return p;
}

size_t pyfmt_u64_dec(char *dst, uint64_t v)
{
	unsigned n = pyfmt_dec_len(v);

	pyfmt_dec_back(dst + n, v);
	return n;
}

ssize_t pyfmt_fixed(char *dst, double v, unsigned prec)
{
	uint64_t pow = pyfmt_pow10[prec], ip, q = 0, mant;
	double a = fabs(v), fr, f;
	char *p = dst;
	int e, sh;

	if (!(a < 9007199254740992.0) || prec > 9)
		return -1;	/* nan, inf, 2^53 and above */
	ip = (uint64_t)a;
	fr = a - (double)ip;	/* exact: both share a's binade or below */
	if (fr != 0) {
		/* fr = mant / 2^sh exactly; fr * 10^prec rounded to nearest even */
		f = frexp(fr, &e);
		mant = (uint64_t)ldexp(f, 53);
		sh = 53 - e;
		if (sh < 120) {
			unsigned __int128 num = (unsigned __int128)mant * pow;
			unsigned __int128 rem, half = (unsigned __int128)1 << (sh - 1);

			q = (uint64_t)(num >> sh);
			rem = num - ((unsigned __int128)q << sh);
			/* the last digit printed: q's, or ip's when prec is 0 */
			if (rem > half ||
			    (rem == half && ((prec ? q : ip + q) & 1)))
				q++;
		}
		/* else fr < 2^-66: far below half of 10^-9 */
		if (q >= pow) {
			ip++;
			q -= pow;
		}
	}
	if (signbit(v))
		*p++ = '-';
	p += pyfmt_u64_dec(p, ip);
	if (prec) {
		*p++ = '.';
		pyfmt_dec_back(p + prec, q + pow);	/* a leading 1, then zeros */
		p[-1] = '.';
		p += prec;
	}
	return p - dst;
}

static ssize_t pyfmt_int_dec(char *dst, const struct pyfmt_spec *sp, bool neg,
			     uint64_t mag)
{
	unsigned ndig = pyfmt_dec_len(mag);
	size_t right;
	char *p = dst;

	/* '#' means nothing to d i u, and every number has a digit */
	if (!(sp->flags & ~PYFMT_ALT) && sp->width <= 0 && sp->prec <= 1) {
		if (neg)
			*p++ = '-';
		p += ndig;
		pyfmt_dec_back(p, mag);
		return p - dst;
	}
	p = pyfmt_int_head(dst, sp, pyfmt_sign(sp, neg), NULL, 0, ndig,
			   &right);
	p += ndig;
	pyfmt_dec_back(p, mag);
	if (right) {
		memset(p, ' ', right);
		p += right;
	}
	return p - dst;
}

/* o x X: the '#' prefix is "0o", "0x" or "0X" */
static ssize_t pyfmt_int_pow2(char *dst, const struct pyfmt_spec *sp,
			      bool neg, uint64_t mag)
{
	unsigned shift = sp->conv == 'o' ? 3 : 4;
	unsigned bits = 64 - __builtin_clzll(mag | 1);
	size_t ndig = (bits + shift - 1) / shift;
	char pfx[2] = { '0', sp->conv };
	uint64_t letter = sp->conv == 'X' ? 'A' - '0' - 10 : 'a' - '0' - 10;
	size_t right;
	char *p, *q;

	/* '%08x' and the like: the zeros come with the digits */
	if (shift == 4 && !neg && sp->prec < 0 &&
	    (sp->flags == PYFMT_ZERO ||
	     (!sp->flags && (sp->width <= 0 || (size_t)sp->width <= ndig)))) {
		size_t n = ndig;

		if (sp->width > 0 && (size_t)sp->width > n)
			n = (size_t)sp->width;
		if (n <= 16) {
			pyfmt_put_hex(dst, mag, n, letter);
			return (ssize_t)n;
		}
	}
	p = pyfmt_int_head(dst, sp, pyfmt_sign(sp, neg), pfx,
			   sp->flags & PYFMT_ALT ? 2 : 0, ndig, &right);
	if (shift == 4) {
		pyfmt_put_hex(p, mag, ndig, letter);
		p += ndig;
	} else {
		p += ndig;
		q = p;
		do {
			*--q = (char)('0' + (mag & 7));
			mag >>= 3;
		} while (mag);
	}
	if (right) {
		memset(p, ' ', right);
		p += right;
	}
	return p - dst;
}

/*
 * Text already in place (or elsewhere) at s, n bytes of which nch are
 * characters: space padding of s r a c. s and dst may overlap.
 */
static ssize_t pyfmt_put_padded(char *dst, const struct pyfmt_spec *sp,
				const char *s, size_t n, size_t nch)
{
	size_t fill = 0;

	if (sp->width > 0 && (size_t)sp->width > nch)
		fill = (size_t)sp->width - nch;
	if (sp->flags & PYFMT_LEFT) {
		memmove(dst, s, n);
		memset(dst + n, ' ', fill);
	} else {
		memmove(dst + fill, s, n);
		memset(dst, ' ', fill);
	}
	return (ssize_t)(n + fill);
}

static ssize_t pyfmt_put_text(char *dst, const struct pyfmt_spec *sp,
			      const char *s, size_t len)
{
	size_t maxch = sp->prec >= 0 ? (size_t)sp->prec : SIZE_MAX;
	size_t n = len, nch = len;

	if (sp->prec >= 0 || sp->width > 0)
		n = pyfmt_utf8_span(s, len, maxch, &nch);
	return pyfmt_put_padded(dst, sp, s, n, nch);
}

/* Precision of s r a on text written at dst: the first prec characters */
static size_t pyfmt_truncate(const char *dst, size_t n, size_t *nch,
			     const struct pyfmt_spec *sp)
{
	if (sp->prec < 0 || (size_t)sp->prec >= *nch)
		return n;
	return pyfmt_utf8_span(dst, n, (size_t)sp->prec, nch);
}

/*
 * The first ndig significant digits of v (finite, > 0), correctly rounded,
 * into digs; returns v's decimal exponent: v ~= 0.DIGS * 10**exp.
 */
static int pyfmt_ecvt(double v, unsigned ndig, char *digs)
{
	char buf[40];
	char *p = buf;
	unsigned k = 0;

	snprintf(buf, sizeof(buf), "%.*e", (int)ndig - 1, v);
	/* any byte that is not a digit before the 'e' is the decimal point */
	for (; *p != 'e'; p++)
		if (*p >= '0' && *p <= '9')
			digs[k++] = *p;
	return atoi(p + 1) + 1;
}

/* The double nearest to DIGS * 10**(decpt - ndig) */
static double pyfmt_digits_value(const char *digs, unsigned ndig, int decpt)
{
	int e = decpt - (int)ndig;
	char buf[40];
	char *p = buf;

	/* no decimal point: strtod() reads this the same in every locale */
	memcpy(p, digs, ndig);
	p += ndig;
	*p++ = 'e';
	if (e < 0)
		*p++ = '-';
	p += pyfmt_u64_dec(p, (uint64_t)(e < 0 ? -(int64_t)e : e));
	*p = '\0';
	return strtod(buf, NULL);
}

static bool pyfmt_reads_back(const char *digs, unsigned ndig, int decpt,
			     double v)
{
	return pyfmt_digits_value(digs, ndig, decpt) == v;
}

/* digs + one unit in the last place; returns the new decimal exponent */
static int pyfmt_digits_up(char *digs, unsigned ndig, int decpt)
{
	unsigned i = ndig;

	while (i > 0 && digs[i - 1] == '9')
		digs[--i] = '0';
	if (i > 0) {
		digs[i - 1]++;
		return decpt;
	}
	digs[0] = '1';
	return decpt + 1;
}

/*
 * Shortest digits that read back as v (finite, > 0), the closest to v of
 * those (David Gay's dtoa mode 0, which Python's repr uses). Returns the
 * digit count; *decpt gets the exponent: v ~= 0.DIGS * 10**decpt.
 */
static unsigned pyfmt_shortest(double v, char *digs, int *decpt)
{
	unsigned lo = 1, hi = 17, n, k;
	int e;

	if (frexp(v, &e) == 0.5 && e > -1021) {
		/*
		 * A power of two: the next double below is twice as close
		 * as the next one above, so the nearest n digits may miss
		 * where the next n-digit number above still reads back.
		 */
		for (n = 1; n < 17; n++) {
			double near;

			*decpt = pyfmt_ecvt(v, n, digs);
			near = pyfmt_digits_value(digs, n, *decpt);
			if (near == v)
				goto strip;
			if (near < v) {
				char up[17];
				int d;

				memcpy(up, digs, n);
				d = pyfmt_digits_up(up, n, *decpt);
				if (pyfmt_reads_back(up, n, d, v)) {
					memcpy(digs, up, n);
					*decpt = d;
					goto strip;
				}
			}
		}
		*decpt = pyfmt_ecvt(v, 17, digs);
		n = 17;
		goto strip;
	}
	/*
	 * Elsewhere the interval that reads back is symmetric: if the nearest
	 * n digits read back, so do the nearest n + 1.
	 *
	 * For a normal double, half an ulp (at most v * 2^-53) is less than
	 * half a unit in the 15th digit (at least v * 5e-16): any string of
	 * 15 digits or fewer that reads back is v rounded to 15 digits, less
	 * its trailing zeros. So one try settles all those, and what is left
	 * is 16 or 17 digits.
	 */
	if (v >= DBL_MIN) {
		for (k = 15; k <= 16; k++) {
			*decpt = pyfmt_ecvt(v, k, digs);
			n = k;
			while (n > 1 && digs[n - 1] == '0')
				n--;
			if (pyfmt_reads_back(digs, n, *decpt, v))
				return n;
		}
		*decpt = pyfmt_ecvt(v, 17, digs);
		n = 17;
		goto strip;
	}
	/* subnormals: bisect */
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		*decpt = pyfmt_ecvt(v, mid, digs);
		if (pyfmt_reads_back(digs, mid, *decpt, v))
			hi = mid;
		else
			lo = mid + 1;
	}
	n = lo;
	*decpt = pyfmt_ecvt(v, n, digs);
strip:
	while (n > 1 && digs[n - 1] == '0')
		n--;
	return n;
}

/* repr(float): at most PYFMT_REPR_MAX bytes */
static size_t pyfmt_repr_float(char *dst, double v)
{
	char digs[17];
	char *p = dst;
	unsigned n;
	int decpt, e;

	if (isnan(v)) {
		memcpy(p, "nan", 3);
		return 3;
	}
	if (signbit(v))
		*p++ = '-';
	if (isinf(v)) {
		memcpy(p, "inf", 3);
		return (size_t)(p + 3 - dst);
	}
	if (v == 0) {
		memcpy(p, "0.0", 3);
		return (size_t)(p + 3 - dst);
	}
	n = pyfmt_shortest(fabs(v), digs, &decpt);
	if (decpt > -4 && decpt <= 16) {
		if (decpt <= 0) {
			*p++ = '0';
			*p++ = '.';
			memset(p, '0', (size_t)-decpt);
			p += -decpt;
			memcpy(p, digs, n);
			p += n;
		} else if ((unsigned)decpt >= n) {
			memcpy(p, digs, n);
			p += n;
			memset(p, '0', decpt - n);
			p += decpt - n;
			*p++ = '.';
			*p++ = '0';
		} else {
			memcpy(p, digs, decpt);
			p += decpt;
			*p++ = '.';
			memcpy(p, digs + decpt, n - decpt);
			p += n - decpt;
		}
		return (size_t)(p - dst);
	}
	*p++ = digs[0];
	if (n > 1) {
		*p++ = '.';
		memcpy(p, digs + 1, n - 1);
		p += n - 1;
	}
	*p++ = 'e';
	e = decpt - 1;
	*p++ = e < 0 ? '-' : '+';
	if (e < 0)
		e = -e;
	if (e < 10)
		*p++ = '0';
	p += pyfmt_u64_dec(p, (uint64_t)e);
	return (size_t)(p - dst);
}

/*
 * The e E f F g G digits of a = |v| (finite). '#g' goes through e and f: glibc
 * (2.36) drops a digit when rounding carries into the exponent that switches
 * to e-style, '%#.2g' of 99.666 giving "1.e+02" where C and Python want
 * "1.0e+02".
 */
static size_t pyfmt_float_body(char *dst, char conv, bool alt, int prec,
			       double a)
{
	size_t cap = PYFMT_FLOAT_CAP(prec);
	char fmt[8], *f = fmt;
	const char *e;
	int p, x;

	if (alt && (conv == 'g' || conv == 'G')) {
		p = prec ? prec : 1;
		snprintf(dst, cap, conv == 'g' ? "%#.*e" : "%#.*E", p - 1, a);
		e = strpbrk(dst, "eE");
		x = atoi(e + 1);
		if (x < -4 || x >= p)
			return strlen(dst);
		return (size_t)snprintf(dst, cap, "%#.*f", p - 1 - x, a);
	}
	*f++ = '%';
	if (alt)
		*f++ = '#';
	*f++ = '.';
	*f++ = '*';
	*f++ = conv;
	*f = '\0';
	return (size_t)snprintf(dst, cap, fmt, prec, a);
}

/* e E f F g G */
static ssize_t pyfmt_float_conv(char *dst, const struct pyfmt_spec *sp,
				double v)
{
	bool upper = sp->conv == 'E' || sp->conv == 'F' || sp->conv == 'G';
	char sign = pyfmt_sign(sp, signbit(v) && !isnan(v));
	struct pyfmt_pad pad;
	size_t n, head;
	char *p;

	if (isfinite(v)) {
		n = pyfmt_float_body(dst, sp->conv, sp->flags & PYFMT_ALT,
				     sp->prec >= 0 ? sp->prec : 6, fabs(v));
	} else {
		memcpy(dst, isnan(v) ? (upper ? "NAN" : "nan") :
				       (upper ? "INF" : "inf"), 3);
		n = 3;
	}
	pyfmt_num_pad(sp, (sign != 0) + n, &pad);
	head = pad.left + (sign != 0) + pad.zero;
	memmove(dst + head, dst, n);
	p = dst;
	memset(p, ' ', pad.left);
	p += pad.left;
	if (sign)
		*p++ = sign;
	memset(p, '0', pad.zero);
	p = dst + head + n;
	memset(p, ' ', pad.right);
	return (ssize_t)(head + n + pad.right);
}

/* chr(value), encoded as UTF-8 */
static ssize_t pyfmt_int_chr(char *dst, const struct pyfmt_spec *sp, bool neg,
			     uint64_t mag)
{
	char buf[4];
	size_t n;

	if ((neg && mag) || mag > 0x10ffff ||
	    (mag >= 0xd800 && mag <= 0xdfff))
		return -ERANGE;
	n = pyfmt_utf8_put(buf, (uint32_t)mag);
	return pyfmt_put_padded(dst, sp, buf, n, 1);
}

ssize_t pyfmt_int(char *dst, const struct pyfmt_spec *sp, bool neg,
		  uint64_t mag)
{
	char buf[PYFMT_REPR_MAX];
	size_t n = 0;

	neg = neg && mag;
	switch (sp->conv) {
	case 'd':
	case 'i':
	case 'u':
		return pyfmt_int_dec(dst, sp, neg, mag);
	case 'x':
	case 'X':
	case 'o':
		return pyfmt_int_pow2(dst, sp, neg, mag);
	case 'e':
	case 'E':
	case 'f':
	case 'F':
	case 'g':
	case 'G':
		return pyfmt_float_conv(dst, sp, neg ? -(double)mag :
						       (double)mag);
	case 's':
	case 'r':
	case 'a':
		if (neg)
			buf[n++] = '-';
		n += pyfmt_u64_dec(buf + n, mag);
		return pyfmt_put_text(dst, sp, buf, n);
	case 'c':
		return pyfmt_int_chr(dst, sp, neg, mag);
	}
	return -EINVAL;
}

/* d i u of a float: int(v), which may be far beyond 64 bits */
static ssize_t pyfmt_float_int(char *dst, const struct pyfmt_spec *sp,
			       double v)
{
	char digs[PYFMT_DBL_DIG10 + 1];
	double t = trunc(v);
	size_t right, n;
	char *p;

	if (!isfinite(v))
		return -EDOM;
	if (fabs(t) < 18446744073709551616.0)
		return pyfmt_int_dec(dst, sp, t < 0, (uint64_t)fabs(t));
	/* glibc prints a double's integer value exactly */
	n = (size_t)snprintf(digs, sizeof(digs), "%.0f", fabs(t));
	p = pyfmt_int_head(dst, sp, pyfmt_sign(sp, t < 0), NULL, 0, n,
			   &right);
	memcpy(p, digs, n);
	p += n;
	memset(p, ' ', right);
	return p + right - dst;
}

ssize_t pyfmt_float(char *dst, const struct pyfmt_spec *sp, double v)
{
	char buf[PYFMT_REPR_MAX];
	size_t n;

	switch (sp->conv) {
	case 'd':
	case 'i':
	case 'u':
		return pyfmt_float_int(dst, sp, v);
	case 'e':
	case 'E':
	case 'f':
	case 'F':
	case 'g':
	case 'G':
		return pyfmt_float_conv(dst, sp, v);
	case 's':
	case 'r':
	case 'a':
		n = pyfmt_repr_float(buf, v);
		return pyfmt_put_text(dst, sp, buf, n);
	}
	return -EINVAL;
}

ssize_t pyfmt_str(char *dst, const struct pyfmt_spec *sp, const char *s,
		  size_t len)
{
	size_t n, nch;
	uint32_t cp;

	switch (sp->conv) {
	case 's':
		return pyfmt_put_text(dst, sp, s, len);
	case 'r':
	case 'a':
		n = pyfmt_repr_str(dst, s, len, sp->conv == 'a', &nch);
		n = pyfmt_truncate(dst, n, &nch, sp);
		return pyfmt_put_padded(dst, sp, dst, n, nch);
	case 'c':
		if (!len ||
		    pyfmt_utf8_next((const unsigned char *)s, len, &cp) != len)
			return -EINVAL;
		return pyfmt_put_padded(dst, sp, s, len, 1);
	}
	return -EINVAL;
}

size_t pyfmt_bound(const struct pyfmt_spec *sp, size_t slen)
{
	size_t width = sp->width > 0 ? (size_t)sp->width : 0;
	size_t prec = sp->prec > 0 ? (size_t)sp->prec : 0;
	size_t body;

	switch (sp->conv) {
	case 'd':
	case 'i':
	case 'u':
		/* sign, digits of int(DBL_MAX), snprintf's NUL */
		body = 1 + (prec > PYFMT_DBL_DIG10 + 1 ? prec :
							 PYFMT_DBL_DIG10 + 1);
		break;
	case 'o':
	case 'x':
	case 'X':
		/* sign, "0x", 22 octal digits of 2^64 - 1 */
		body = 3 + (prec > 22 ? prec : 22);
		break;
	case 'c':
		body = 4;
		break;
	case 's':
		body = slen > PYFMT_REPR_MAX ? slen : PYFMT_REPR_MAX;
		break;
	case 'r':
	case 'a':
		/* a stray byte becomes "\udcXX" */
		body = 6 * slen + 2;
		if (body < PYFMT_REPR_MAX)
			body = PYFMT_REPR_MAX;
		break;
	default:
		body = 1 + PYFMT_FLOAT_CAP(sp->prec >= 0 ? prec : 6);
		break;
	}
	return width + body + PYFMT_SLACK;
}
