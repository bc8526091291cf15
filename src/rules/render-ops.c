// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A binding's template as the steps render_events() takes (struct
 * render_op): which step writes each conversion, the literals cut into
 * steps, neighbouring conversions fused into one.
 */
#include <stdlib.h>
#include <string.h>

#include "pyfmt.h"
#include "render-int.h"
#include "render.h"
#include "template.h"

/* Which of render_event()'s steps writes op (enum render_step). */
static uint8_t render_step_of(const struct tmpl_op *op,
			      const struct fetch *fetch)
{
	const struct pyfmt_spec *sp = &op->spec;

	switch (fetch[op->key].kind) {
	case FETCH_REC_U32:
		/* a u32 has at most 8 digits: zero padding to 8 is all 8 */
		if ((op->fast == TMPL_HEX || op->fast == TMPL_HEX_UP) &&
		    sp->flags == PYFMT_ZERO && sp->width == 8 && sp->prec < 0)
			return op->fast == TMPL_HEX ? RSTEP_U32_HEX8
						    : RSTEP_U32_HEX8_UP;
		/* %x, %02x, %04X: zeros up to at most 8 digits, or none */
		if ((op->fast == TMPL_HEX || op->fast == TMPL_HEX_UP) &&
		    sp->prec < 0 &&
		    ((sp->flags == PYFMT_ZERO && sp->width <= 8) ||
		     (sp->flags == 0 && sp->width <= 1)))
			return op->fast == TMPL_HEX ? RSTEP_U32_HEX
						    : RSTEP_U32_HEX_UP;
		if (op->fast == TMPL_DEC && (sp->flags & ~PYFMT_ZERO) == 0 &&
		    sp->width <= 16)
			return RSTEP_U32_DEC;
		break;
	case FETCH_TS_INT:
		if (op->fast == TMPL_DEC && sp->width <= 0)
			return RSTEP_TS_DEC;
		break;
	case FETCH_RELTS:
	case FETCH_CPU:
	case FETCH_PID:
		/*
		 * the classic formats' (+%(relts)12d), trace-cmd's
		 * [%(cpu)03d] and -%(pid)d: right-aligned, spaces or zeros
		 */
		if (op->fast == TMPL_DEC && (sp->flags & ~PYFMT_ZERO) == 0 &&
		    sp->width <= 16)
			return fetch[op->key].kind == FETCH_RELTS ? RSTEP_RELTS_DEC :
			       fetch[op->key].kind == FETCH_CPU ? RSTEP_CPU_DEC :
								 RSTEP_PID_DEC;
		break;
	case FETCH_REC_U64:
	case FETCH_REC_S64:
		if (op->fast == TMPL_DEC && sp->width <= 0)
			return fetch[op->key].kind == FETCH_REC_U64 ?
				       RSTEP_U64_DEC : RSTEP_S64_DEC;
		/* %016x: a u64 has at most 16 digits, zeros before them */
		if ((op->fast == TMPL_HEX || op->fast == TMPL_HEX_UP) &&
		    sp->flags == PYFMT_ZERO && sp->width == 16 &&
		    sp->prec < 0 && fetch[op->key].kind == FETCH_REC_U64)
			return op->fast == TMPL_HEX ? RSTEP_U64_HEX16
						    : RSTEP_U64_HEX16_UP;
		/* %x and %#x, no width (%#x is '#' alone: TMPL_HEX) */
		if ((op->fast == TMPL_HEX || op->fast == TMPL_HEX_UP) &&
		    sp->width <= 0 && fetch[op->key].kind == FETCH_REC_U64)
			return op->fast == TMPL_HEX ? RSTEP_U64_HEX
						    : RSTEP_U64_HEX_UP;
		break;
	case FETCH_REC_STR:
		if (op->fast == TMPL_STR)
			return RSTEP_STR;
		break;
	case FETCH_CONST_STR:
		if (op->fast == TMPL_STR)
			return RSTEP_CONST_STR;
		break;
	default:
		break;
	}
	return RSTEP_GENERIC;
}

/*
 * The steps of tm for a binding: each conversion with the literal before
 * it (two literals not next to each other in the text take two steps),
 * then RSTEP_END with the literal after the last conversion.
 * A literal longer than RENDER_LIT_CHUNK bytes is cut into steps of that
 * many with no conversion, so that render_event() copies every literal
 * as its two 16-byte chunks and has no loop (nor test) for long ones.
 */
#define RENDER_LIT_CHUNK RENDER_LIT_MAX

/*
 * A classic rule's head, %(ts)d (+%(relts)12d)  NAME  vcpu = 0x%(vcpu)08x
 * pid = 0x%(pid)08x, as its three steps come from render_ops_fuse(): one
 * RSTEP_TS_RELTS_HEX8X2 wherever they follow one another.
 */
