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
/* Names compared for a typo are shorter (system:name included). */
#define RNAMES_LEN 128

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
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t r0[RNAMES_LEN], r1[RNAMES_LEN], r2[RNAMES_LEN];
	size_t *prev2 = r0, *prev = r1, *row = r2, *t, prevbest = 0;

	if (lb >= RNAMES_LEN || la >= RNAMES_LEN)
		return cap;
	if ((la > lb ? la - lb : lb - la) >= cap)
		return cap;
	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		size_t best;

		row[0] = best = i;
		for (j = 1; j <= lb; j++) {
			size_t v = prev[j - 1] + (a[i - 1] != b[j - 1]);

			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			/* two neighbours swapped: one edit */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			row[j] = v;
			if (v < best)
				best = v;
		}
		/* a later row is never below the least of this one, nor one
		 * more than the least of the row before (a swap) */
		if (best >= cap && prevbest + 1 >= cap)
			return cap;
		prevbest = best;
		t = prev2;
		prev2 = prev;
		prev = row;
		row = t;
	}
	return prev[lb] < cap ? prev[lb] : cap;
}

size_t rules_names_cap(const char *want)
{
	return strlen(want) / 4 + 1;
}

/* "system:name" of t into buf (or its name alone); false: too long. */
static bool rnames_full(const struct event_type *t, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s%s%s", t->system ? t->system : "",
			 t->system ? ":" : "", t->name);

	return n > 0 && (size_t)n < len;
}

/*
 * Warn of rule, when it looks like a typo: a name close to one the inputs
 * have, or a system:name whose system they have. (A shared rule file has
 * rules for events of inputs not given this time: those stay quiet.)
 * Offered: the names at the least distance, within rules_names_cap() of
 * the name asked for; of its system when the rule names one the inputs
 * have, else compared and shown as system:name. Returns whether it warned.
 */
static bool rnames_report(const struct rules *rules, const struct rule *rule,
			  const struct rnames *s,
			  void (*warn)(void *arg, const char *msg), void *arg)
{
	bool system = false, full;
	const char *close[RNAMES_CLOSE];
	char want[RNAMES_LEN], names[RNAMES_CLOSE][RNAMES_LEN], buf[RNAMES_LEN];
	size_t nclose = 0, i, k, cap, best;
	struct diag d;

	for (i = 0; rule->system && i < s->n; i++)
		if (s->v[i]->system && !strcmp(rule->system, s->v[i]->system))
			system = true;
	/* a system the inputs lack: compare system:name with theirs */
	full = rule->match == RULE_SYSNAME && !system;
	if (full)
		snprintf(want, sizeof(want), "%s:%s", rule->system, rule->name);
	else
		snprintf(want, sizeof(want), "%s", rule->name);
	best = cap = rules_names_cap(want);
	for (i = 0; i < s->n; i++) {
		const struct event_type *t = s->v[i];
		const char *name = t->name;
		size_t dd;

		if (system && rule->match == RULE_SYSNAME &&
		    (!t->system || strcmp(t->system, rule->system)))
			continue;
		if (full) {
			if (!rnames_full(t, buf, sizeof(buf)))
				continue;
			name = buf;
		} else if (i && !strcmp(t->name, s->v[i - 1]->name)) {
			continue;
		}
		dd = rules_names_dist(want, name, best + 1);
		if (dd > best || dd >= cap)
			continue;
		if (dd < best) {
			best = dd;
			nclose = 0;
		}
		/* the first few at the least distance, in name order */
		if (nclose == RNAMES_CLOSE)
			continue;
		for (k = 0; k < nclose && strcmp(close[k], name); k++)
			;
		if (k < nclose)
			continue;
		snprintf(names[nclose], sizeof(names[nclose]), "%s", name);
		close[nclose] = names[nclose];
		nclose++;
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
	if (s.n)
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
