// SPDX-License-Identifier: GPL-2.0-or-later
/* The rule table and the helpers that build it. See rules-table.h. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules-table.h"

struct rules *rules_create(const char *file)
{
	struct rules *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->file = strdup(file);
	if (!r->file) {
		free(r);
		return NULL;
	}
	r->zero = -1;
	r->any = -1;
	return r;
}

void rule_fini(struct rule *rule)
{
	size_t i;

	for (i = 0; i < rule->naliases; i++)
		free(rule->aliases[i].key);
	free(rule->aliases);
	free(rule->alias_order);
	free(rule->pattern);
	free(rule->system);
	free(rule->name);
	free(rule->label);
	tmpl_destroy(rule->tmpl);
	memset(rule, 0, sizeof(*rule));
}

void rules_destroy(struct rules *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->n; i++)
		rule_fini(&r->v[i]);
	for (i = 0; i < r->nenums; i++) {
		free(r->enums[i].v);
		free(r->enums[i].name);
	}
	free(r->enums);
	free(r->v);
	free(r->file);
	free(r->text);
	free(r);
}

static int rules_digit(char c, unsigned base)
{
	int v;

	if (c >= '0' && c <= '9')
		v = c - '0';
	else if (c >= 'a' && c <= 'z')
		v = c - 'a' + 10;
	else if (c >= 'A' && c <= 'Z')
		v = c - 'A' + 10;
	else
		return -1;
	return v < (int)base ? v : -1;
}

/*
 * An integer literal as Python's eval() reads one: 0x1f, 0o17, 0b101,
 * 017 (octal, as Python 2 read it), 42; an optional L suffix; '_' between
 * digits. Returns 0, -EINVAL or -ERANGE.
 */
int rules_parse_int(const char *s, size_t len, uint64_t *out)
{
	unsigned base = 10;
	size_t i = 0, ndig = 0;
	uint64_t v = 0;

	if (len && (s[len - 1] == 'L' || s[len - 1] == 'l'))
		len--;
	if (len >= 2 && s[0] == '0') {
		switch (s[1]) {
		case 'x': case 'X':
			base = 16;
			i = 2;
			break;
		case 'o': case 'O':
			base = 8;
			i = 2;
			break;
		case 'b': case 'B':
			base = 2;
			i = 2;
			break;
		default:
			base = 8;
			i = 1;
			break;
		}
	}
	for (; i < len; i++) {
		int dv;

		if (s[i] == '_' && ndig && i + 1 < len && s[i + 1] != '_')
			continue;
		dv = rules_digit(s[i], base);
		if (dv < 0)
			return -EINVAL;
		if (v > (UINT64_MAX - (uint64_t)dv) / base)
			return -ERANGE;
		v = v * base + (uint64_t)dv;
		ndig++;
	}
	if (!ndig && !(len == 1 && s[0] == '0'))
		return -EINVAL;
	*out = v;
	return 0;
}

int rules_parse_id(const char *s, size_t len, struct rule *rule,
		   const char **why)
{
	const char *colon;

	rule->pattern = strndup(s, len);
	if (!rule->pattern) {
		*why = "out of memory";
		return -ENOMEM;
	}
	if (len == 1 && s[0] == '*') {
		rule->match = RULE_ANY;
		return 0;
	}
	if (s[0] >= '0' && s[0] <= '9') {
		int ret = rules_parse_int(s, len, &rule->id);

		if (ret == -ERANGE) {
			*why = "event id out of range";
			return ret;
		}
		if (ret < 0) {
			*why = "bad event id: write a number (0x1f, 31, 037) or an event name";
			return ret;
		}
		rule->match = RULE_ID;
		return 0;
	}
	if (strpbrk(rule->pattern, "*?[")) {
		rule->match = RULE_GLOB;
		return 0;
	}
	colon = memchr(s, ':', len);
	if (colon) {
		if (colon == s || colon == s + len - 1) {
			*why = "bad event name: write system:event";
			return -EINVAL;
		}
		rule->match = RULE_SYSNAME;
		rule->system = strndup(s, (size_t)(colon - s));
		rule->name = strndup(colon + 1, len - (size_t)(colon - s) - 1);
		if (!rule->system || !rule->name) {
			*why = "out of memory";
			return -ENOMEM;
		}
		return 0;
	}
	rule->match = RULE_NAME;
	rule->name = strndup(s, len);
	if (!rule->name) {
		*why = "out of memory";
		return -ENOMEM;
	}
	return 0;
}