static struct render_op *render_ops_head(struct render_op *v, size_t *n)
{
	size_t i, j = 0;

	for (i = 0; i < *n; i++) {
		if (i + 2 < *n && v[i].step == RSTEP_TS_DEC &&
		    v[i + 1].step == RSTEP_RELTS_DEC &&
		    v[i + 1].lit_len <= sizeof(v[i].text2) &&
		    v[i + 2].step == RSTEP_U32_HEX8X2) {
			struct render_op h = v[i];

			h.step = RSTEP_TS_RELTS_HEX8X2;
			memcpy(h.text2, v[i + 1].text, sizeof(h.text2));
			h.len2 = (uint8_t)v[i + 1].lit_len;
			h.width = v[i + 1].width;
			h.fill = v[i + 1].fill;
			h.conv2 = v[i + 1].conv;
			memcpy(h.text3, v[i + 2].text, sizeof(h.text3));
			h.len3 = (uint8_t)v[i + 2].lit_len;
			h.off = v[i + 2].off;
			h.off2 = v[i + 2].off2;
			h.str = v[i + 2].str;
			h.len = v[i + 2].len;
			v[j++] = h;
			i += 2;
			continue;
		}
		v[j++] = v[i];
	}
	*n = j;
	return v;
}

/*
 * The steps as render_event() takes them: two words printed as one
 * number (rip = 0x%(3)08x%(2)08x) one step, and so two with some text
 * between (vcpu = 0x%(vcpu)08x  pid = 0x%(pid)08x) unless the second
 * makes one number with the next; each literal's bytes in its step.
 */
static struct render_op *render_ops_fuse(struct render_op *v, size_t *n)
{
	size_t i, j = 0;

	for (i = 0; i < *n; i++) {
		struct render_op *prev = j ? &v[j - 1] : NULL;
		bool hex8 = v[i].step == RSTEP_U32_HEX8 ||
			    v[i].step == RSTEP_U32_HEX8_UP;

		if (prev && hex8 && v[i].step == prev->step && !v[i].lit_len) {
			prev->step = prev->step == RSTEP_U32_HEX8 ?
					     RSTEP_U32_HEX16 : RSTEP_U32_HEX16_UP;
			prev->off2 = v[i].off;
			continue;
		}
		if (prev && hex8 && v[i].step == prev->step &&
		    !(i + 1 < *n && v[i + 1].step == v[i].step &&
		      !v[i + 1].lit_len)) {
			prev->step = prev->step == RSTEP_U32_HEX8 ?
					     RSTEP_U32_HEX8X2 : RSTEP_U32_HEX8X2_UP;
			prev->off2 = v[i].off;
			prev->str = v[i].lit;
			prev->len = v[i].lit_len;
			continue;
		}
		v[j] = v[i];
		memcpy(v[j].text, v[j].lit, v[j].lit_len);
		j++;
	}
	*n = j;
	return render_ops_head(v, n);
}

/*
 * A plain %s of a string that is the same for every event of the binding
 * (FETCH_CONST_STR: trace.dat's %(name)s, uftrace's %(type)s), with the
 * literals before and after it, is one literal when they fit in
 * RENDER_LIT_MAX bytes: a step less, and no room to make for it at each
 * event (it is counted in the binding's need). Returns the bytes folded.
 */
static size_t render_ops_fold(struct render_op *v, size_t *n)
{
	size_t i, j = 0, folded = 0;

	for (i = 0; i < *n; i++) {
		if (v[i].step == RSTEP_CONST_STR && i + 1 < *n &&
		    (size_t)v[i].lit_len + v[i].len + v[i + 1].lit_len <=
			    RENDER_LIT_MAX) {
			char t[RENDER_LIT_MAX] = { 0 };
			size_t a = v[i].lit_len, l = v[i].len;

			memcpy(t, v[i].text, a);
			memcpy(t + a, v[i].str, l);
			memcpy(t + a + l, v[i + 1].text, v[i + 1].lit_len);
			memcpy(v[i + 1].text, t, sizeof(t));
			v[i + 1].lit_len += (uint32_t)(a + l);
			folded += l;
			continue;	/* v[i] goes; v[i + 1] is looked at next */
		}
		v[j++] = v[i];
	}
	*n = j;
	return folded;
}

/*
 * The line's newline as the last byte of RSTEP_END's literal (the binding's
 * need counts it): no store of its own at each event. A literal already
 * RENDER_LIT_MAX long stays a step of its own, and a new RSTEP_END holds
 * the newline (the ops have room for it).
 */
