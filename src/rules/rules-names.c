// SPDX-License-Identifier: GPL-2.0-or-later
/* Rules for event names no input has. See rules-names.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "rules-names.h"

/* Rules reported one by one; the rest are counted. */
#define RNAMES_SHOWN 8
/* Closest names offered per rule. */
#define RNAMES_CLOSE 3

struct rnames {
	const struct event_type **v;	/* owned array, borrowed types */
	size_t n, cap;
};

static int rnames_add(const struct event_type *t, void *arg)
{
	struct rnames *s = arg;

	if (!t->name)
		return 0;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		const struct event_type **v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = t;
	return 0;
}

static int rnames_cmp(const void *a, const void *b)
{
	const struct event_type *x = *(const struct event_type *const *)a;
	const struct event_type *y = *(const struct event_type *const *)b;

	return strcmp(x->name, y->name);
}

/* Does some type carry rule's name (and system)? Binary search. */
static bool rnames_has(const struct rnames *s, const struct rule *rule)
{
	size_t lo = 0, hi = s->n, i;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(s->v[mid]->name, rule->name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < s->n && !strcmp(s->v[i]->name, rule->name); i++)
		if (rule->match == RULE_NAME ||
		    (s->v[i]->system && !strcmp(s->v[i]->system, rule->system)))
			return true;
	return false;
}

size_t rules_names_dist(const char *a, const char *b, size_t cap)
{
	size_t la = strlen(a), lb = strlen(b), row[64], i, j;

	if (lb >= 64 || la >= 64)
		return cap;
	if ((la > lb ? la - lb : lb - la) >= cap)
		return cap;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0], best;

		row[0] = i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			size_t up = row[j], v;

			v = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < v)
				v = up + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			diag = up;
			row[j] = v;
			if (v < best)
				best = v;
		}
		if (best >= cap)
			return cap;
	}
	return row[lb] < cap ? row[lb] : cap;
}

/*
 * Warn of rule, when it looks like a typo: a name close to one the inputs
 * have, or a system:name whose system they have. (A shared rule file has
 * rules for events of inputs not given this time: those stay quiet.)
 * Returns whether it warned.
 */
static bool rnames_report(const struct rules *rules, const struct rule *rule,
			  const struct rnames *s,
			  void (*warn)(void *arg, const char *msg), void *arg)
{
	bool system = false;
	const char *close[RNAMES_CLOSE];
	size_t dist[RNAMES_CLOSE], nclose = 0, i, k;
	size_t cap = strlen(rule->name) / 3 + 2;
	struct diag d;

	for (i = 0; i < s->n; i++) {
		size_t dd;

		if (rule->system && s->v[i]->system &&
		    !strcmp(rule->system, s->v[i]->system))
			system = true;
		if (i && !strcmp(s->v[i]->name, s->v[i - 1]->name))
			continue;
		dd = rules_names_dist(rule->name, s->v[i]->name, cap);
		if (dd >= cap)
			continue;
		/* keep the closest few, in order of distance */
		if (nclose == RNAMES_CLOSE && dd >= dist[nclose - 1])
			continue;
		if (nclose < RNAMES_CLOSE)
			nclose++;
		for (k = nclose - 1; k > 0 && dist[k - 1] > dd; k--) {
			close[k] = close[k - 1];
			dist[k] = dist[k - 1];
		}
		close[k] = s->v[i]->name;
		dist[k] = dd;
	}
	if (!nclose && !system)
		return false;
	diag_set(&d, "%s:%u: warning: no input has an event '%s%s%s'",
		 rules->file, rule->line, rule->system ? rule->system : "",
		 rule->system ? ":" : "", rule->name);
	for (k = 0; k < nclose; k++)
		diag_add(&d, "%s%s", k ? ", " : "; did you mean ", close[k]);
	if (nclose)
		diag_add(&d, "?");
	warn(arg, d.msg);
	return true;
}

int rules_check_names(const struct rules *rules, struct source **srcs,
		      size_t n, void (*warn)(void *arg, const char *msg),
		      void *arg)
{
	struct rnames s = { 0 };
	size_t i, shown = 0, more = 0;
	int ret = 0;

	for (i = 0; i < n; i++)
		if (!srcs[i]->ops->each_type)
			return 0;	/* names known only while reading */
	for (i = 0; i < n && ret == 0; i++)
		ret = srcs[i]->ops->each_type(srcs[i], rnames_add, &s);
	if (ret < 0 || !n) {
		free(s.v);
		return ret;
	}
	qsort(s.v, s.n, sizeof(*s.v), rnames_cmp);
	for (i = 0; i < rules->n; i++) {
		const struct rule *rule = &rules->v[i];

		if (rule->match != RULE_NAME && rule->match != RULE_SYSNAME)
			continue;
		if (rnames_has(&s, rule))
			continue;
		if (shown < RNAMES_SHOWN)
			shown += rnames_report(rules, rule, &s, warn, arg);
		else
			more++;
	}
	if (more) {
		char msg[128];

		snprintf(msg, sizeof(msg), "%s: warning: %zu more rules name events no input has",
			 rules->file, more);
		warn(arg, msg);
	}
	free(s.v);
	return 0;
}
