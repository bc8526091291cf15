/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Python 3's '%' operator for one conversion applied to one value, byte for
 * byte as Python 3.11 prints it ('%(key)#08x' % {'key': v}).
 *
 * The template parser splits "%(key)[flags][width][.prec][lenmod]conv" into
 * a struct pyfmt_spec; the functions below format one value into a buffer
 * the caller has sized with pyfmt_bound(). Nothing here allocates or keeps
 * state; integers are formatted by hand, floats go through snprintf() and so
 * want LC_NUMERIC to stay "C" (no setlocale(LC_ALL, "")).
 *
 * Strings are byte strings, decoded as Python decodes OS data: UTF-8, with
 * every byte that is not part of a valid UTF-8 sequence standing for one
 * character U+DC80..U+DCFF (errors='surrogateescape'). So %s passes the
 * bytes through unchanged, precision and width count characters (code
 * points), and %r shows a stray byte 0xff as '\udcff'.
 */
#ifndef KTF_PYFMT_H
#define KTF_PYFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define PYFMT_ALT	0x01	/* '#' */
#define PYFMT_ZERO	0x02	/* '0' */
#define PYFMT_LEFT	0x04	/* '-' */
#define PYFMT_SPACE	0x08	/* ' ' */
#define PYFMT_PLUS	0x10	/* '+' */

/* width and precision above these are refused by the parser */
#define PYFMT_MAX_WIDTH 4096
#define PYFMT_MAX_PREC	4096

struct pyfmt_spec {
	unsigned flags;	/* PYFMT_* */
	int width;	/* -1: none */
	int prec;	/* -1: none */
	char conv;	/* one of d i o u x X e E f F g G s r a c */
};

/*
 * Upper bound of the bytes any pyfmt_* call below stores for this spec,
 * given a string argument of slen bytes (0 for numbers). The calls may store
 * scratch bytes past the length they return, never past this bound. For
 * d i u it allows for a float argument, int(1e308) having 309 digits, so
 * '%d' asks for some 330 bytes.
 */
size_t pyfmt_bound(const struct pyfmt_spec *sp, size_t slen);

/*
 * Integer value = neg ? -(mag) : mag, so the range is -(2^64-1) .. 2^64-1;
 * neg with mag 0 is plain 0.
 *
 * d i u o x X: Python's int formatting. e E f F g G: the int converted to
 * double (correctly rounded, as float(int)) then float formatting.
 * s r a: str(int). c: chr(value) encoded as UTF-8; -ERANGE if value < 0,
 * value > 0x10ffff or value is a surrogate (0xd800..0xdfff: Python cannot
 * print those to a UTF-8 stdout).
 *
 * Returns the bytes written (>= 0) or a negative errno.
 */
ssize_t pyfmt_int(char *dst, const struct pyfmt_spec *sp, bool neg,
		  uint64_t mag);

/*
 * Float (finite, inf or nan).
 * d i u: truncated toward zero (int(x)) then formatted as an int; -EDOM for
 * nan and inf (Python's ValueError and OverflowError).
 * x X o c: -EINVAL (Python raises TypeError).
 * e E f F g G: Python's float formatting.
 * s r a: repr(float), the shortest string that reads back the same.
 */
ssize_t pyfmt_float(char *dst, const struct pyfmt_spec *sp, double v);

/*
 * String of len bytes (see the top of this file for how it is decoded).
 * s: the text; r: repr(); a: ascii(); precision truncates to that many
 * characters of the result. c: a one-character string prints itself, any
 * other length is -EINVAL. Numeric conversions: -EINVAL (TypeError).
 */
ssize_t pyfmt_str(char *dst, const struct pyfmt_spec *sp, const char *s,
		  size_t len);

/* "00" "01" … "99" */
extern const char pyfmt_dig2[200];

/* Exactly 8 digits of w < 10^8: two independent chains of two pairs */
static inline void pyfmt_dec8(char *p, uint32_t w)
{
	uint32_t hi = w / 10000, lo = w % 10000;

	memcpy(p, pyfmt_dig2 + 2 * (hi / 100), 2);
	memcpy(p + 2, pyfmt_dig2 + 2 * (hi % 100), 2);
	memcpy(p + 4, pyfmt_dig2 + 2 * (lo / 100), 2);
	memcpy(p + 6, pyfmt_dig2 + 2 * (lo % 100), 2);
}

/*
 * The 8 decimal digits of w < 10^8, leading zeros included, as the bytes
 * 0..9 of a word, the first digit in its low byte (memory order on a
 * little-endian CPU): w's two halves of four digits, then each half's
 * two of two, then each pair's two digits, side by side in lanes of the
 * word; no table, no branch.
 */
