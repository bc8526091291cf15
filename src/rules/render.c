// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rendering an event through the binding of its rule (render-bind.c):
 * the template's literals and conversions into the output buffer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "outbuf.h"
#include "pyfmt.h"
#include "render-int.h"
#include "render.h"
#include "source.h"

/*
 * What render_lookup() gives for an event whose binding is not at hand:
 * its gate no room passes, so the test of the room left sends it off the
 * path, where render_binding() finds the binding (no test of its own).
 */
static const struct binding render_unbound = { .gate = SIZE_MAX };

/*
 * The binding of ev from the caches, or &render_unbound: render_binding()
 * finds it. Bindings live as long as r: one found stays good while others
 * are made.
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
		if (id - r->id_lo > r->id_span && rs->other)
			return rs->other;
		return &render_unbound;
	}
	tc = &r->tcache[render_thash(ev->type, ev->src->index)];
	return tc->type == ev->type ? tc->b : &render_unbound;
}

/* The digits of q, a stamp's part above its low 8, as render_ts_dec's */
static void render_ts_hi(struct render *r, uint64_t q)
{
	r->ts_hi = q;
	r->bcd_x = UINT64_MAX;	/* its digits were another part's */
	r->ts_hi_len = pyfmt_dec_len(q);
	pyfmt_dec_back(r->ts_hi_text + r->ts_hi_len, q);
}

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * The stamps' digits as sums (RSTEP_TS_RELTS_HEX8X2): a stamp that is the
 * last one printed (r->bcd_x) plus d has for its low 8 digits the sum of
 * the last one's (r->bcd, unpacked BCD, the last digit in the low byte)
 * and d's, where a division by 10^8 and the vector of 16 digits took more
 * instructions.
 */

/* The 8 digits of d < 10^4 as pyfmt_dec8_swar() gives them: two pairs of
 * the table, less '0' */
static inline uint64_t render_dec4_swar(uint32_t d)
{
	uint32_t hi = d * 5243 >> 19;	/* d / 100 below 43699 */
	uint16_t a, z;

	memcpy(&a, pyfmt_dig2 + 2 * hi, 2);
	memcpy(&z, pyfmt_dig2 + 2 * (d - hi * 100), 2);
	return (uint64_t)((a | (uint32_t)z << 16) - 0x30303030u) << 32;
}

/*
 * Stamp x, the last one plus the number whose digits are dr (as
 * pyfmt_dec8_swar() gives them): the digits of its part above the low 8,
 * then the low 8 as the sum, each byte biased by 246 so that ten or more
 * carries into the next, the bias then taken off the bytes that did not
 * carry (their top bit set). Where the output goes on, or NULL, nothing
 * written, where the 8th digit carries out (the part above changes).
 */
RENDER_INLINE char *render_ts_sum(struct render *r, char *p, uint64_t x,
				  uint64_t dr)
{
	uint64_t sum = r->bcd + __builtin_bswap64(dr) + 0xf6f6f6f6f6f6f6f6ull;

	if (__builtin_expect(!(sum >> 63), 0))
		return NULL;
	sum -= ((sum >> 7) & 0x0101010101010101ull) * 0xf6;
	r->bcd = sum;
	r->bcd_x = x;
	memcpy(p, r->ts_hi_text, 8);
	p += r->ts_hi_len;
	sum = __builtin_bswap64(sum) + 0x3030303030303030ull;
	memcpy(p, &sum, 8);
	return p + 8;
}
#endif

/*
 * %d of a time stamp x in ticks: of 9 to 16 digits, the digits of its part
 * above the low 8 as the last stamp's (the same from one event to the
 * next but every 10^8 ticks), then the low 8 (render_ts_sum() measured
 * more instructions here, where no relts comes with the stamp). Where the
 * output goes on.
 */
RENDER_INLINE char *render_ts_dec(struct render *r, char *p, uint64_t x)
{
	size_t n;

	if (x - 100000000u < 10000000000000000u - 100000000u) {
		uint64_t q = x / 100000000u;

		if (__builtin_expect(q != r->ts_hi, 0))
			render_ts_hi(r, q);
		memcpy(p, r->ts_hi_text, 8);
		p += r->ts_hi_len;
		pyfmt_dec8(p, (uint32_t)(x - q * 100000000u));
		return p + 8;
	}
	n = pyfmt_dec_len(x);
	pyfmt_dec_back(p + n, x);
	return p + n;
}

