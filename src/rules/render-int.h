/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The renderer's own: the number and string writers render_events()
 * inlines into its steps, and the cold path (render-slow.c) it calls
 * for the rest.
 */
#ifndef KTF_RENDER_INT_H
#define KTF_RENDER_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "copy-short.h"
#include "outbuf.h"
#include "pyfmt.h"
#include "render.h"
#include "template.h"

struct diag;

#define RENDER_INLINE static inline __attribute__((always_inline))

/*
 * render_events(), a loop of computed gotos, without the passes that
 * hoist loads and merge tails across its steps (GCC's manual says so of
 * -fgcse for such code): with them GCC kept the op pointer and the next
 * binding on the stack, reloaded and stored at each step. callgrind, 200 k
 * kvmtrace records: 71.1 M -> 67.3 M instructions; uftrace fib(27) and
 * the trace.dat fields row fell by 5 and 2 %. Clang has no such attribute.
 */
#if defined(__GNUC__) && !defined(__clang__)
#define RENDER_LOOP __attribute__((optimize("no-gcse", "no-tree-pre", \
					    "no-crossjumping")))
#else
#define RENDER_LOOP
#endif

/*
 * The inline conversions write whole 8- and 16-byte chunks: the output has
 * TMPL_SLACK bytes of room past what the conversion itself needs.
 */
static inline void render_fill(char *p, char c, size_t n)
{
	uint64_t w = 0x0101010101010101ull * (unsigned char)c;

	for (size_t k = 0; k < n; k += 8)
		memcpy(p + k, &w, 8);
}


/*
 * Where n characters of a number go, padding before them written (after
 * them, for '-', the caller writes it): the digits are then
 * stored straight into the output (staging them in a buffer and copying
 * that made the CPU wait for its stores to land before it could load them).
 */
RENDER_INLINE char *render_place(char *p, const struct tmpl_op *op, size_t n,
				 char **end)
{
	size_t w = op->spec.width > 0 ? (size_t)op->spec.width : 0;

	if (w <= n) {
		*end = p + n;
		return p;
	}
	*end = p + w;
	if (op->spec.flags & PYFMT_LEFT)
		return p;	/* the caller pads after the digits */
	render_fill(p, op->spec.flags & PYFMT_ZERO ? '0' : ' ', w - n);
	return p + w - n;
}

/* The last n (1..8) hex digits of w at d, as one 8-byte store. */
RENDER_INLINE void render_hex_tail(char *d, uint32_t w, size_t n,
				   uint64_t letter)
{
	uint64_t x = pyfmt_hex8(w, letter);

#ifdef WORDS_BIGENDIAN
	x <<= 8 * (8 - n);
#else
	x >>= 8 * (8 - n);
#endif
	memcpy(d, &x, 8);
}

RENDER_INLINE char *render_fast(char *p, const struct tmpl_op *op, uint64_t v)
{
	uint64_t letter = op->fast == TMPL_HEX_UP ? 'A' - '0' - 10 : 'a' - '0' - 10;
	char *d, *end;
	size_t n;

	if (op->fast == TMPL_DEC || op->fast == TMPL_STR) {
		n = pyfmt_dec_len(v);
		d = render_place(p, op, n, &end);
		pyfmt_dec_back(d + n, v);
		if (end > d + n && (op->spec.flags & PYFMT_LEFT))
			render_fill(d + n, ' ', (size_t)(end - d - n));
		return end;
	}
	if (op->spec.flags & PYFMT_ALT) {
		/* '#' alone (no width): the prefix, then the bare digits */
		p[0] = '0';
		p[1] = op->fast == TMPL_HEX_UP ? 'X' : 'x';
		p += 2;
	}
	n = (size_t)((67 - __builtin_clzll(v | 1)) >> 2);
	/* zero padding up to 8 digits is the digits themselves */
	if (n <= 8 && (op->spec.flags & (PYFMT_ZERO | PYFMT_LEFT)) == PYFMT_ZERO &&
	    op->spec.width > (int)n && op->spec.width <= 8)
		n = (size_t)op->spec.width;
	d = render_place(p, op, n, &end);
	if (n > 8) {
		/* the high word's digits, then the low word's 8 over the rest */
		render_hex_tail(d, (uint32_t)(v >> 32), n - 8, letter);
		render_hex_tail(d + n - 8, (uint32_t)v, 8, letter);
	} else {
		render_hex_tail(d, (uint32_t)v, n, letter);
	}
	/* a left-aligned number's padding follows its digits */
	if (end > d + n && (op->spec.flags & PYFMT_LEFT))
		render_fill(d + n, ' ', (size_t)(end - d - n));
	return end;
}

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * The number whose 8 digits (0..9, leading zeros included, the first in
 * the low byte: pyfmt_dec8_swar's) are d, right-aligned in ro->width
 * (<= 16) of ro->fill: the zeros before the first digit (all but the
 * last) turned into the fill, no count, no loop
 */
RENDER_INLINE char *render_dec_w_digits(char *p, const struct render_op *ro,
					uint64_t d)
{
	unsigned z = (unsigned)__builtin_ctzll(d | 1ull << 56) >> 3;
	uint64_t m = (1ull << (8 * z)) - 1;
	size_t w = ro->width, n;

	d = ((d + 0x3030303030303030ull) & ~m) | (ro->fill & m);
	if (w >= 8) {
		memcpy(p, &ro->fill, 8);
		memcpy(p + 8, &ro->fill, 8);
		memcpy(p + w - 8, &d, 8);
		return p + w;
	}
	n = 8 - z > w ? 8 - z : w;
	d >>= 8 * (8 - n);
	memcpy(p, &d, 8);
	return p + n;
}
#endif

/* x right-aligned in ro->width (<= 16) of ro->fill: RSTEP_*_DEC */
RENDER_INLINE char *render_dec_w(char *p, const struct render_op *ro,
				 uint64_t x)
{
	size_t n;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (__builtin_expect(x < 100000000, 1))
		return render_dec_w_digits(p, ro, pyfmt_dec8_swar((uint32_t)x));
#endif
	n = pyfmt_dec_len(x);

	memcpy(p, &ro->fill, 8);
	memcpy(p + 8, &ro->fill, 8);
	if (n < ro->width)
		p += ro->width - n;
	pyfmt_dec_back(p + n, x);
	return p + n;
}


/* '%08x' of w at p (upper: '%08X') */
RENDER_INLINE void render_hex8(char *p, uint32_t w, bool upper)
{
#if defined(__SSE2__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	_mm_storel_epi64((__m128i *)(void *)p,
			 pyfmt_hex_vec(_mm_cvtsi32_si128((int)__builtin_bswap32(w)),
					upper));
#else
	pyfmt_hex8_pairs(p, w, upper);
#endif
}

