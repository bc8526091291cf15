// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checking rules against the inputs before any output: every name rule
 * against the formats it meets (render_check), and, at the first event,
 * the glob rules against the formats they are the rule for
 * (render_check_globs). A key no event can have is a rule-file error,
 * reported with its line and column. The binding is render-bind.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "render-int.h"
#include "render.h"
#include "source.h"

struct render_check_arg {
	const struct render *r;
	struct source *src;
	struct diag *d;
};

static int render_check_type(const struct event_type *t, void *arg)
{
	struct render_check_arg *a = arg;
	const struct rules *rules = a->r->rules;
	struct binding *b;
	size_t i;
	int ret;

	for (i = 0; i < rules->n; i++) {
		const struct rule *rule = &rules->v[i];

		if (rule->match != RULE_NAME && rule->match != RULE_SYSNAME)
			continue;
		if (!rules_match(rule, t))
			continue;
		ret = render_bind(a->r, a->src, t, rule, &b, a->d);
		if (ret < 0)
			return ret;
		render_binding_free(b);
	}
	return 0;
}

/*
 * Does input i bind id rules as an earlier one does (source_ops.
 * bind_class)? Then it takes that one's bindings, and true.
 */
static bool render_share_ids(struct render *r, struct source **srcs,
			     size_t i)
{
	const struct source_ops *ops = srcs[i]->ops;
	size_t j;

	if (!ops->bind_class || srcs[i]->index >= r->nsrcs)
		return false;
	for (j = 0; j < i; j++)
		if (srcs[j]->ops == ops && srcs[j]->index < r->nsrcs &&
		    ops->bind_class(srcs[j]) == ops->bind_class(srcs[i])) {
			r->idsrcs[srcs[i]->index] = r->idsrcs[srcs[j]->index];
			return true;
		}
	return false;
}

int render_check(struct render *r, struct source **srcs, size_t n,
		 struct diag *d)
{
	struct render_check_arg a = { .r = r, .d = d };
	struct binding *b;
	size_t i, j;
	int ret;

	for (i = 0; i < n; i++) {
		a.src = srcs[i];
		if (render_share_ids(r, srcs, i))
			continue;	/* checked with the input it shares with */
		if (srcs[i]->ops->each_type) {
			ret = srcs[i]->ops->each_type(srcs[i],
						      render_check_type, &a);
			if (ret < 0)
				return ret;
			continue;
		}
		/* one schema for all events (kvmtrace): check numeric rules */
		for (j = 0; j < r->rules->n; j++) {
			const struct rule *rule = &r->rules->v[j];

			if (rule->match != RULE_ID)
				continue;
			ret = render_bind(r, srcs[i], NULL, rule, &b, d);
			if (ret < 0)
				return ret;
			render_binding_free(b);
		}
	}
	r->globs_srcs = srcs;
	r->globs_n = n;
	r->checked = true;
	return 0;
}

/*
 * Glob rules, at the first event: the types a glob rule (or "*") is the
 * rule for, over all the inputs together, among the formats each input is
 * sure of and the first event's. A key of the rule that none of them has
 * is a typo that the run would meet only after output: reported now,
 * naming the first event's type when the rule is its rule, else the first
 * such type. A key that some of them have and others lack is no error:
 * the events that lack it print it empty (render_missing_report()).
 */
struct render_glob {
	struct source *src;		/* borrowed */
	const struct event_type *t;	/* borrowed; NULL: kvmtrace events */
	size_t rule;			/* index in rules */
	size_t order;			/* as listed */
};

struct render_globs_arg {
	const struct render *r;
	const struct event *first;
	struct source *src;		/* the input being listed */
	struct render_glob *v;		/* owned */
	size_t n, cap;
};

