// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rendering an event through the binding of its rule (render-bind.c):
 * the template's literals and conversions into the output buffer.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "diag.h"
#include "outbuf.h"
#include "pyfmt.h"
#include "render.h"
#include "source.h"

#define RENDER_INLINE static inline __attribute__((always_inline))

RENDER_INLINE int render_value_inline(const struct render *r,
				      const struct binding *b,
				      const struct event *ev, int32_t slot,
				      struct value *v)
{
	const struct event_type *t = ev->type;

	switch (slot) {
	case SLOT_TS:
		if (r->mhz > 0 && r->timeline == CLOCK_TSC) {
			double ts = ev->has_ts ? (double)ev->ts : 0.0;

			value_set_float(v, ts / (r->mhz * 1000000.0));
			return 0;
		}
		value_set_u64(v, ev->has_ts ? ev->ts : 0);
		return 0;
	case SLOT_SECS:
		/* ns, or TSC ticks at -c MHZ (render_bind refuses the rest) */
		value_set_float(v, (ev->has_ts ? (double)ev->ts : 0.0) /
					   (r->timeline == CLOCK_NS ? 1e9 : r->mhz * 1000000.0));
		return 0;
	case SLOT_RELTS:
		v->kind = VALUE_INT;
		v->neg = ev->relts_neg;
		v->u = ev->relts;
		return 0;
	case SLOT_CPU:
		value_set_u64(v, ev->cpu);
		return 0;
	case SLOT_PID:
		value_set_s64(v, ev->pid);
		return 0;
	case SLOT_NAME:
		if (t->name)
			value_set_str(v, t->name, strlen(t->name));
		else if (b && b->rule && b->rule->label)
			value_set_str(v, b->rule->label,
				      strlen(b->rule->label));
		else if (b && b->rule && b->rule->match != RULE_ID)
			value_set_str(v, b->rule->pattern,
				      strlen(b->rule->pattern));
		else
			value_set_u64(v, t->id);
		return 0;
	case SLOT_SYSTEM:
		if (t->system)
			value_set_str(v, t->system, strlen(t->system));
		else
			value_set_str(v, ev->src->ops->kind,
				      strlen(ev->src->ops->kind));
		return 0;
	case SLOT_DOMAIN:
		if (ev->src->domain == DOMAIN_GUEST)
			value_set_str(v, "guest", 5);
		else
			value_set_str(v, "host", 4);
		return 0;
	case SLOT_SOURCE:
		value_set_str(v, ev->src->name, strlen(ev->src->name));
		return 0;
	case SLOT_GUEST_TS:
		value_set_u64(v, ev->raw_ts);
		return 0;
	default:
		if (slot >= 0)
			return ev->src->ops->field(ev->src, ev, slot, v);
		if (render_slot_is_enum(slot))
			return render_value(r, b, ev,
					    b->aux[2 * render_slot_aux(slot)], v);
		if (render_slot_is_join(slot)) {
			const int32_t *p = &b->aux[2 * render_slot_aux(slot)];
			struct value hi;
			int ret;

			ret = render_value(r, b, ev, p[0], v);
			if (ret == 0)
				ret = render_value(r, b, ev, p[1], &hi);
			if (ret < 0 || v->kind != VALUE_INT || hi.kind != VALUE_INT)
				return ret < 0 ? ret : -EINVAL;
			v->u = (v->u & 0xffffffffu) | hi.u << 32;
			v->neg = false;
			return 0;
		}
		return -ENOENT;
	}
}

int render_value(const struct render *r, const struct binding *b,
		 const struct event *ev, int32_t slot, struct value *v)
{
	return render_value_inline(r, b, ev, slot, v);
}

/* %s of an enum key is its symbol; every other conversion sees the number. */
static void render_enum(const struct binding *b, int32_t slot, char conv,
			struct value *v)
{
	const struct rule_alias *a;
	const char *sym;

	if (conv != 's' && conv != 'r' && conv != 'a')
		return;
	if (v->kind != VALUE_INT || v->neg)
		return;
	a = &b->rule->aliases[b->aux[2 * render_slot_aux(slot) + 1]];
	sym = a->table ? rules_enum_symbol(a->table, v->u) : NULL;
	if (sym)
		value_set_str(v, sym, strlen(sym));
}

