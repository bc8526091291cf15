// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pairing of exits with entries (exits.h): the rule --stats and
 * --exits both follow.
 */
#include <errno.h>
#include <string.h>

#include "exits.h"
#include "symtab.h"

/* The guest function of v's exit ev, by its RIP; or NULL. */
static const char *exits_sym(const struct exits *x, struct sink_vcpu *v,
			     const struct sink_type *st,
			     const struct event *ev)
{
	int64_t sym;

	uint32_t w[2];

	if (!x->want_rip && !x->syms && !x->sym_src) {
		v->has_rip = false;
		return NULL;
	}
	if (st->at_rip != SINK_NOAT && st->at_rip_hi != SINK_NOAT) {
		/* kvmtrace: two words */
		memcpy(&w[0], (const char *)ev->rec + st->at_rip, 4);
		memcpy(&w[1], (const char *)ev->rec + st->at_rip_hi, 4);
		v->rip = w[0] | (uint64_t)w[1] << 32;
		v->has_rip = true;
	} else {
		v->has_rip = sink_exit_rip(st, ev, &v->rip) == 0;
	}
	if (!v->has_rip)
		return NULL;
	if (x->syms) {
		sym = symtab_find(x->syms, v->rip);
		return sym >= 0 ? symtab_name(x->syms, (size_t)sym) : NULL;
	}
	if (x->sym_src)
		return x->sym_src->ops->func_at(x->sym_src, v->rip);
	return NULL;
}

int exits_exit(struct exits *x, const struct sink_type *st,
	       const struct event *ev)
{
	struct sink_vcpu *v = sink_pairs_find(&x->pairs, st, ev, false);
	uint64_t value;

	if (!v)
		return -ENOMEM;
	if (v->over) {
		x->exits_over++;
		return 0;
	}
	if (v->pending) {
		v->pending = false;
		if (x->ops->end(x, v, false, 0) < 0)
			return -ENOMEM;
	}
	if (sink_field_at(ev, st->reason, st->at_reason, &value) < 0)
		value = 0;
	v->reason = exits_reason_key(value, !ev->type->has_id,
				     ev->src->domain);
	v->kind = SINK_KIND_NONE;
	v->sym = exits_sym(x, v, st, ev);
	v->exit_ts = ev->ts;
	v->pending = true;
	return x->ops->begin ? x->ops->begin(x, v, st, ev) : 0;
}

int exits_entry(struct exits *x, const struct sink_type *st,
		const struct event *ev)
{
	struct sink_vcpu *v = sink_pairs_find(&x->pairs, st, ev, true);
	uint64_t dur;

	if (!v)
		return -ENOMEM;
	if (v->over)
		return 0;
	if (!v->pending) {
		x->entries_unpaired++;
		return 0;
	}
	v->pending = false;
	dur = ev->ts > v->exit_ts ? ev->ts - v->exit_ts : 0;
	if (x->time && x->time->ns)
		dur = sink_time_ns(x->time, dur);
	return x->ops->end(x, v, true, dur);
}

int exits_kind(struct exits *x, const struct sink_type *st,
	       const struct event *ev)
{
	enum sink_kind kind = sink_kind(st, ev);
	struct sink_vcpu *v;
	uint64_t value;

	if (kind == SINK_KIND_NONE ||
	    sink_field_at(ev, st->value, st->at_value, &value) < 0)
		return 0;
	v = sink_pairs_find(&x->pairs, st, ev, false);
	if (!v)
		return -ENOMEM;
	/* the first such event of an exit says what it is about */
	if (v->pending && !v->over && v->kind == SINK_KIND_NONE) {
		v->kind = (uint8_t)kind;
		v->kind_value = value;
	}
	return 0;
}

int exits_finish(struct exits *x)
{
	size_t i;

	for (i = 0; i < x->pairs.n; i++) {
		struct sink_vcpu *v = &x->pairs.v[i];

		if (!v->pending)
			continue;
		v->pending = false;
		if (x->ops->end(x, v, false, 0) < 0)
			return -ENOMEM;
	}
	return 0;
}

void exits_fini(struct exits *x)
{
	sink_pairs_fini(&x->pairs);
}
