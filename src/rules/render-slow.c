// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What render_events() leaves to calls: a value through its slot, the
 * conversions its steps do not write inline (pyfmt), keys without a
 * value, the 2008 TypeError fallback.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "outbuf.h"
#include "pyfmt.h"
#include "render-int.h"
#include "render.h"
#include "source.h"

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
			struct value hi = { .kind = VALUE_NONE };
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

int render_typeerror(const struct render *r, const struct binding *b,
			    const struct event *ev, struct outbuf *o)
{
	const struct tmpl *tm = b->rule->tmpl;

	/* the 2008 tool printed the raw template, then the dict of values */
	if (outbuf_put(o, tm->text, tm->len) < 0 || outbuf_put(o, "\n", 1) < 0)
		return -ENOMEM;
	return ev->src->ops->render_args(ev->src, ev, r->mhz, o);
}

/* render-int.h's: conversion conv of b, fetched as fetch, the general way */
char *render_generic_at(struct render *r, const struct binding *b,
			uint32_t conv, enum fetch_kind fetch,
			const struct event *ev, struct outbuf *o, char *p,
			struct diag *d)
{
	struct render_op ro = { .conv = conv, .fetch = (uint8_t)fetch,
				.step = RSTEP_GENERIC };

	return render_generic(r, b, &ro, ev, o, p, d);
}

/* render-int.h's; not inlined where it is called (render_events) */
__attribute__((noinline)) char *
render_generic(struct render *r, const struct binding *b,
	       const struct render_op *ro, const struct event *ev,
	       struct outbuf *o, char *p, struct diag *d)
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
		r->err = n == -ERANGE ? -ERANGE : -EINVAL;
		return NULL;
	}
	return p + n;
nomem:
	diag_set(d, "out of memory");
	r->err = -ENOMEM;
	return NULL;
}
