// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pairing of exits with entries (exits.h): the rule --stats and
 * --exits both follow.
 */
#include <errno.h>
#include <inttypes.h>

#include "diag.h"
#include "exits.h"
#include "symtab.h"

const char *exits_sym_find(const struct exits *x, uint64_t rip)
{
	int64_t sym;

	if (x->syms) {
		sym = symtab_find(x->syms, rip);
		return sym >= 0 ? symtab_name(x->syms, (size_t)sym) : NULL;
	}
	if (x->sym_src)
		return x->sym_src->ops->func_at(x->sym_src, rip);
	return NULL;
}

int exits_exit(struct exits *x, const struct sink_type *st,
	       const struct event *ev)
{
	return exits_exit_with(x, st, ev, x->ops->begin, x->ops->end);
}

int exits_entry(struct exits *x, const struct sink_type *st,
		const struct event *ev)
{
	return exits_entry_with(x, st, ev, x->ops->end);
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
		x->unpaired++;
		if (x->ops->end(x, v, false, 0) < 0)
			return -ENOMEM;
	}
	return 0;
}

void exits_warn_unpaired(const struct exits *x, const char *who,
			 void (*warn)(void *arg, const char *msg), void *arg)
{
	struct diag d;

	if (x->paired || !x->unpaired || !warn)
		return;
	diag_set(&d, "warning: %s: ", who);
	sink_unpaired_add(&d, x->unpaired, "");
	if (x->entries_unpaired)
		diag_add(&d, "the %" PRIu64 " entr%s came with no exit before %s",
			 x->entries_unpaired,
			 x->entries_unpaired == 1 ? "y" : "ies",
			 x->entries_unpaired == 1 ? "it" : "them");
	else
		diag_add(&d, "no entry came; record the entries beside the exits and keep them (--events)");
	warn(arg, d.msg);
}

void exits_fini(struct exits *x)
{
	sink_pairs_fini(&x->pairs);
}