/* '%08x%08x' of hi, lo at p (upper: '%08X%08X') */
RENDER_INLINE void render_hex16(char *p, uint32_t hi, uint32_t lo, bool upper)
{
#if defined(__SSE2__) && defined(__x86_64__)
	uint64_t x = __builtin_bswap64((uint64_t)hi << 32 | lo);

	_mm_storeu_si128((__m128i *)(void *)p,
			 pyfmt_hex_vec(_mm_cvtsi64_si128((long long)x), upper));
#else
	pyfmt_hex8_pairs(p, hi, upper);
	pyfmt_hex8_pairs(p + 8, lo, upper);
#endif
}


/*
 * '%08x' of a, the len (<= RENDER_LIT_MAX) bytes at mid, '%08x' of b
 * (upper: '%08X'): the 16 digits in one vector. Where the output goes on.
 */
RENDER_INLINE char *render_hex8x2(char *p, uint32_t a, const char *mid,
				  size_t len, uint32_t b, bool upper)
{
#if defined(__SSE2__) && defined(__x86_64__)
	uint64_t x = __builtin_bswap64((uint64_t)a << 32 | b);
	__m128i v = pyfmt_hex_vec(_mm_cvtsi64_si128((long long)x), upper);

	_mm_storel_epi64((__m128i *)(void *)p, v);
	memcpy(p + 8, mid, 16);
	memcpy(p + 24, mid + 16, 16);
	p += 8 + len;
	_mm_storel_epi64((__m128i *)(void *)p, _mm_unpackhi_epi64(v, v));
#else
	pyfmt_hex8_pairs(p, a, upper);
	memcpy(p + 8, mid, 16);
	memcpy(p + 24, mid + 16, 16);
	p += 8 + len;
	pyfmt_hex8_pairs(p, b, upper);
#endif
	return p + 8;
}

/*
 * The len bytes of s at p, with room made for them and the rest of the
 * template (need): where they end, or NULL without memory.
 */
RENDER_INLINE char *render_put_str(struct outbuf *o, char *p, const char *s,
				   size_t len, size_t need)
{
	if ((size_t)(o->buf + o->cap - p) < len + need) {
		outbuf_commit(o, (size_t)(p - (o->buf + o->len)));
		p = outbuf_reserve(o, len + need);
		if (!p)
			return NULL;
	}
	copy_short(p, s, len);
	return p + len;
}

/*
 * %d of x, no width: below 100 (a depth, a CPU, a small count) one
 * store of two bytes from the pairs' table, the tens' digit skipped
 * below 10 (the byte written past the number goes under what follows)
 */
RENDER_INLINE char *render_dec_u64(char *p, uint64_t x)
{
	size_t n;

	if (x < 100) {
		memcpy(p, pyfmt_dig2 + 2 * x + (x < 10), 2);
		return p + 1 + (x >= 10);
	}
	n = pyfmt_dec_len(x);
	pyfmt_dec_back(p + n, x);
	return p + n;
}

/*
 * render-ops.c's: the steps of tm for binding b (its fetch, slots and
 * symbolic set), *n of them, or NULL without memory; *folded: the bytes
 * of constant strings made part of the literals (they need room beside
 * the template's bound: see render_ops_fold())
 */
struct render_op *render_ops(const struct tmpl *tm, const struct binding *b,
			     size_t *n, size_t *folded);

/*
 * RSTEP_GENERIC: op's value through its slot, then the inline formats or
 * pyfmt. A call of its own, off the steps' path: render_events() keeps
 * its few values in registers. Returns where the line goes on, or NULL
 * with r->err (a negative errno) and diag set.
 */
char *render_generic(struct render *r, const struct binding *b,
		     const struct render_op *ro, const struct event *ev,
		     struct outbuf *o, char *p, struct diag *d);

/*
 * The same of conversion conv of b, whose key's fetch is fetch (a step
 * that writes several, RSTEP_TS_RELTS_HEX8X2, leaves one to it).
 */
char *render_generic_at(struct render *r, const struct binding *b,
			uint32_t conv, enum fetch_kind fetch,
			const struct event *ev, struct outbuf *o, char *p,
			struct diag *d);

/*
 * An event in words, to n (r's unmatched: the first no rule named that
 * printed nothing; first: the run's first), as render_missing_report()
 * names events (render_unmatched_report()). Cold: twice a run at most.
 */
__attribute__((cold)) void render_note(struct render_note *n,
				       const struct event *ev);

/* RMODE_TYPEERROR: the raw template, then the event's values. */
int render_typeerror(const struct render *r, const struct binding *b,
		     const struct event *ev, struct outbuf *o);

#endif