static int render_globs_add(struct render_globs_arg *a,
			    const struct event_type *t, const struct rule *rule)
{
	if (!rule || !rule->tmpl ||
	    (rule->match != RULE_GLOB && rule->match != RULE_ANY))
		return 0;
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 64;
		struct render_glob *v = realloc(a->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n].src = a->src;
	a->v[a->n].t = t;
	a->v[a->n].rule = (size_t)(rule - a->r->rules->v);
	a->v[a->n].order = a->n;
	a->n++;
	return 0;
}

static int render_globs_type(const struct event_type *t, void *arg)
{
	struct render_globs_arg *a = arg;

	if (t->possible && !(a->first->src == a->src && a->first->type == t))
		return 0;
	return render_globs_add(a, t, rules_lookup(a->r->rules, t));
}

static int render_glob_cmp(const void *x, const void *y)
{
	const struct render_glob *p = x, *q = y;

	if (p->rule != q->rule)
		return p->rule < q->rule ? -1 : 1;
	return p->order < q->order ? -1 : p->order > q->order;
}

/* Does some type of v[0..n) (all of one rule) have key i? 0, 1, -ENOMEM. */
static int render_glob_has(const struct render_glob *v, size_t n,
			   const struct rule *rule, size_t i)
{
	size_t j;

	for (j = 0; j < n; j++) {
		struct binding b = { .rule = rule };
		int32_t slot;
		int ret = render_bind_key(&b, v[j].src, v[j].t,
					  rule->tmpl->keys[i], &slot);

		free(b.aux);
		if (ret == -ENOMEM)
			return ret;
		if (ret == 0)
			return 1;
	}
	return 0;
}

/* Do the types of v[0..n) come from a trace.dat and from other inputs? */
static bool render_glob_mixed(const struct render_glob *v, size_t n)
{
	bool dat = false, other = false;
	size_t j;

	for (j = 0; j < n; j++) {
		if (!strcmp(v[j].src->ops->kind, "trace.dat"))
			dat = true;
		else
			other = true;
	}
	return dat && other;
}

/* List the types of every input whose rule is a glob rule. */
static int render_globs_list(struct render_globs_arg *a, struct source **srcs,
			     size_t n)
{
	const struct render *r = a->r;
	size_t i;
	int ret = 0;

	for (i = 0; i < n && ret == 0; i++) {
		a->src = srcs[i];
		if (srcs[i]->ops->each_type)
			ret = srcs[i]->ops->each_type(srcs[i],
						      render_globs_type, a);
		else if (r->id_fallback >= 0)
			/* one schema for all events (kvmtrace): "*" the rest */
			ret = render_globs_add(a, NULL,
					       &r->rules->v[r->id_fallback]);
	}
	return ret;
}

int render_check_globs(struct render *r, const struct event *first,
		       struct diag *d)
{
	struct render_globs_arg a = { .r = r, .first = first };
	size_t g, e, i;
	int ret;

	ret = render_globs_list(&a, r->globs_srcs, r->globs_n);
	r->globs_srcs = NULL;	/* once */
	if (ret < 0)
		goto nomem;
	if (a.n)
		qsort(a.v, a.n, sizeof(*a.v), render_glob_cmp);
	for (g = 0; g < a.n; g = e) {
		const struct rule *rule = &r->rules->v[a.v[g].rule];
		const struct render_glob *at = &a.v[g];

		for (e = g; e < a.n && a.v[e].rule == a.v[g].rule; e++)
			if (a.v[e].src == first->src && a.v[e].t == first->type)
				at = &a.v[e];
		for (i = 0; i < rule->tmpl->nkeys; i++) {
			ret = render_glob_has(a.v + g, e - g, rule, i);
			if (ret < 0)
				goto nomem;
			if (ret)
				continue;
			render_unknown_key(r, at->src, at->t, rule, i, d);
			if (rule->match == RULE_ANY &&
			    render_glob_mixed(a.v + g, e - g))
				diag_add(d, "\n  ('*:*' is a rule for the events of trace.dat inputs only)");
			ret = -EINVAL;
			goto end;
		}
	}
	ret = 0;
	goto end;
nomem:
	diag_set(d, "out of memory");
	ret = -ENOMEM;
end:
	free(a.v);
	return ret;
}