/*
 * The next op's literal, then a jump straight to its step (one indirect
 * jump per step, at the end of the step before it: each has its own
 * history in the predictor, where one switch at the top of a loop had
 * one for all), to the label whose address the op holds (render_op.go,
 * no table to index). A literal is at most 32 bytes (render_ops() cuts
 * longer ones into steps): two whole 16-byte chunks, the text and the
 * output having TMPL_SLACK (32) bytes of slack.
 */
#define RENDER_DISPATCH()                                                     \
	do {                                                                  \
		memcpy(p, ro->text, 16);                                      \
		memcpy(p + 16, ro->text + 16, 16);                            \
		p += ro->lit_len;                                             \
		goto *ro->go;                                                 \
	} while (0)

/*
 * After a step that may have flushed the buffer: a closed pipe makes this
 * event the last (render_events())
 */
#define RENDER_CLOSED()                                                       \
	do {                                                                  \
		if (__builtin_expect(o->closed, 0))                           \
			end = ev + 1;                                         \
	} while (0)

/*
 * The buffer's state in locals while lines go in: lb where the line being
 * written starts (o->buf + o->len, o->len set only when something else is
 * to read it: RENDER_SYNC() before each call that may write to o, and on
 * return), lend its end; RENDER_RELOAD() after such a call
 */
#define RENDER_SYNC() (o->len = (size_t)(lb - o->buf))
#define RENDER_RELOAD()                                                       \
	do {                                                                  \
		lb = o->buf + o->len;                                         \
		lend = o->buf + o->cap;                                       \
	} while (0)

/*
 * render_put_str()'s, the test for a closed pipe where the buffer may
 * have been flushed: a string of len_ bytes, the rest of the line's need
 * after it
 */
#define RENDER_PUT_STR(s_, len_)                                              \
	do {                                                                  \
		size_t n_ = (len_);                                           \
                                                                              \
		if (__builtin_expect((size_t)(lend - p) < n_ + b->need, 0)) { \
			RENDER_SYNC();                                        \
			outbuf_commit(o, (size_t)(p - lb));                   \
			p = outbuf_reserve(o, n_ + b->need);                  \
			if (!p)                                               \
				goto nomem;                                   \
			RENDER_RELOAD();                                      \
			RENDER_CLOSED();                                      \
		}                                                             \
		copy_short(p, (s_), n_);                                      \
		p += n_;                                                      \
	} while (0)

/*
 * A step's value v as it wrote it last (render_op.memo): its text again,
 * and on to the next step
 */
#define RENDER_MEMO_HIT(v_)                                                   \
	do {                                                                  \
		if ((v_) == ro->memo_v) {                                     \
			memcpy(p, ro->memo, 16);                              \
			memcpy(p + 16, ro->memo + 16, 16);                    \
			p += ro->memo_len;                                    \
			RENDER_NEXT();                                        \
		}                                                             \
	} while (0)

/* the text of v, from s_ to p, kept for the step's next event (the ops
 * are the binding's own, written by no one else; the output has slack
 * for the 32 bytes) */
#define RENDER_MEMO_KEEP(v_, s_)                                              \
	do {                                                                  \
		struct render_op *m_ = (struct render_op *)ro;                \
                                                                              \
		memcpy(m_->memo, (s_), 32);                                   \
		m_->memo_v = (v_);                                            \
		m_->memo_len = (uint8_t)(p - (s_));                           \
	} while (0)

/*
 * The event's record, what the steps' offsets are in: read where a step
 * needs it (ev is in a register; a copy of ev->rec was kept on the stack)
 */
#define RENDER_REC ((const char *)ev->rec)

/* no test for the end: the last step is RSTEP_END's */
#define RENDER_NEXT()                                                         \
	do {                                                                  \
		ro++;                                                         \
		RENDER_DISPATCH();                                            \
	} while (0)

