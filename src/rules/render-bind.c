// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Binding rules to events: which rule an event meets, and for each key of
 * its template the slot (render.h) the value comes from, checked before
 * any output (render-check.c) or at first use. render.c renders with them.
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

/* Fields every event has. The first group cannot be shadowed. */
static const struct {
	const char *key;
	int32_t slot;
	bool shadowable;
} render_common[] = {
	{ "ts", SLOT_TS, false },
	{ "tsc", SLOT_TS, false },
	{ "relts", SLOT_RELTS, false },
	{ "reltsc", SLOT_RELTS, false },
	{ "domain", SLOT_DOMAIN, false },
	{ "source", SLOT_SOURCE, false },
	{ "guest_ts", SLOT_GUEST_TS, false },
	{ "cpu", SLOT_CPU, true },
	{ "pid", SLOT_PID, true },
	{ "name", SLOT_NAME, true },
	{ "system", SLOT_SYSTEM, true },
	{ "secs", SLOT_SECS, true },
};

#define RENDER_NCOMMON (sizeof(render_common) / sizeof(render_common[0]))

static bool render_is_relts(const char *key)
{
	return key && (!strcmp(key, "relts") || !strcmp(key, "reltsc"));
}

bool render_needs_relts(const struct render *r)
{
	/* with -c, the 2008 TypeError line prints 'reltsc' (render_args) */
	if (r->mhz > 0)
		return true;
	for (size_t i = 0; r->rules && i < r->rules->n; i++) {
		const struct rule *rule = &r->rules->v[i];

		for (size_t k = 0; rule->tmpl && k < rule->tmpl->nkeys; k++)
			if (render_is_relts(rule->tmpl->keys[k]))
				return true;
		for (size_t k = 0; k < rule->naliases; k++)
			if (render_is_relts(rule->aliases[k].a) ||
			    render_is_relts(rule->aliases[k].b))
				return true;
	}
	return false;
}

static int render_id_cmp(const void *a, const void *b)
{
	const struct render_id *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	/* the later definition first: it wins */
	return x->rule > y->rule ? -1 : x->rule < y->rule;
}

/* Index the exact id rules; the last definition of an id wins. */
static int render_index_ids(struct render *r)
{
	const struct rules *rules = r->rules;
	size_t i, n = 0;

	r->ids = calloc(rules->n ? rules->n : 1, sizeof(*r->ids));
	if (!r->ids)
		return -ENOMEM;
	for (i = 0; i < rules->n; i++) {
		if (rules->v[i].match != RULE_ID || rules->v[i].id == 0)
			continue;
		r->ids[n].id = rules->v[i].id;
		r->ids[n].rule = (uint32_t)i;
		n++;
	}
	qsort(r->ids, n, sizeof(*r->ids), render_id_cmp);
	r->nids = 0;
	for (i = 0; i < n; i++)
		if (!r->nids || r->ids[r->nids - 1].id != r->ids[i].id)
			r->ids[r->nids++] = r->ids[i];
	r->id_fallback = rules->zero >= 0 ? rules->zero : rules->any;
	if (r->nids) {
		r->id_lo = r->ids[0].id;
		r->id_span = r->ids[r->nids - 1].id - r->id_lo;
	}
	return 0;
}

struct render *render_create(const struct rules *rules, double mhz,
			     size_t nsources)
{
	struct render *r = calloc(1, sizeof(*r));
	size_t i;

	if (!r)
		return NULL;
	r->rules = rules;
	r->mhz = mhz;
	r->bcd_x = UINT64_MAX;
	r->nsrcs = nsources;
	r->srcs = calloc(nsources ? nsources : 1, sizeof(*r->srcs));
	r->idsrcs = calloc(nsources ? nsources : 1, sizeof(*r->idsrcs));
	r->missing = calloc(rules->n ? rules->n : 1, sizeof(*r->missing));
	if (!r->srcs || !r->idsrcs || !r->missing || render_index_ids(r) < 0)
		goto error;
	for (i = 0; i < nsources; i++) {
		r->idsrcs[i] = &r->srcs[i];
		r->srcs[i].by_rule = calloc(rules->n + 1, sizeof(struct binding *));
		if (!r->srcs[i].by_rule)
			goto error;
		/* no event's id (kvmtrace's have 28 bits): render_lookup()
		 * takes a slot's binding on the id alone */
		for (size_t j = 0; j < RENDER_IDCACHE; j++)
			r->srcs[i].idcache[j].id = UINT64_MAX;
	}
	return r;
error:
	render_destroy(r);
	return NULL;
}