static inline uint64_t pyfmt_dec8_swar(uint32_t w)
{
	uint64_t hi = w / 10000;
	uint64_t m = hi | (uint64_t)(w - hi * 10000) << 32, q;

	q = (m * 10486 >> 20) & 0x0000007f0000007full;	/* / 100 per lane */
	m = q | (m - q * 100) << 16;
	q = (m * 103 >> 10) & 0x000f000f000f000full;	/* / 10 per lane */
	return q | (m - q * 10) << 8;
}

#ifdef __SSE2__
/*
 * The 8 decimal digits of a < 10^8, then those of b < 10^8, leading zeros
 * included, as the bytes 0..9 of a vector, in order: both numbers at
 * once, some 20 vector instructions where pyfmt_dec8_swar() takes about
 * 25 for one. Each number's halves of four digits y (y = n / 10^4 by
 * the multiply-and-shift of a compiler's division, and the rest), each
 * y in four 16-bit lanes that keep y / 10^3, y / 10^2, y / 10, y (4y
 * times 2^k / 10^j rounded up, the high half, shifted: exact below 10^4),
 * then each lane less ten times the lane before it.
 */
static inline __m128i pyfmt_dec8x2(uint32_t a, uint32_t b)
{
	/* 0x8000 (2^15) is -32768 as a short: the lanes are unsigned */
	const __m128i div = _mm_set_epi16(-32768, 13108, 5243, 8389,
					  -32768, 13108, 5243, 8389);
	const __m128i shift = _mm_set_epi16(-32768, 1 << 13, 1 << 11,
					    1 << 7, -32768, 1 << 13,
					    1 << 11, 1 << 7);
	__m128i x = _mm_set_epi32(0, (int)b, 0, (int)a);
	/* per 64-bit lane: n / 10^4, n % 10^4 */
	__m128i hi = _mm_srli_epi64(_mm_mul_epu32(x, _mm_set1_epi32((int)0xd1b71759u)),
				    45);
	__m128i lo = _mm_sub_epi32(x, _mm_mul_epu32(hi, _mm_set1_epi32(10000)));
	/* 16-bit lanes: 4 hi(a), 4 lo(a), 4 hi(b), 4 lo(b) */
	__m128i y = _mm_slli_epi64(_mm_or_si128(hi, _mm_slli_epi64(lo, 16)), 2);
	__m128i v, va, vb;

	y = _mm_shuffle_epi32(y, _MM_SHUFFLE(3, 1, 2, 0));
	y = _mm_unpacklo_epi16(y, y);
	va = _mm_unpacklo_epi32(y, y);
	vb = _mm_unpackhi_epi32(y, y);
	va = _mm_mulhi_epu16(_mm_mulhi_epu16(va, div), shift);
	vb = _mm_mulhi_epu16(_mm_mulhi_epu16(vb, div), shift);
	v = _mm_set1_epi16(10);
	va = _mm_sub_epi16(va, _mm_slli_epi64(_mm_mullo_epi16(va, v), 16));
	vb = _mm_sub_epi16(vb, _mm_slli_epi64(_mm_mullo_epi16(vb, v), 16));
	return _mm_packus_epi16(va, vb);
}
#endif

/* 1, 10, … 10^19 */
extern const uint64_t pyfmt_pow10[20];

/* The number of decimal digits of v. */
static inline unsigned pyfmt_dec_len(uint64_t v)
{
	/* floor(bits * log10(2)) is the digit count or one less */
	unsigned t = ((64 - __builtin_clzll(v | 1)) * 1233) >> 12;

	/* powers of ten above 1 are even, so v | 1 only fixes up v == 0 */
	return t + ((v | 1) >= pyfmt_pow10[t]);
}

/* The decimal digits of v, ending just before end; two digits per step */
static inline void pyfmt_dec_back(char *end, uint64_t v)
{
	uint32_t w;

	while (v >= 100000000) {
		uint64_t q = v / 100000000;

		end -= 8;
		pyfmt_dec8(end, (uint32_t)(v - q * 100000000));
		v = q;
	}
	w = (uint32_t)v;
	while (w >= 100) {
		end -= 2;
		memcpy(end, pyfmt_dig2 + 2 * (w % 100), 2);
		w /= 100;
	}
	if (w >= 10)
		memcpy(end - 2, pyfmt_dig2 + 2 * w, 2);
	else
		end[-1] = (char)('0' + w);
}

/* v in decimal into dst (up to 20 bytes), no padding; returns the length */
size_t pyfmt_u64_dec(char *dst, uint64_t v);

/* v right-aligned in width, padded with pad ("%5lu", "%03lu"); the length */
static inline size_t pyfmt_u64_dec_w(char *dst, uint64_t v, size_t width,
				     char pad)
{
	size_t n = pyfmt_dec_len(v), i = 0;

	for (; i + n < width; i++)
		dst[i] = pad;
	pyfmt_dec_back(dst + i + n, v);
	return i + n;
}