RENDER_LOOP
int render_events(struct render *r, const struct event *ev, size_t nev,
		  struct outbuf *o, size_t *done, struct diag *d)
{
	/* where each enum render_step is written: each op's go, set at
	 * its binding's first event */
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
		[RSTEP_TS_RELTS_HEX8X2] = &&ts_relts_hex8x2,
		[RSTEP_U64_HEX16] = &&u64_hex16,
		[RSTEP_U64_HEX16_UP] = &&u64_hex16_up,
		[RSTEP_FIELD_STR] = &&field_str,
	};
	const struct binding *b, *bn;
	const struct render_op *ro;
	struct value val;
	const char *s;
	uint32_t w, w2;
	uint64_t x;
	size_t len;
	ssize_t n;
	const struct event *start = ev, *end = ev + nev;
	size_t skipped = 0;
	char *p, *lb, *lend;
	int ret;

	*done = 0;
	/*
	 * A closed pipe: what follows would go nowhere (the caller stops).
	 * o->closed changes only where the buffer is flushed, off the common
	 * path: each place that may flush tests it and, if set, makes the
	 * event it renders the last one (end), not a test per event.
	 */
	if (o->closed)
		end = ev;
	RENDER_RELOAD();
	/* the first event of the run: the glob rules are checked first */
	if (__builtin_expect(r->globs_srcs != NULL, 0) && nev) {
		ret = render_check_globs(r, ev, d);
		if (ret < 0)
			return ret;
	}
	/* the run's first event, should nothing be printed at all */
	if (__builtin_expect(!r->nevents, 0) && ev < end && !r->first.what[0])
		render_note(&r->first, ev);
	bn = ev < end ? render_lookup(r, ev) : &render_unbound;
next:
	if (ev == end) {
		RENDER_SYNC();
		/* the lines: the events rendered but those a rule skips */
		*done = (size_t)(ev - start);
		r->nevents += *done;
		r->nlines += *done - skipped;
		return (int)(*done - skipped);
	}
	b = bn;
	/* the next event's binding now: its loads wait less */
	bn = ev + 1 < end ? render_lookup(r, ev + 1) : &render_unbound;
	/* an unbound event's gate fails too (render_unbound) */
	if (__builtin_expect((size_t)(lend - lb) < b->gate, 0))
		goto gate;
template:
	p = lb;
	ro = b->rops;
	RENDER_DISPATCH();
gate:
	if (b == &render_unbound) {
		RENDER_SYNC();
		ret = render_binding(r, ev, &b, d);
		if (ret < 0)
			goto fail;
		if ((size_t)(lend - lb) >= b->gate)
			goto template;
	}
	if (b->mode == RMODE_TEMPLATE && b->gate == SIZE_MAX) {
		/* its first event: where each step is written, then the
		 * gate open (the binding is r's, in no one else's hands) */
		struct binding *nb = (struct binding *)b;

		for (size_t i = 0; i < nb->nrops; i++)
			nb->rops[i].go = go[nb->rops[i].step];
		nb->gate = nb->need;
		if ((size_t)(lend - lb) >= b->gate)
			goto template;
	}
	/* a mode other than RMODE_TEMPLATE's (b->gate), or a full buffer */
	if (b->mode != RMODE_TEMPLATE) {
		/* a skip rule: its events print nothing; nor a source's
		 * without a rendering of its own */
		if (b->mode == RMODE_SKIP ||
		    (b->mode == RMODE_DEFAULT && !ev->src->ops->render_default)) {
			if (b->mode == RMODE_DEFAULT && !r->nunmatched++)
				render_note(&r->unmatched, ev);
			skipped++;
			ev++;
			goto next;
		}
		RENDER_SYNC();
		if (b->mode == RMODE_TYPEERROR)
			ret = render_typeerror(r, b, ev, o) < 0 ? -ENOMEM : 0;
		else
			ret = ev->src->ops->render_default(ev->src, ev, o);
		if (ret < 0)
			goto fail;
		RENDER_RELOAD();
		if (o->closed)
			end = ev + 1;
		ev++;
		goto next;
	}
	RENDER_SYNC();
	p = outbuf_reserve_slow(o, b->need);
	if (!p)
		goto nomem;
	RENDER_RELOAD();
	if (o->closed)
		end = ev + 1;
	ro = b->rops;
	RENDER_DISPATCH();
none:
	RENDER_NEXT();
u32_hex8:
	memcpy(&w, RENDER_REC + ro->off, 4);
	render_hex8(p, w, false);
	p += 8;
	RENDER_NEXT();
u32_hex8_up:
	memcpy(&w, RENDER_REC + ro->off, 4);
	render_hex8(p, w, true);
	p += 8;
	RENDER_NEXT();
u32_hex8x2:
	memcpy(&w, RENDER_REC + ro->off, 4);
	memcpy(&w2, RENDER_REC + ro->off2, 4);
	p = render_hex8x2(p, w, ro->str, ro->len, w2, false);
	RENDER_NEXT();