void render_binding_free(struct binding *b)
{
	if (!b)
		return;
	free(b->slots);
	free(b->fetch);
	free(b->rops);
	free(b->aux);
	free(b->symbolic);
	free(b);
}

void render_destroy(struct render *r)
{
	size_t i;
	uint32_t j;

	if (!r)
		return;
	for (i = 0; r->srcs && i < r->nsrcs; i++) {
		for (j = 0; j < r->srcs[i].n; j++)
			render_binding_free(r->srcs[i].by_type[j]);
		free(r->srcs[i].by_type);
		for (j = 0; r->srcs[i].by_rule && j <= r->rules->n; j++)
			render_binding_free(r->srcs[i].by_rule[j]);
		free(r->srcs[i].by_rule);
	}
	for (i = 0; r->missing && i < r->rules->n; i++)
		free(r->missing[i]);
	free(r->missing);
	free(r->srcs);
	free(r->idsrcs);
	free(r->ids);
	free(r);
}

static int32_t render_common_slot(const char *key, bool shadowable)
{
	size_t i;

	for (i = 0; i < RENDER_NCOMMON; i++)
		if (render_common[i].shadowable == shadowable &&
		    !strcmp(render_common[i].key, key))
			return render_common[i].slot;
	return 0;
}

/* Bind key for events of type t (NULL: any event of src). */
int render_field_slot(struct source *src, const struct event_type *t,
			     const char *key, int32_t *slot)
{
	int32_t s;
	int idx;

	s = render_common_slot(key, false);
	if (s) {
		*slot = s;
		return 0;
	}
	idx = src->ops->bind(src, t, key);
	if (idx >= 0) {
		*slot = idx;
		return 0;
	}
	s = render_common_slot(key, true);
	if (s) {
		*slot = s;
		return 0;
	}
	return -ENOENT;
}