static int rules_alias_cmp(const void *a, const void *b)
{
	const struct rule_alias *x = *(const struct rule_alias *const *)a;
	const struct rule_alias *y = *(const struct rule_alias *const *)b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	/* the same name twice: the first written wins, as a scan finds it */
	return x < y ? -1 : x > y;
}

static int rules_index_aliases(struct rule *rule)
{
	size_t i;

	free(rule->alias_order);
	rule->alias_order = NULL;
	if (!rule->naliases)
		return 0;
	rule->alias_order = malloc(rule->naliases * sizeof(*rule->alias_order));
	if (!rule->alias_order)
		return -ENOMEM;
	for (i = 0; i < rule->naliases; i++)
		rule->alias_order[i] = &rule->aliases[i];
	qsort(rule->alias_order, rule->naliases, sizeof(*rule->alias_order),
	      rules_alias_cmp);
	return 0;
}

const struct rule_alias *rules_alias(const struct rule *rule, const char *key,
				     enum alias_kind kind)
{
	size_t lo = 0, hi = rule->naliases;

	if (!rule->alias_order)
		return NULL;
	/* the first entry not below (key, kind) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct rule_alias *a = rule->alias_order[mid];
		int c = strcmp(a->key, key);

		if (c < 0 || (c == 0 && a->kind < kind))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < rule->naliases && rule->alias_order[lo]->kind == kind &&
	    !strcmp(rule->alias_order[lo]->key, key))
		return rule->alias_order[lo];
	return NULL;
}

int rules_add(struct rules *r, struct rule *rule)
{
	if (rules_index_aliases(rule) < 0)
		return -ENOMEM;
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 32;
		struct rule *nv = realloc(r->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		r->v = nv;
		r->cap = cap;
	}
	r->v[r->n] = *rule;
	if (rule->match == RULE_ID && rule->id == 0)
		r->zero = (long)r->n;
	if (rule->match == RULE_ANY)
		r->any = (long)r->n;
	r->n++;
	memset(rule, 0, sizeof(*rule));
	return 0;
}

static bool rules_glob(const struct rule *rule, const struct event_type *t)
{
	char full[512];

	if (!t->name)
		return false;
	if (!strchr(rule->pattern, ':'))
		return fnmatch(rule->pattern, t->name, 0) == 0;
	if (!t->system)
		return false;
	if ((size_t)snprintf(full, sizeof(full), "%s:%s", t->system,
			     t->name) >= sizeof(full))
		return false;
	return fnmatch(rule->pattern, full, 0) == 0;
}

bool rules_match(const struct rule *rule, const struct event_type *t)
{
	switch (rule->match) {
	case RULE_ID:
		return t->has_id && t->id == rule->id;
	case RULE_NAME:
		return t->name && !strcmp(t->name, rule->name);
	case RULE_SYSNAME:
		return t->name && t->system && !strcmp(t->name, rule->name) &&
		       !strcmp(t->system, rule->system);
	case RULE_GLOB:
		return rules_glob(rule, t);
	case RULE_ANY:
		return true;
	}
	return false;
}

const struct rule *rules_lookup(const struct rules *r,
				const struct event_type *t)
{
	const struct rule *hit = NULL;
	size_t i;

	/* exact: the last definition wins, as in the 2008 tool's dict */
	for (i = 0; i < r->n; i++) {
		const struct rule *rule = &r->v[i];

		if (rule->match != RULE_ID && rule->match != RULE_NAME &&
		    rule->match != RULE_SYSNAME)
			continue;
		if (rule->match == RULE_ID && rule->id == 0)
			continue;
		if (rules_match(rule, t))
			hit = rule;
	}
	if (hit)
		return hit;
	for (i = 0; i < r->n; i++)
		if (r->v[i].match == RULE_GLOB && rules_match(&r->v[i], t))
			return &r->v[i];
	if (t->has_id && r->zero >= 0)
		return &r->v[r->zero];
	if (r->any >= 0)
		return &r->v[r->any];
	return NULL;
}

const char *rules_enum_symbol(const struct rule_enum *e, uint64_t x)
{
	size_t lo = 0, hi = e->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e->v[mid].value == x)
			return e->v[mid].symbol;
		if (e->v[mid].value < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