u32_hex8x2_up:
	memcpy(&w, RENDER_REC + ro->off, 4);
	memcpy(&w2, RENDER_REC + ro->off2, 4);
	p = render_hex8x2(p, w, ro->str, ro->len, w2, true);
	RENDER_NEXT();
u32_hex16:
	memcpy(&w, RENDER_REC + ro->off, 4);
	memcpy(&w2, RENDER_REC + ro->off2, 4);
	render_hex16(p, w, w2, false);
	p += 16;
	RENDER_NEXT();
u32_hex16_up:
	memcpy(&w, RENDER_REC + ro->off, 4);
	memcpy(&w2, RENDER_REC + ro->off2, 4);
	render_hex16(p, w, w2, true);
	p += 16;
	RENDER_NEXT();
u64_hex16:
	memcpy(&x, RENDER_REC + ro->off, 8);
	render_hex16(p, (uint32_t)(x >> 32), (uint32_t)x, false);
	p += 16;
	RENDER_NEXT();
u64_hex16_up:
	memcpy(&x, RENDER_REC + ro->off, 8);
	render_hex16(p, (uint32_t)(x >> 32), (uint32_t)x, true);
	p += 16;
	RENDER_NEXT();
u32_hex:
	memcpy(&w, RENDER_REC + ro->off, 4);
	n = (ssize_t)((35 - __builtin_clz(w | 1)) >> 2);
	if (n < ro->width)
		n = ro->width;	/* zeros: the high digits of the word */
	render_hex_tail(p, w, (size_t)n, 'a' - '0' - 10);
	p += n;
	RENDER_NEXT();
u32_hex_up:
	memcpy(&w, RENDER_REC + ro->off, 4);
	n = (ssize_t)((35 - __builtin_clz(w | 1)) >> 2);
	if (n < ro->width)
		n = ro->width;
	render_hex_tail(p, w, (size_t)n, 'A' - '0' - 10);
	p += n;
	RENDER_NEXT();
u32_dec:
	memcpy(&w, RENDER_REC + ro->off, 4);
	p = render_dec_w(p, ro, w);
	RENDER_NEXT();
ts_dec:
	p = render_ts_dec(r, p, ev->has_ts ? ev->ts : 0);
	RENDER_NEXT();
ts_relts_hex8x2:
	x = ev->has_ts ? ev->ts : 0;
#if defined(__SSE2__) && defined(__x86_64__) && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (__builtin_expect(x - ev->relts == r->bcd_x && !ev->relts_neg &&
			     ev->relts < 100000000u, 1)) {
		/*
		 * the stamp is the last one plus relts: its low 8 digits are
		 * the sum of the last one's and relts' (render_ts_sum()); a
		 * carry out of the 8th digit changes the part above: the way
		 * below
		 */
		uint64_t dr = ev->relts < 10000 ?
				      render_dec4_swar((uint32_t)ev->relts) :
				      pyfmt_dec8_swar((uint32_t)ev->relts);
		char *e = render_ts_sum(r, p, x, dr);

		if (__builtin_expect(e != NULL, 1)) {
			p = e;
			memcpy(p, ro->text2, 16);
			p += ro->len2;
			p = render_dec_w_digits(p, ro, dr);
			goto ts_relts_hex8x2_tail;
		}
	}
	if (__builtin_expect(x - 100000000u < 10000000000000000u - 100000000u &&
			     !ev->relts_neg && ev->relts < 100000000u, 1)) {
		/* the stamp's low 8 digits and relts' 8 in one vector */
		uint64_t q = x / 100000000u;
		__m128i v;

		if (__builtin_expect(q != r->ts_hi, 0))
			render_ts_hi(r, q);
		v = pyfmt_dec8x2((uint32_t)(x - q * 100000000u),
				 (uint32_t)ev->relts);
		/* the low 8 digits for the next stamp's sum (see above) */
		r->bcd = __builtin_bswap64((uint64_t)_mm_cvtsi128_si64(v));
		r->bcd_x = x;
		memcpy(p, r->ts_hi_text, 8);
		p += r->ts_hi_len;
		_mm_storel_epi64((__m128i *)(void *)p,
				 _mm_add_epi8(v, _mm_set1_epi8('0')));
		p += 8;
		memcpy(p, ro->text2, 16);
		p += ro->len2;
		p = render_dec_w_digits(p, ro, (uint64_t)_mm_cvtsi128_si64(
						       _mm_unpackhi_epi64(v, v)));
		goto ts_relts_hex8x2_tail;
	}