/* "event kvm:kvm_exit", "event 0x00010002", "kvmtrace events" */
static void render_missing_desc(char *buf, size_t len,
				const struct render_missing *m)
{
	const struct event_type *t = m->type;

	if (t && t->system && t->name)
		snprintf(buf, len, "event %s:%s", t->system, t->name);
	else if (t && t->name)
		snprintf(buf, len, "event %s", t->name);
	else if (t && t->has_id)
		snprintf(buf, len, "event 0x%08" PRIx64, t->id);
	else
		snprintf(buf, len, "a %s event", m->src->ops->kind);
}

void render_note(struct render_note *n, const struct event *ev)
{
	char what[160];

	render_missing_desc(what, sizeof(what),
			    &(struct render_missing){ 1, ev->src, ev->type,
						      ev->seq });
	snprintf(n->what, sizeof(n->what), "record %" PRIu64 " of %s, %s",
		 ev->seq, ev->src->name, what);
	n->has_id = ev->type->has_id && !ev->type->name;
	n->id = ev->type->id;
}

void render_unmatched_report(const struct render *r,
			     const char *(*id_name)(uint64_t id),
			     void (*warn)(void *arg, const char *msg),
			     void *arg)
{
	const struct render_note *n;
	const char *name = NULL;
	uint64_t skipped;
	struct diag d;

	if (!r || !r->nevents || r->nlines)
		return;
	/* the events no rule printed went to skip rules or matched none */
	skipped = r->nevents - r->nunmatched;
	n = skipped ? &r->first : &r->unmatched;
	if (n->has_id && id_name)
		name = id_name(n->id);
	diag_set(&d, "%s: warning: ", r->rules->file);
	if (!skipped)
		diag_add(&d, "no rule matched any of the %" PRIu64 " event%s, so nothing was printed (the first",
			 r->nevents, r->nevents == 1 ? "" : "s");
	else if (!r->nunmatched)
		diag_add(&d, "every one of the %" PRIu64 " event%s went to a skip rule, so nothing was printed (the first",
			 r->nevents, r->nevents == 1 ? "" : "s");
	else
		diag_add(&d, "nothing was printed: of the %" PRIu64 " events, %" PRIu64 " went to skip rules and %" PRIu64 " matched no rule (the first event",
			 r->nevents, skipped, r->nunmatched);
	diag_add(&d, ": %s%s%s%s); %s", n->what, name ? " (" : "",
		 name ? name : "", name ? ")" : "",
		 skipped ? "no rule that prints matched any" :
			   "a rule for id 0 prints the events no other rule names");
	warn(arg, d.msg);
}

void render_missing_report(const struct render *r,
			   void (*warn)(void *arg, const char *msg),
			   void *arg)
{
	const struct rules *rules;
	struct diag d;
	char what[160];
	size_t i, k;

	if (!r || !r->missing)
		return;
	rules = r->rules;
	for (i = 0; i < rules->n; i++) {
		const struct rule *rule = &rules->v[i];
		const struct render_missing *m = r->missing[i];

		for (k = 0; m && k < rule->tmpl->nkeys; k++) {
			if (!m[k].count)
				continue;
			render_missing_desc(what, sizeof(what), &m[k]);
			diag_at(&d, rules->file, rule->line,
				rule->col + rule->tmpl->key_col[k] - 1,
				rule->line_text, rule->line_len,
				"warning: key '%s' had no value in %" PRIu64 " event%s of rule '%s', printed empty (the first: record %" PRIu64 " of %s, %s)",
				rule->tmpl->keys[k], m[k].count,
				m[k].count == 1 ? "" : "s", rule->pattern,
				m[k].seq, m[k].src->name, what);
			warn(arg, d.msg);
		}
	}
}