static void render_ops_newline(struct render_op *v, size_t *n)
{
	struct render_op *e = &v[*n - 1];

	if (e->lit_len == RENDER_LIT_MAX) {
		e->step = RSTEP_NONE;
		e = &v[(*n)++];
		memset(e, 0, sizeof(*e));
		e->lit = e[-1].lit + RENDER_LIT_MAX;
		e->step = RSTEP_END;
	}
	e->text[e->lit_len++] = '\n';
}

struct render_op *render_ops(const struct tmpl *tm, const struct binding *b,
			     size_t *n, size_t *folded)
{
	const struct fetch *fetch = b->fetch;
	/* room for every op, one step per chunk of the text, the end, and
	 * one for the newline (render_ops_newline()) */
	size_t cap = tm->nops + tm->len / RENDER_LIT_CHUNK + 3;
	/* each step's hot half on one cache line (struct render_op) */
	struct render_op *v = cap < SIZE_MAX / sizeof(*v) ?
				      aligned_alloc(_Alignof(struct render_op),
						    cap * sizeof(*v)) :
				      NULL;
	struct render_op *cur = NULL;
	uint32_t lit_off = 0;
	size_t i;

	size_t total;

	*n = 0;
	*folded = 0;
	if (!v)
		return NULL;
	memset(v, 0, cap * sizeof(*v));
	for (i = 0; i < tm->nops; i++) {
		const struct tmpl_op *op = &tm->ops[i];

		if (!cur) {
			cur = &v[(*n)++];
			cur->step = RSTEP_NONE;
			cur->lit = tm->text;
		}
		if (op->kind == TMPL_LIT) {
			if (cur->lit_len && lit_off + cur->lit_len != op->off) {
				cur = &v[(*n)++];
				cur->step = RSTEP_NONE;
			}
			if (!cur->lit_len) {
				lit_off = op->off;
				cur->lit = tm->text + op->off;
			}
			/* (counted in a size_t: lit_len holds a chunk) */
			total = cur->lit_len + op->len;
			while (total > RENDER_LIT_CHUNK) {
				/* the first chunk alone; the rest goes on */
				struct render_op *rest = &v[(*n)++];

				rest->step = RSTEP_NONE;
				rest->lit = cur->lit + RENDER_LIT_CHUNK;
				cur->lit_len = RENDER_LIT_CHUNK;
				total -= RENDER_LIT_CHUNK;
				lit_off += RENDER_LIT_CHUNK;
				cur = rest;
			}
			cur->lit_len = (uint16_t)total;
			continue;
		}
		cur->conv = (uint32_t)i;
		cur->step = render_step_of(op, fetch);
		if (cur->step == RSTEP_GENERIC && op->fast == TMPL_STR &&
		    fetch[op->key].kind == FETCH_SLOT && b->slots[op->key] >= 0 &&
		    !(b->symbolic && b->symbolic[op->key]))
			cur->step = RSTEP_FIELD_STR;
		cur->fetch = (uint8_t)fetch[op->key].kind;
		cur->memo_v = UINT64_MAX;
		cur->off = cur->step == RSTEP_FIELD_STR ?
				   (uint32_t)b->slots[op->key] :
				   fetch[op->key].off;
		cur->off2 = fetch[op->key].off2;
		cur->str = fetch[op->key].str;
		cur->len = (uint32_t)fetch[op->key].len;
		if (cur->step == RSTEP_U32_HEX || cur->step == RSTEP_U32_HEX_UP)
			cur->width = op->spec.width > 0 ? (uint8_t)op->spec.width
							 : 0;
		if (cur->step == RSTEP_RELTS_DEC || cur->step == RSTEP_CPU_DEC ||
		    cur->step == RSTEP_PID_DEC || cur->step == RSTEP_U32_DEC) {
			cur->width = op->spec.width > 0 ? (uint8_t)op->spec.width
							 : 0;
			cur->fill = 0x0101010101010101ull *
				    (op->spec.flags & PYFMT_ZERO ? '0' : ' ');
		}
		if (cur->step == RSTEP_U64_HEX || cur->step == RSTEP_U64_HEX_UP) {
			/* the prefix: two bytes copied, len of them kept */
			cur->str = cur->step == RSTEP_U64_HEX ? "0x" : "0X";
			cur->len = op->spec.flags & PYFMT_ALT ? 2 : 0;
			/* its memo empty: any u64 is a value, so 0's text */
			memcpy(cur->memo, cur->str, cur->len);
			cur->memo[cur->len] = '0';
			cur->memo_len = (uint8_t)(cur->len + 1);
			cur->memo_v = 0;
		}
		cur = NULL;
	}
	/* the last step ends the line: the literal after the last
	 * conversion, or a step of its own */
	if (!cur) {
		cur = &v[(*n)++];
		cur->lit = tm->text;
	}
	cur->step = RSTEP_END;
	v = render_ops_fuse(v, n);
	*folded = render_ops_fold(v, n);
	render_ops_newline(v, n);
	return v;
}