/*
 * '%.{prec}f' % v (prec 0..9, no flags or width) by hand, for |v| < 2^53:
 * the exact binary value rounded half to even, as Python (and glibc) do.
 * Returns the length (at most 27 bytes: sign, 16 digits, '.', 9 digits),
 * or -1 for any other v (nan, inf, larger): the caller takes pyfmt_float().
 */
ssize_t pyfmt_fixed(char *dst, double v, unsigned prec);

/*
 * The 8 hex digits of w as the bytes of a word in memory order, most
 * significant first; letter is 'a' - '0' - 10 or 'A' - '0' - 10. The
 * nibbles are spread one per byte, then all turned to ASCII at once.
 */
static inline uint64_t pyfmt_hex8(uint32_t w, uint64_t letter)
{
	uint64_t x = w;

	x = (x | x << 16) & 0x0000ffff0000ffffull;
	x = (x | x << 8) & 0x00ff00ff00ff00ffull;
	x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full;
	/* (n + 6) >> 4 is 1 in each byte whose nibble n is above 9 */
	x += 0x3030303030303030ull +
	     ((x + 0x0606060606060606ull) >> 4 & 0x0101010101010101ull) *
		     letter;
	/* the least significant digit is in the low byte: it goes last */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

/* "00" "01" … "ff" ([0]) and "00" … "FF" ([1]) */
extern const char pyfmt_hex2[2][512];

/*
 * Exactly 8 hex digits of w at p ('%08x', or '%08X' with upper): a pair
 * of digits per byte from the table, four loads and four stores (half the
 * instructions of pyfmt_hex8()'s arithmetic)
 */
static inline void pyfmt_hex8_pairs(char *p, uint32_t w, bool upper)
{
	const char *t = pyfmt_hex2[upper];

	memcpy(p, t + 2 * (w >> 24), 2);
	memcpy(p + 2, t + 2 * (w >> 16 & 0xff), 2);
	memcpy(p + 4, t + 2 * (w >> 8 & 0xff), 2);
	memcpy(p + 6, t + 2 * (w & 0xff), 2);
}

/* The last n (1..8) digits of a pyfmt_hex8() word to p; stores 8 bytes */
static inline void pyfmt_put_hex_tail(char *p, uint64_t x, size_t n)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	x >>= 8 * (8 - n);
#else
	x <<= 8 * (8 - n);
#endif
	memcpy(p, &x, 8);
}

/* The n (1..16) low hex digits of v to p; stores up to 8 bytes past them */
static inline void pyfmt_put_hex(char *p, uint64_t v, size_t n, uint64_t letter)
{
	uint64_t lo = pyfmt_hex8((uint32_t)v, letter);

	if (n <= 8) {
		pyfmt_put_hex_tail(p, lo, n);
		return;
	}
	pyfmt_put_hex_tail(p, pyfmt_hex8((uint32_t)(v >> 32), letter), n - 8);
	memcpy(p + n - 8, &lo, 8);
}

#ifdef __SSE2__
/*
 * The hex digits of the 8 bytes of x, most significant first: each byte's
 * two nibbles side by side, then '0' or the letter's offset added to each.
 */
static inline __m128i pyfmt_hex_vec(__m128i x, bool upper)
{
	const __m128i m = _mm_set1_epi8(0x0f);
	__m128i nib = _mm_unpacklo_epi8(_mm_and_si128(_mm_srli_epi16(x, 4), m),
					_mm_and_si128(x, m));
	__m128i gt = _mm_cmpgt_epi8(nib, _mm_set1_epi8(9));

	return _mm_add_epi8(_mm_add_epi8(nib, _mm_set1_epi8('0')),
			    _mm_and_si128(gt, _mm_set1_epi8(upper ? 'A' - '0' - 10 :
								     'a' - '0' - 10)));
}
#endif

/*
 * The n (1..16) low hex digits of x at p; stores 16 bytes. With SSE2, the
 * digits shifted to the top of the word and made in one vector, where the
 * word-wide way (pyfmt_put_hex()) took some 60 instructions for 12 digits
 * (uftrace's addresses).
 */
static inline void pyfmt_hex_n(char *p, uint64_t x, size_t n, bool upper)
{
#if defined(__SSE2__) && defined(__x86_64__)
	x = __builtin_bswap64(x << (4 * (16 - n)));
	_mm_storeu_si128((__m128i *)(void *)p,
			 pyfmt_hex_vec(_mm_cvtsi64_si128((long long)x), upper));
#else
	pyfmt_put_hex(p, x, n, upper ? 'A' - '0' - 10 : 'a' - '0' - 10);
#endif
}

/*
 * The hex digits of v without leading zeros at p; returns their count.
 * Stores whole 8-byte words: up to 8 bytes past the digits may change.
 */
static inline size_t pyfmt_hex_put(char *p, uint64_t v)
{
	size_t n = (size_t)((67 - __builtin_clzll(v | 1)) >> 2);

	pyfmt_put_hex(p, v, n, 'a' - '0' - 10);
	return n;
}

#endif