#endif
	p = render_ts_dec(r, p, x);
	memcpy(p, ro->text2, 16);
	p += ro->len2;
	if (__builtin_expect(ev->relts_neg, 0)) {
		/* the sign: the general path, for this conversion */
		RENDER_SYNC();
		p = render_generic_at(r, b, ro->conv2, FETCH_RELTS, ev, o, p,
				      d);
		ret = r->err;
		if (!p)
			goto fail;
		RENDER_RELOAD();
		RENDER_CLOSED();
	} else {
		p = render_dec_w(p, ro, ev->relts);
	}
ts_relts_hex8x2_tail:
	memcpy(p, ro->text3, 16);
	memcpy(p + 16, ro->text3 + 16, 16);
	p += ro->len3;
	memcpy(&w, RENDER_REC + ro->off, 4);
	memcpy(&w2, RENDER_REC + ro->off2, 4);
	p = render_hex8x2(p, w, ro->str, ro->len, w2, false);
	RENDER_NEXT();
s64_dec:
	memcpy(&x, RENDER_REC + ro->off, 8);
	if ((int64_t)x < 0)
		goto generic;	/* the sign: the general path */
	RENDER_MEMO_HIT(x);
	s = p;
	p = render_dec_u64(p, x);
	RENDER_MEMO_KEEP(x, s);
	RENDER_NEXT();
u64_dec:
	memcpy(&x, RENDER_REC + ro->off, 8);
	p = render_dec_u64(p, x);
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
	RENDER_MEMO_HIT((uint64_t)ev->pid);
	s = p;
	p = render_dec_w(p, ro, (uint64_t)ev->pid);
	RENDER_MEMO_KEEP((uint64_t)ev->pid, s);
	RENDER_NEXT();
u64_hex:
	memcpy(&x, RENDER_REC + ro->off, 8);
	RENDER_MEMO_HIT(x);
	s = p;
	memcpy(p, ro->str, 2);
	p += ro->len;
	n = (ssize_t)((67 - __builtin_clzll(x | 1)) >> 2);
	pyfmt_hex_n(p, x, (size_t)n, false);
	p += n;
	RENDER_MEMO_KEEP(x, s);
	RENDER_NEXT();
u64_hex_up:
	memcpy(&x, RENDER_REC + ro->off, 8);
	RENDER_MEMO_HIT(x);
	s = p;
	memcpy(p, ro->str, 2);
	p += ro->len;
	n = (ssize_t)((67 - __builtin_clzll(x | 1)) >> 2);
	pyfmt_hex_n(p, x, (size_t)n, true);
	p += n;
	RENDER_MEMO_KEEP(x, s);
	RENDER_NEXT();
const_str:
	RENDER_PUT_STR(ro->str, ro->len);
	RENDER_NEXT();
str:
	memcpy(&s, RENDER_REC + ro->off, sizeof(s));
	memcpy(&len, RENDER_REC + ro->off2, sizeof(len));
	RENDER_PUT_STR(s, len);
	RENDER_NEXT();
field_str:
	/* a string, or a number as %s prints it; else the general path */
	if (ev->src->ops->field(ev->src, ev, (int)ro->off, &val) == 0) {
		if (val.kind == VALUE_STR) {
			RENDER_PUT_STR(val.s, val.len);
			RENDER_NEXT();
		}
		if (val.kind == VALUE_INT && !val.neg) {
			p = render_fast(p, &b->ops[ro->conv], val.u);
			RENDER_NEXT();
		}
	}
	goto generic;
generic:
	RENDER_SYNC();
	p = render_generic(r, b, ro, ev, o, p, d);
	ret = r->err;
	if (!p)
		goto fail;
	RENDER_RELOAD();
	RENDER_CLOSED();
	RENDER_NEXT();
done:
	/* the newline: RSTEP_END's literal's last byte (render_ops()) */
	lb = p;	/* the line committed (RENDER_SYNC()) */
	ev++;
	goto next;
nomem:
	diag_set(d, "out of memory");
	ret = -ENOMEM;
fail:
	*done = (size_t)(ev - start);
	/* the events before it were gone through (render_unmatched_report()) */
	r->nevents += *done;
	r->nlines += *done - skipped;
	return ret;
}

int render_event(struct render *r, const struct event *ev, struct outbuf *o,
		 struct diag *d)
{
	size_t done;

	return render_events(r, ev, 1, o, &done, d);
}