/*
 * %s of a field whose values the event's format names (kvm_exit's
 * exit_reason) is the name, as `info` prints it; a value without a name,
 * and every other conversion, the number.
 */
static void render_symbol(const struct event *ev, int32_t slot, char conv,
			  struct value *v)
{
	struct value sym;

	if (conv != 's' && conv != 'r' && conv != 'a')
		return;
	if (v->kind == VALUE_INT &&
	    ev->src->ops->field_symbol(ev->src, ev->type, ev, slot, &sym) == 0)
		*v = sym;
}

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

/* x right-aligned in ro->width (<= 16) of ro->fill: RSTEP_*_DEC */
RENDER_INLINE char *render_dec_w(char *p, const struct render_op *ro,
				 uint64_t x)
{
	size_t n;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (__builtin_expect(x < 100000000, 1)) {
		/* 8 digits at once; the zeros before the first (all but
		 * the last) turned into the fill: no count, no loop */
		uint64_t d = pyfmt_dec8_swar((uint32_t)x);
		unsigned z = (unsigned)__builtin_ctzll(d | 1ull << 56) >> 3;
		uint64_t m = (1ull << (8 * z)) - 1;
		size_t w = ro->width;

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
	n = pyfmt_dec_len(x);

	memcpy(p, &ro->fill, 8);
	memcpy(p + 8, &ro->fill, 8);
	if (n < ro->width)
		p += ro->width - n;
	pyfmt_dec_back(p + n, x);
	return p + n;
}

#ifdef __SSE2__
/*
 * The hex digits of the 8 bytes of x, most significant first: each byte's
 * two nibbles side by side, then '0' or the letter's offset added to each.
 */
RENDER_INLINE __m128i render_hex_vec(__m128i x, bool upper)
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

/* '%08x' of w at p (upper: '%08X') */
RENDER_INLINE void render_hex8(char *p, uint32_t w, bool upper)
{
#if defined(__SSE2__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	_mm_storel_epi64((__m128i *)(void *)p,
			 render_hex_vec(_mm_cvtsi32_si128((int)__builtin_bswap32(w)),
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
			 render_hex_vec(_mm_cvtsi64_si128((long long)x), upper));
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
	__m128i v = render_hex_vec(_mm_cvtsi64_si128((long long)x), upper);

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
 * len bytes of s to p. Most strings are a few bytes: they go as two
 * loads that may overlap, all within s, and two stores (a call of
 * memcpy costs more than the copy).
 */
RENDER_INLINE void render_copy(char *p, const char *s, size_t len)
{
	if (len >= 8) {
		uint64_t a, z;

		if (__builtin_expect(len > 16, 0)) {
			memcpy(p, s, len);
			return;
		}
		memcpy(&a, s, 8);
		memcpy(&z, s + len - 8, 8);
		memcpy(p, &a, 8);
		memcpy(p + len - 8, &z, 8);
	} else if (len >= 4) {
		uint32_t a, z;

		memcpy(&a, s, 4);
		memcpy(&z, s + len - 4, 4);
		memcpy(p, &a, 4);
		memcpy(p + len - 4, &z, 4);
	} else if (len) {
		char a = s[0], m = s[len / 2], z = s[len - 1];

		p[0] = a;
		p[len / 2] = m;
		p[len - 1] = z;
	}
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
	render_copy(p, s, len);
	return p + len;
}

/* Count an event of b with no value for key i (struct render_missing). */
static int render_missing_add(struct render *r, const struct binding *b,
			      uint32_t i, const struct event *ev)
{
	size_t ri = (size_t)(b->rule - r->rules->v);
	struct render_missing *m = r->missing[ri];

	if (!m) {
		m = calloc(b->rule->tmpl->nkeys, sizeof(*m));
		if (!m)
			return -ENOMEM;
		r->missing[ri] = m;
	}
	if (!m[i].count++) {
		m[i].src = ev->src;
		m[i].type = ev->type;
		m[i].seq = ev->seq;
	}
	return 0;
}

/*
 * A key without a value prints as Python prints '%*s' % '' (the width's
 * blanks; '-' or not, the same): the line keeps its columns.
 */
static char *render_missing_put(char *p, const struct pyfmt_spec *sp)
{
	size_t w = sp->width > 0 ? (size_t)sp->width : 0;

	memset(p, ' ', w);
	return p + w;
}

static ssize_t render_conv(char *dst, const struct pyfmt_spec *sp,
			   const struct value *v)
{
	switch (v->kind) {
	case VALUE_INT:
		return pyfmt_int(dst, sp, v->neg, v->u);
	case VALUE_FLOAT:
		return pyfmt_float(dst, sp, v->f);
	case VALUE_STR:
		return pyfmt_str(dst, sp, v->s, v->len);
	case VALUE_NONE:
		break;
	}
	return pyfmt_str(dst, sp, "", 0);
}

static int render_typeerror(const struct render *r, const struct binding *b,
			    const struct event *ev, struct outbuf *o)
{
	const struct tmpl *tm = b->rule->tmpl;

	/* the 2008 tool printed the raw template, then the dict of values */
	if (outbuf_put(o, tm->text, tm->len) < 0 || outbuf_put(o, "\n", 1) < 0)
		return -ENOMEM;
	return ev->src->ops->render_args(ev->src, ev, r->mhz, o);
}

/*
 * RSTEP_GENERIC: op's value through its slot, then the inline formats or
 * pyfmt. A call of its own, off the steps' path: render_events() keeps
 * its few values in registers. Returns where the line goes on, or NULL
 * with *err (a negative errno) and diag set.
 */
static __attribute__((noinline)) char *
render_generic(struct render *r, const struct binding *b,
	       const struct render_op *ro, const struct event *ev,
	       struct outbuf *o, char *p, int *err, struct diag *d)
{
	const struct tmpl_op *op;
	const void *rec = ev->rec;
	struct value v;
	int32_t slot;
	uint32_t w;
	uint64_t x;
	ssize_t n;
	int ret;

	op = &b->ops[ro->conv];
	if (tmpl_fast_int(op)) {
		switch (ro->fetch) {
		case FETCH_REC_U32:
			memcpy(&w, (const char *)rec + ro->off, 4);
			return render_fast(p, op, w);
		case FETCH_TS_INT:
			return render_fast(p, op, ev->has_ts ? ev->ts : 0);
		case FETCH_RELTS:
			if (ev->relts_neg)
				break;
			return render_fast(p, op, ev->relts);
		case FETCH_REC_U64:
			memcpy(&x, (const char *)rec + ro->off, 8);
			return render_fast(p, op, x);
		case FETCH_REC_S64:
			memcpy(&x, (const char *)rec + ro->off, 8);
			if ((int64_t)x < 0)
				break;	/* the sign: the general path */
			return render_fast(p, op, x);
		case FETCH_CPU:
			return render_fast(p, op, ev->cpu);
		case FETCH_PID:
			if (ev->pid < 0)
				break;
			return render_fast(p, op, (uint64_t)ev->pid);
		case FETCH_CONST_STR:
		case FETCH_REC_STR:
		case FETCH_SLOT:
			break;
		}
	}
	slot = b->slots[op->key];
	ret = render_value_inline(r, b, ev, slot, &v);
	if (__builtin_expect(ret < 0, 0)) {
		/* no value: the width's blanks, counted */
		outbuf_commit(o, (size_t)(p - (o->buf + o->len)));
		if (render_missing_add(r, b, op->key, ev) < 0)
			goto nomem;
		p = outbuf_reserve(o, b->need);
		if (!p)
			goto nomem;
		return render_missing_put(p, &op->spec);
	}
	if (render_slot_is_enum(slot))
		render_enum(b, slot, op->spec.conv, &v);
	else if (b->symbolic && b->symbolic[op->key])
		render_symbol(ev, slot, op->spec.conv, &v);
	if (tmpl_fast_int(op) && v.kind == VALUE_INT && !v.neg)
		return render_fast(p, op, v.u);
	if (op->fast == TMPL_FLT && v.kind == VALUE_FLOAT) {
		n = pyfmt_fixed(p, v.f, op->spec.prec < 0 ? 6 :
					(unsigned)op->spec.prec);
		if (n >= 0)
			return p + n;
	}
	if (v.kind == VALUE_STR && op->fast == TMPL_STR) {
		/* plain %s: the bytes */
		p = render_put_str(o, p, v.s, v.len, b->need);
		if (!p)
			goto nomem;
		return p;
	}
	if (v.kind == VALUE_STR) {
		/* strings have no fixed bound: make room */
		outbuf_commit(o, (size_t)(p - (o->buf + o->len)));
		p = outbuf_reserve(o, pyfmt_bound(&op->spec, v.len) + b->need);
		if (!p)
			goto nomem;
	}
	n = render_conv(p, &op->spec, &v);
	if (n < 0) {
		diag_at(d, r->rules->file, b->rule->line,
			b->rule->col + op->col - 1, b->rule->line_text,
			b->rule->line_len,
			n == -ERANGE ? "%%c of a value outside 0..0x10ffff (record %" PRIu64 " of %s)"
				     : "the value cannot be formatted this way (record %" PRIu64 " of %s)",
			ev->seq, ev->src->name);
		*err = n == -ERANGE ? -ERANGE : -EINVAL;
		return NULL;
	}
	return p + n;
nomem:
	diag_set(d, "out of memory");
	*err = -ENOMEM;
	return NULL;
}

/*
 * The binding of ev from the caches, or NULL: render_binding() finds it.
 * Bindings live as long as r: one found stays good while others are made.
 */
RENDER_INLINE const struct binding *render_lookup(const struct render *r,
						  const struct event *ev)
{
	const struct render_tcache *tc;

	if (ev->type->has_id) {
		uint64_t id = ev->type->id;
		const struct render_src *rs = r->idsrcs[ev->src->index];
		const struct render_idcache *c = &rs->idcache[render_idhash(id)];

		if (c->id == id)
			return c->b;
		return id - r->id_lo > r->id_span ? rs->other : NULL;
	}
	tc = &r->tcache[render_thash(ev->type, ev->src->index)];
	return tc->type == ev->type ? tc->b : NULL;
}

/*
 * The next op's literal, then a jump straight to its step (one indirect
 * jump per step, at the end of the step before it: each has its own
 * history in the predictor, where one switch at the top of a loop had
 * one for all). A literal is at most 32 bytes (render_ops() cuts longer
 * ones into steps): two whole 16-byte chunks, the text and the output
 * having TMPL_SLACK (32) bytes of slack.
 */
#define RENDER_DISPATCH()                                                     \
	do {                                                                  \
		memcpy(p, ro->text, 16);                                      \
		memcpy(p + 16, ro->text + 16, 16);                            \
		p += ro->lit_len;                                             \
		goto *go[ro->step];                                           \
	} while (0)

/* no test for the end: the last step is RSTEP_END's */
#define RENDER_NEXT()                                                         \
	do {                                                                  \
		ro++;                                                         \
		RENDER_DISPATCH();                                            \
	} while (0)

int render_events(struct render *r, const struct event *ev, size_t nev,
		  struct outbuf *o, size_t *done, struct diag *d)
{
	/* where each enum render_step is written */
	static const void *const go[] = {
		[RSTEP_GENERIC] = &&generic,
		[RSTEP_NONE] = &&none,
		[RSTEP_END] = &&done,
		[RSTEP_U32_HEX8] = &&u32_hex8,
		[RSTEP_U32_HEX8_UP] = &&u32_hex8_up,
		[RSTEP_TS_DEC] = &&ts_dec,
		[RSTEP_STR] = &&str,
		[RSTEP_CONST_STR] = &&const_str,
		[RSTEP_U64_DEC] = &&u64_dec,
		[RSTEP_S64_DEC] = &&s64_dec,
		[RSTEP_RELTS_DEC] = &&relts_dec,
		[RSTEP_CPU_DEC] = &&cpu_dec,
		[RSTEP_PID_DEC] = &&pid_dec,
		[RSTEP_U64_HEX] = &&u64_hex,
		[RSTEP_U64_HEX_UP] = &&u64_hex_up,
		[RSTEP_U32_HEX] = &&u32_hex,
		[RSTEP_U32_HEX_UP] = &&u32_hex_up,
		[RSTEP_U32_DEC] = &&u32_dec,
		[RSTEP_U32_HEX16] = &&u32_hex16,
		[RSTEP_U32_HEX16_UP] = &&u32_hex16_up,
		[RSTEP_U32_HEX8X2] = &&u32_hex8x2,
		[RSTEP_U32_HEX8X2_UP] = &&u32_hex8x2_up,
	};
	const struct binding *b, *bn;
	const struct render_op *ro;
	const void *rec;
	const char *s;
	uint32_t w, w2;
	uint64_t x;
	size_t len;
	ssize_t n;
	const struct event *end = ev + nev;
	int lines = 0;
	char *p;
	int ret;

	*done = 0;
	/* the first event of the run: the glob rules are checked first */
	if (__builtin_expect(r->globs_srcs != NULL, 0) && nev) {
		ret = render_check_globs(r, ev, d);
		if (ret < 0)
			return ret;
	}
	bn = nev ? render_lookup(r, ev) : NULL;
next:
	/* a closed pipe: what follows would go nowhere (the caller stops) */
	if (ev == end || o->closed) {
		*done = nev - (size_t)(end - ev);
		return lines;
	}
	b = bn;
	/* the next event's binding now: its loads wait less */
	bn = ev + 1 < end ? render_lookup(r, ev + 1) : NULL;
	if (!b) {
		ret = render_binding(r, ev, &b, d);
		if (ret < 0)
			goto fail;
	}
	if (__builtin_expect(b->mode != RMODE_TEMPLATE, 0)) {
		/* a skip rule: its events print nothing; nor a source's
		 * without a rendering of its own */
		if (b->mode == RMODE_SKIP ||
		    (b->mode == RMODE_DEFAULT && !ev->src->ops->render_default)) {
			ev++;
			goto next;
		}
		if (b->mode == RMODE_TYPEERROR)
			ret = render_typeerror(r, b, ev, o) < 0 ? -ENOMEM : 0;
		else
			ret = ev->src->ops->render_default(ev->src, ev, o);
		if (ret < 0)
			goto fail;
		lines++;
		ev++;
		goto next;
	}
	p = outbuf_reserve(o, b->need);
	if (!p)
		goto nomem;
	rec = ev->rec;
	ro = b->rops;
	RENDER_DISPATCH();
none:
	RENDER_NEXT();
u32_hex8:
	memcpy(&w, (const char *)rec + ro->off, 4);
	render_hex8(p, w, false);
	p += 8;
	RENDER_NEXT();
u32_hex8_up:
	memcpy(&w, (const char *)rec + ro->off, 4);
	render_hex8(p, w, true);
	p += 8;
	RENDER_NEXT();
u32_hex8x2:
	memcpy(&w, (const char *)rec + ro->off, 4);
	memcpy(&w2, (const char *)rec + ro->off2, 4);
	p = render_hex8x2(p, w, ro->str, ro->len, w2, false);
	RENDER_NEXT();
u32_hex8x2_up:
	memcpy(&w, (const char *)rec + ro->off, 4);
	memcpy(&w2, (const char *)rec + ro->off2, 4);
	p = render_hex8x2(p, w, ro->str, ro->len, w2, true);
	RENDER_NEXT();
u32_hex16:
	memcpy(&w, (const char *)rec + ro->off, 4);
	memcpy(&w2, (const char *)rec + ro->off2, 4);
	render_hex16(p, w, w2, false);
	p += 16;
	RENDER_NEXT();
u32_hex16_up:
	memcpy(&w, (const char *)rec + ro->off, 4);
	memcpy(&w2, (const char *)rec + ro->off2, 4);
	render_hex16(p, w, w2, true);
	p += 16;
	RENDER_NEXT();
u32_hex:
	memcpy(&w, (const char *)rec + ro->off, 4);
	n = (ssize_t)((35 - __builtin_clz(w | 1)) >> 2);
	if (n < ro->width)
		n = ro->width;	/* zeros: the high digits of the word */
	render_hex_tail(p, w, (size_t)n, 'a' - '0' - 10);
	p += n;
	RENDER_NEXT();
u32_hex_up:
	memcpy(&w, (const char *)rec + ro->off, 4);
	n = (ssize_t)((35 - __builtin_clz(w | 1)) >> 2);
	if (n < ro->width)
		n = ro->width;
	render_hex_tail(p, w, (size_t)n, 'A' - '0' - 10);
	p += n;
	RENDER_NEXT();
u32_dec:
	memcpy(&w, (const char *)rec + ro->off, 4);
	p = render_dec_w(p, ro, w);
	RENDER_NEXT();
ts_dec:
	x = ev->has_ts ? ev->ts : 0;
	if (x - 100000000u < 10000000000000000u - 100000000u) {
		/* the high digits as the last stamp's, then the low 8 */
		uint64_t q = x / 100000000u;

		if (__builtin_expect(q != r->ts_hi, 0)) {
			r->ts_hi = q;
			r->ts_hi_len = pyfmt_dec_len(q);
			pyfmt_dec_back(r->ts_hi_text + r->ts_hi_len, q);
		}
		memcpy(p, r->ts_hi_text, 8);
		p += r->ts_hi_len;
		pyfmt_dec8(p, (uint32_t)(x - q * 100000000u));
		p += 8;
		RENDER_NEXT();
	}
	n = (ssize_t)pyfmt_dec_len(x);
	pyfmt_dec_back(p + n, x);
	p += n;
	RENDER_NEXT();
s64_dec:
	memcpy(&x, (const char *)rec + ro->off, 8);
	if ((int64_t)x < 0)
		goto generic;	/* the sign: the general path */
	n = (ssize_t)pyfmt_dec_len(x);
	pyfmt_dec_back(p + n, x);
	p += n;
	RENDER_NEXT();
u64_dec:
	memcpy(&x, (const char *)rec + ro->off, 8);
	n = (ssize_t)pyfmt_dec_len(x);
	pyfmt_dec_back(p + n, x);
	p += n;
	RENDER_NEXT();
relts_dec:
	if (ev->relts_neg)
		goto generic;	/* the sign: the general path */
	p = render_dec_w(p, ro, ev->relts);
	RENDER_NEXT();
cpu_dec:
	p = render_dec_w(p, ro, ev->cpu);
	RENDER_NEXT();
pid_dec:
	if (ev->pid < 0)
		goto generic;	/* the sign: the general path */
	p = render_dec_w(p, ro, (uint64_t)ev->pid);
	RENDER_NEXT();
u64_hex:
	memcpy(&x, (const char *)rec + ro->off, 8);
	memcpy(p, ro->str, 2);
	p += ro->len;
	n = (ssize_t)((67 - __builtin_clzll(x | 1)) >> 2);
	pyfmt_put_hex(p, x, (size_t)n, 'a' - '0' - 10);
	p += n;
	RENDER_NEXT();
u64_hex_up:
	memcpy(&x, (const char *)rec + ro->off, 8);
	memcpy(p, ro->str, 2);
	p += ro->len;
	n = (ssize_t)((67 - __builtin_clzll(x | 1)) >> 2);
	pyfmt_put_hex(p, x, (size_t)n, 'A' - '0' - 10);
	p += n;
	RENDER_NEXT();
const_str:
	p = render_put_str(o, p, ro->str, ro->len, b->need);
	if (!p)
		goto nomem;
	RENDER_NEXT();
str:
	memcpy(&s, (const char *)rec + ro->off, sizeof(s));
	memcpy(&len, (const char *)rec + ro->off2, sizeof(len));
	p = render_put_str(o, p, s, len, b->need);
	if (!p)
		goto nomem;
	RENDER_NEXT();
generic:
	p = render_generic(r, b, ro, ev, o, p, &ret, d);
	if (!p)
		goto fail;
	RENDER_NEXT();
done:
	*p++ = '\n';
	outbuf_commit(o, (size_t)(p - (o->buf + o->len)));
	lines++;
	ev++;
	goto next;
nomem:
	diag_set(d, "out of memory");
	ret = -ENOMEM;
fail:
	*done = nev - (size_t)(end - ev);
	return ret;
}

int render_event(struct render *r, const struct event *ev, struct outbuf *o,
		 struct diag *d)
{
	size_t done;

	return render_events(r, ev, 1, o, &done, d);
}