static int render_aux(struct binding *b, int32_t x, int32_t y, uint32_t *j)
{
	int32_t *n;

	if (b->naux >= SLOT_AUX_MAX)
		return -E2BIG;
	n = realloc(b->aux, 2 * (b->naux + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	b->aux = n;
	n[2 * b->naux] = x;
	n[2 * b->naux + 1] = y;
	*j = b->naux++;
	return 0;
}

/* A key through the rule's names (args, 64-bit joins), then the event's. */
static int render_bind_named(struct binding *b, struct source *src,
			     const struct event_type *t, const char *key,
			     int32_t *slot, unsigned depth)
{
	const struct rule_alias *a;
	int32_t lo, hi;
	uint32_t j;
	int ret;

	if (depth > 8)
		return -ELOOP;
	a = b->rule ? rules_alias(b->rule, key, ALIAS_KEY) : NULL;
	if (a)
		return render_bind_named(b, src, t, a->a, slot, depth + 1);
	a = b->rule ? rules_alias(b->rule, key, ALIAS_JOIN) : NULL;
	if (a) {
		ret = render_bind_named(b, src, t, a->a, &lo, depth + 1);
		if (ret == 0)
			ret = render_bind_named(b, src, t, a->b, &hi, depth + 1);
		if (ret == 0)
			ret = render_aux(b, lo, hi, &j);
		if (ret == 0)
			*slot = SLOT_ALIAS_BASE - 2 * (int32_t)j;
		return ret;
	}
	return render_field_slot(src, t, key, slot);
}

int render_bind_key(struct binding *b, struct source *src,
		    const struct event_type *t, const char *key,
		    int32_t *slot)
{
	const struct rule_alias *a;
	int32_t num;
	uint32_t j;
	int ret;

	a = b->rule ? rules_alias(b->rule, key, ALIAS_ENUM) : NULL;
	if (!a)
		return render_bind_named(b, src, t, key, slot, 0);
	ret = render_bind_named(b, src, t, a->a, &num, 0);
	if (ret == 0)
		ret = render_aux(b, num, (int32_t)(a - b->rule->aliases), &j);
	if (ret == 0)
		*slot = SLOT_ALIAS_BASE - 2 * (int32_t)j - 1;
	return ret;
}

static void render_list_fields(struct diag *d, struct source *src,
			       const struct event_type *t)
{
	const char *names[256];
	size_t i, n = 0;

	if (src->ops->fields)
		n = src->ops->fields(src, t, names, 256);
	diag_add(d, "\n  fields:");
	for (i = 0; i < RENDER_NCOMMON; i++)
		diag_add(d, " %s", render_common[i].key);
	for (i = 0; i < n && i < 256; i++)
		diag_add(d, " %s", names[i]);
}

static void render_type_desc(char *buf, size_t len, struct source *src,
			     const struct event_type *t)
{
	if (!t)
		snprintf(buf, len, "%s events", src->ops->kind);
	else if (t->system && t->name)
		snprintf(buf, len, "event %s:%s", t->system, t->name);
	else if (t->name)
		snprintf(buf, len, "event %s", t->name);
	else if (t->has_id)
		snprintf(buf, len, "event 0x%08" PRIx64, t->id);
	else
		snprintf(buf, len, "%s events", src->ops->kind);
}

/* The rule-file error of key i of rule, which events of type t lack. */
void render_unknown_key(const struct render *r, struct source *src,
			const struct event_type *t,
			const struct rule *rule, size_t i,
			struct diag *d)
{
	const struct tmpl *tm = rule->tmpl;
	char what[160];

	render_type_desc(what, sizeof(what), src, t);
	diag_at(d, r->rules->file, rule->line, rule->col + tm->key_col[i] - 1,
		rule->line_text, rule->line_len, "unknown key '%s': rule '%s' meets %s of %s, which have no such field",
		tm->keys[i], rule->pattern, what, src->name);
	render_list_fields(d, src, t);
}

/*
 * secs is the time stamp in seconds: on a nanosecond timeline, or on the
 * TSC with -c MHZ; else (ticks of no known rate) a rule-file error.
 */
static int render_secs_check(const struct render *r, const struct rule *rule,
			     size_t i, struct diag *d)
{
	const struct tmpl *tm = rule->tmpl;

	if (r->timeline == CLOCK_NS || (r->timeline == CLOCK_TSC && r->mhz > 0))
		return 0;
	diag_at(d, r->rules->file, rule->line, rule->col + tm->key_col[i] - 1,
		rule->line_text, rule->line_len, "key 'secs': %s",
		r->timeline == CLOCK_TSC ?
			"the timeline is the TSC, in ticks; give its rate with -c MHZ (e.g. -c 2400) for seconds" :
			"the timeline is a counter, not a clock; it has no seconds");
	return -EINVAL;
}

/*
 * Bind rule to events of type t of src: every key of its template to a
 * slot. A key the events cannot have is a rule-file error before the run
 * (render_check); met later (a glob rule's key that other formats have),
 * it binds to SLOT_MISSING: such events print it empty, counted.
 */
int render_bind(const struct render *r, struct source *src,
		const struct event_type *t, const struct rule *rule,
		struct binding **out, struct diag *d)
{
	struct binding *b = calloc(1, sizeof(*b));
	const struct tmpl *tm;
	size_t i, folded;
	int ret = -ENOMEM;

	*out = NULL;
	if (!b)
		goto nomem;
	b->rule = rule;
	b->mode = !rule ? RMODE_DEFAULT : !rule->tmpl ? RMODE_SKIP
						     : RMODE_TEMPLATE;
	b->gate = SIZE_MAX;
	if (!rule || !rule->tmpl) {
		*out = b;
		return 0;
	}
	tm = rule->tmpl;
	b->slots = calloc(tm->nkeys ? tm->nkeys : 1, sizeof(*b->slots));
	if (!b->slots)
		goto nomem;
	for (i = 0; i < tm->nkeys; i++) {
		ret = render_bind_key(b, src, t, tm->keys[i], &b->slots[i]);
		if (ret == 0 && b->slots[i] == SLOT_SECS)
			ret = render_secs_check(r, rule, i, d);
		if (ret == -EINVAL)
			goto error;
		if (ret == 0)
			continue;
		if (r->checked && ret == -ENOENT) {
			b->slots[i] = SLOT_MISSING;
			continue;
		}
		render_unknown_key(r, src, t, rule, i, d);
		ret = -EINVAL;
		goto error;
	}
	b->fetch = calloc(tm->nkeys ? tm->nkeys : 1, sizeof(*b->fetch));
	if (!b->fetch)
		goto nomem;
	for (i = 0; i < tm->nkeys; i++) {
		const char *cs;
		size_t off, clen;

		/* a field the format names (exit_reason): the general path */
		if (b->slots[i] >= 0 && t && src->ops->field_symbol &&
		    src->ops->field_symbol(src, t, NULL, b->slots[i], NULL) == 0) {
			if (!b->symbolic)
				b->symbolic = calloc(tm->nkeys, 1);
			if (!b->symbolic)
				goto nomem;
			b->symbolic[i] = 1;
			continue;
		}
		if (b->slots[i] == SLOT_TS && !(r->mhz > 0))
			b->fetch[i].kind = FETCH_TS_INT;
		else if (b->slots[i] == SLOT_RELTS)
			b->fetch[i].kind = FETCH_RELTS;
		else if (b->slots[i] == SLOT_CPU)
			b->fetch[i].kind = FETCH_CPU;
		else if (b->slots[i] == SLOT_PID)
			b->fetch[i].kind = FETCH_PID;
		else if ((b->slots[i] == SLOT_NAME && t && t->name) ||
			 (b->slots[i] == SLOT_SYSTEM && t && t->system)) {
			/* the type's: the same for all its events */
			b->fetch[i].kind = FETCH_CONST_STR;
			b->fetch[i].str = b->slots[i] == SLOT_NAME ? t->name
								   : t->system;
			b->fetch[i].len = strlen(b->fetch[i].str);
		} else if (b->slots[i] >= 0 && t && src->ops->field_const &&
			   src->ops->field_const(src, t, b->slots[i], &cs,
						 &clen) == 0) {
			/* a field the same in all the type's events */
			b->fetch[i].kind = FETCH_CONST_STR;
			b->fetch[i].str = cs;
			b->fetch[i].len = clen;
		} else if (b->slots[i] >= 0 && src->ops->field_u32 &&
			 src->ops->field_u32(src, b->slots[i], &off)) {
			b->fetch[i].kind = FETCH_REC_U32;
			b->fetch[i].off = (uint32_t)off;
		} else if (b->slots[i] >= 0 && src->ops->field_at) {
			size_t off2 = 0;

			switch (src->ops->field_at(src, b->slots[i], &off, &off2)) {
			case SOURCE_AT_U64:
				b->fetch[i].kind = FETCH_REC_U64;
				b->fetch[i].off = (uint32_t)off;
				break;
			case SOURCE_AT_S64:
				b->fetch[i].kind = FETCH_REC_S64;
				b->fetch[i].off = (uint32_t)off;
				break;
			case SOURCE_AT_STR:
				b->fetch[i].kind = FETCH_REC_STR;
				b->fetch[i].off = (uint32_t)off;
				b->fetch[i].off2 = (uint32_t)off2;
				break;
			}
		}
	}
	b->rops = render_ops(tm, b, &b->nrops, &folded);
	if (!b->rops)
		goto nomem;
	b->text = tm->text;
	b->ops = tm->ops;
	b->need = tm->bound + folded + 1 + TMPL_SLACK;
	/* Python raises TypeError for %x, %o, %c of a float (ts with -c) */
	for (i = 0; i < tm->nops; i++) {
		const struct tmpl_op *op = &tm->ops[i];

		if (op->kind == TMPL_CONV && b->slots[op->key] == SLOT_TS &&
		    r->mhz > 0 && tmpl_conv_int_only(op->spec.conv))
			b->mode = RMODE_TYPEERROR;
	}
	if (b->mode == RMODE_TYPEERROR && !src->ops->render_args) {
		diag_at(d, r->rules->file, rule->line, rule->col, rule->line_text,
			rule->line_len, "%%x, %%X, %%o and %%c need an integer, but with -c the time stamp is a float");
		ret = -EINVAL;
		goto error;
	}
	/* b->gate stays SIZE_MAX: render_events() opens it (struct
	 * binding) */
	*out = b;
	return 0;
nomem:
	diag_set(d, "out of memory");
	ret = -ENOMEM;
error:
	render_binding_free(b);
	return ret;
}

static long render_rule_for_id(const struct render *r, uint64_t id)
{
	size_t lo = 0, hi = r->nids;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->ids[mid].id == id)
			return r->ids[mid].rule;
		if (r->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return r->id_fallback;
}

static int render_binding_by_id(struct render *r, const struct event *ev,
				const struct binding **out, struct diag *d)
{
	struct render_src *rs = r->idsrcs[ev->src->index];
	uint64_t id = ev->type->id;
	struct render_idcache *c = &rs->idcache[render_idhash(id)];
	struct binding **slot;
	long ri;
	int ret;

	if (c->b && c->id == id) {
		*out = c->b;
		return 0;
	}
	if (id - r->id_lo > r->id_span) {
		/* no exact rule names it: the fallback's, not cached */
		slot = &rs->by_rule[r->id_fallback + 1];
		if (!*slot) {
			ret = render_bind(r, ev->src, NULL,
					  r->id_fallback >= 0 ?
						  &r->rules->v[r->id_fallback] :
						  NULL,
					  slot, d);
			if (ret < 0)
				return ret;
		}
		rs->other = *slot;
		*out = *slot;
		return 0;
	}
	ri = render_rule_for_id(r, id);
	slot = &rs->by_rule[ri + 1];
	if (!*slot) {
		ret = render_bind(r, ev->src, NULL,
				  ri >= 0 ? &r->rules->v[ri] : NULL, slot, d);
		if (ret < 0)
			return ret;
	}
	c->id = id;
	c->b = *slot;
	*out = *slot;
	return 0;
}

int render_binding(struct render *r, const struct event *ev,
		   const struct binding **out, struct diag *d)
{
	struct render_src *rs = &r->srcs[ev->src->index];
	uint32_t ti = ev->type->index;
	struct binding *b;
	int ret;

	if (ev->type->has_id)
		return render_binding_by_id(r, ev, out, d);

	if (ti >= rs->n) {
		uint32_t n = rs->n ? rs->n : 16;
		struct binding **nb;

		while (n <= ti)
			n *= 2;
		nb = realloc(rs->by_type, n * sizeof(*nb));
		if (!nb) {
			diag_set(d, "out of memory");
			return -ENOMEM;
		}
		memset(nb + rs->n, 0, (n - rs->n) * sizeof(*nb));
		rs->by_type = nb;
		rs->n = n;
	}
	b = rs->by_type[ti];
	if (!b) {
		ret = render_bind(r, ev->src, ev->type,
				  rules_lookup(r->rules, ev->type), &b, d);
		if (ret < 0)
			return ret;
		rs->by_type[ti] = b;
	}
	r->tcache[render_thash(ev->type, ev->src->index)].type = ev->type;
	r->tcache[render_thash(ev->type, ev->src->index)].b = b;
	*out = b;
	return 0;
}
