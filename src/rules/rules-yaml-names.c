// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What an event of a YAML rule file names (rules-yaml-int.h): the enum
 * tables of 'enums:', and the aliases args:, u64: and enum: give a rule.
 * Each of these maps is read once, its keys checked by sorting or through
 * a hash set: a file of n names loads in n log n.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules-yaml-int.h"

/* A name templates may use: an identifier. */
static bool ryaml_ident(const char *s, size_t len)
{
	size_t i;

	if (!len || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

/* Keys every event has that no rule may rename (render.c, not shadowable). */
static bool ryaml_reserved(const char *s)
{
	static const char *const reserved[] = {
		"ts", "tsc", "relts", "reltsc", "domain", "source", "guest_ts", NULL,
	};
	const char *const *r;

	for (r = reserved; *r; r++)
		if (!strcmp(s, *r))
			return true;
	return false;
}

/* ------------------------------------------------------------------ enums */

struct ryaml_entry {
	uint64_t value;
	const struct ryaml_node *key;	/* borrowed from the document */
	const struct ryaml_node *sym;
};

static int ryaml_entry_cmp(const void *a, const void *b)
{
	const struct ryaml_entry *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	/* equal values: in file order */
	return x->key < y->key ? -1 : x->key > y->key;
}

static int ryaml_enum(struct ryaml *y, const struct ryaml_node *key,
		      const struct ryaml_node *table, struct rule_enum *e)
{
	struct ryaml_entry small[8], *v = small;
	size_t n = 0, i, size;
	char what[128], *p;
	int ret;

	ret = ryaml_expect(y, key, RYAML_STR, "enums");
	if (ret < 0)
		return ret;
	snprintf(what, sizeof(what), "enum '%s'", ryaml_str(key));
	if (table->type != YAML_MAPPING_NODE)
		return ryaml_error(y, table, "%s: expected a mapping of numbers to symbols, such as {0: EXCEPTION_NMI, 12: HLT}, found %s",
				   what, ryaml_kind_name[ryaml_kind(table)]);
	n = table->n;
	if (n > sizeof(small) / sizeof(small[0]))
		v = malloc(n * sizeof(*v));
	e->v = calloc(n ? n : 1, sizeof(*e->v));
	if (!v || !e->v) {
		ret = ryaml_nomem(y);
		goto end;
	}
	size = key->len + 1;
	for (i = 0; i < n; i++) {
		v[i].key = ryaml_key(y, table, i);
		v[i].sym = ryaml_value(y, table, i);
		ret = ryaml_uint(y, v[i].key, what, &v[i].value);
		if (ret < 0)
			goto end;
		ret = ryaml_expect(y, v[i].sym, RYAML_STR, what);
		if (ret < 0)
			goto end;
		size += v[i].sym->len + 1;
	}
	if (n)
		qsort(v, n, sizeof(*v), ryaml_entry_cmp);
	for (i = 1; i < n; i++) {
		if (v[i].value != v[i - 1].value)
			continue;
		ret = ryaml_error(y, v[i].key, "%s: %" PRIu64 " has the symbol %s already (line %u)",
				  what, v[i].value, ryaml_str(v[i - 1].sym),
				  (unsigned)v[i - 1].key->start.line + 1);
		goto end;
	}
	/* one block: the name, then the symbols (rules-table.h) */
	e->name = malloc(size);
	if (!e->name) {
		ret = ryaml_nomem(y);
		goto end;
	}
	p = memcpy(e->name, ryaml_str(key), key->len + 1);
	p += key->len + 1;
	for (i = 0; i < n; i++) {
		e->v[i].value = v[i].value;
		e->v[i].symbol = memcpy(p, ryaml_str(v[i].sym), v[i].sym->len + 1);
		p += v[i].sym->len + 1;
	}
	e->n = n;
	ret = 0;
end:
	if (v != small)
		free(v);
	return ret;
}

static int ryaml_enum_cmp(const void *a, const void *b)
{
	const struct rule_enum *x = a, *y = b;

	return strcmp(x->name, y->name);
}

static int ryaml_enums_one(struct ryaml *y, const struct ryaml_node *k,
			   const struct ryaml_node *v, void *arg)
{
	struct rules *r = y->r;

	(void)arg;
	/* counted first: rules_destroy() frees what is half built */
	r->nenums++;
	return ryaml_enum(y, k, v, &r->enums[r->nenums - 1]);
}

int ryaml_enums(struct ryaml *y, const struct ryaml_node *map)
{
	struct rules *r = y->r;
	int ret;

	if (map->type == YAML_MAPPING_NODE) {
		r->enums = calloc(map->n ? map->n : 1, sizeof(*r->enums));
		if (!r->enums)
			return ryaml_nomem(y);
	}
	ret = ryaml_each_pair(y, map, "enums", "enum names to tables",
			      ryaml_enums_one, NULL);
	if (ret < 0)
		return ret;
	/* by name, for ryaml_find_enum(); the keys were distinct */
	qsort(r->enums, r->nenums, sizeof(*r->enums), ryaml_enum_cmp);
	return 0;
}

static const struct rule_enum *ryaml_find_enum(const struct rules *r,
					       const char *name)
{
	struct rule_enum key = { .name = (char *)name };

	if (!r->nenums)
		return NULL;
	return bsearch(&key, r->enums, r->nenums, sizeof(*r->enums),
		       ryaml_enum_cmp);
}

/* ---------------------------------------------------------------- aliases */

static int ryaml_alias(struct ryaml *y, struct rule *rule, enum alias_kind kind,
		       const char *key, const char *a, const char *b,
		       const struct rule_enum *table)
{
	size_t k = rule->naliases, klen, alen, blen;
	struct rule_alias *al;

	if (k == y->capaliases) {
		size_t cap = k ? 2 * k : 4;
		struct rule_alias *n = realloc(rule->aliases, cap * sizeof(*n));

		if (!n)
			return ryaml_nomem(y);
		rule->aliases = n;
		y->capaliases = cap;
	}
	al = &rule->aliases[rule->naliases++];
	memset(al, 0, sizeof(*al));
	al->kind = kind;
	al->table = table;
	/* one block: key, then a and b (rules-table.h) */
	klen = strlen(key) + 1;
	alen = strlen(a) + 1;
	blen = b ? strlen(b) + 1 : 0;
	al->key = malloc(klen + alen + blen);
	if (!al->key)
		return ryaml_nomem(y);
	memcpy(al->key, key, klen);
	al->a = memcpy(al->key + klen, a, alen);
	al->b = b ? memcpy(al->key + klen + alen, b, blen) : NULL;
	return 0;
}

static size_t ryaml_name_hash(const char *s, size_t cap)
{
	size_t h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h & (cap - 1);
}

/* Into the set of names of the current rule: 0, -EEXIST or -ENOMEM. */
static int ryaml_name_add(struct ryaml *y, const char *name)
{
	size_t i;

	if ((y->nnames + 1) * 2 > y->capnames) {
		size_t cap = y->capnames ? 2 * y->capnames : 64, j;
		const char **v = calloc(cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		for (j = 0; j < y->capnames; j++) {
			if (!y->names[j])
				continue;
			for (i = ryaml_name_hash(y->names[j], cap); v[i];
			     i = (i + 1) & (cap - 1))
				;
			v[i] = y->names[j];
		}
		free(y->names);
		y->names = v;
		y->capnames = cap;
	}
	for (i = ryaml_name_hash(name, y->capnames); y->names[i];
	     i = (i + 1) & (y->capnames - 1))
		if (!strcmp(y->names[i], name))
			return -EEXIST;
	y->names[i] = name;
	y->nnames++;
	return 0;
}

/* A new name (args, u64): an identifier, not taken, not a fixed key. */
static int ryaml_new_name(struct ryaml *y, const struct rule *rule,
			  const struct ryaml_node *n, const char *what)
{
	size_t i;
	int ret;

	ret = ryaml_expect(y, n, RYAML_STR, what);
	if (ret < 0)
		return ret;
	if (!ryaml_ident(ryaml_str(n), n->len))
		return ryaml_error(y, n, "%s: '%s' is not a name (letters, digits and '_', not starting with a digit)",
				   what, ryaml_str(n));
	if (ryaml_reserved(ryaml_str(n)))
		return ryaml_error(y, n, "%s: '%s' is a key every event has; choose another name",
				   what, ryaml_str(n));
	if (y->names_rule != rule) {
		/* a new rule: the set starts over from its aliases */
		y->names_rule = rule;
		y->nnames = 0;
		if (y->capnames)
			memset(y->names, 0, y->capnames * sizeof(*y->names));
		for (i = 0; i < rule->naliases; i++)
			if (rule->aliases[i].kind != ALIAS_ENUM &&
			    ryaml_name_add(y, rule->aliases[i].key) < 0)
				return ryaml_nomem(y);
	}
	ret = ryaml_name_add(y, ryaml_str(n));
	if (ret == -EEXIST)
		return ryaml_error(y, n, "%s: '%s' is named twice in this event",
				   what, ryaml_str(n));
	if (ret < 0)
		return ryaml_nomem(y);
	return 0;
}

/* A key an alias refers to: a name, or a data word number. */
static int ryaml_ref(struct ryaml *y, const struct ryaml_node *n, const char *what)
{
	enum ryaml_kind k = ryaml_kind(n);
	const char *s;
	size_t len, i;

	if (k != RYAML_STR && k != RYAML_INT)
		return ryaml_error(y, n, "%s: expected a key name, found %s",
				   what, ryaml_kind_name[k]);
	s = ryaml_str(n);
	len = n->len;
	if (ryaml_ident(s, len))
		return 0;
	for (i = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (len && i == len)
		return 0;
	return ryaml_error(y, n, "%s: '%s' is not a key name", what, s);
}

/* args: [exitcode, rip_lo, rip_hi]: data words 1..n by name */
int ryaml_args(struct ryaml *y, struct rule *rule, const struct ryaml_node *n)
{
	unsigned word = 0;
	size_t i;
	int ret;

	if (n->type != YAML_SEQUENCE_NODE)
		return ryaml_error(y, n, "args: expected a list of names of the data words, such as [exitcode, rip_lo, rip_hi], found %s",
				   ryaml_kind_name[ryaml_kind(n)]);
	for (i = 0; i < n->n; i++) {
		const struct ryaml_node *e = ryaml_item(y, n, i);
		char num[4];

		if (++word > RYAML_ARGS_MAX)
			return ryaml_error(y, e, "args: more than %u names; records carry at most %u data words",
					   RYAML_ARGS_MAX, RYAML_ARGS_MAX);
		ret = ryaml_new_name(y, rule, e, "args");
		if (ret < 0)
			return ret;
		snprintf(num, sizeof(num), "%u", word);
		ret = ryaml_alias(y, rule, ALIAS_KEY, ryaml_str(e), num, NULL, NULL);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* One pair of u64: {rip: [rip_lo, rip_hi]}: lo | hi << 32 */
static int ryaml_u64_one(struct ryaml *y, const struct ryaml_node *k,
			 const struct ryaml_node *v, void *arg)
{
	struct rule *rule = arg;
	const struct ryaml_node *lo, *hi;
	int ret;

	ret = ryaml_new_name(y, rule, k, "u64");
	if (ret < 0)
		return ret;
	if (v->type != YAML_SEQUENCE_NODE || v->n != 2)
		return ryaml_error(y, v, "u64: '%s': expected [low, high], two key names",
				   ryaml_str(k));
	lo = ryaml_item(y, v, 0);
	hi = ryaml_item(y, v, 1);
	ret = ryaml_ref(y, lo, "u64");
	if (ret == 0)
		ret = ryaml_ref(y, hi, "u64");
	if (ret == 0)
		ret = ryaml_alias(y, rule, ALIAS_JOIN, ryaml_str(k), ryaml_str(lo),
				  ryaml_str(hi), NULL);
	return ret;
}

int ryaml_u64(struct ryaml *y, struct rule *rule, const struct ryaml_node *n)
{
	return ryaml_each_pair(y, n, "u64",
			       "names to [low, high] word pairs, such as {rip: [rip_lo, rip_hi]}",
			       ryaml_u64_one, rule);
}

/* One pair of enum: {exitcode: vmx_exit_reason}: %(exitcode)s, the symbol */
static int ryaml_enum_ref(struct ryaml *y, const struct ryaml_node *k,
			  const struct ryaml_node *v, void *arg)
{
	struct rule *rule = arg;
	const struct rule_enum *e;
	int ret;

	ret = ryaml_ref(y, k, "enum");
	if (ret < 0)
		return ret;
	ret = ryaml_expect(y, v, RYAML_STR, "enum");
	if (ret < 0)
		return ret;
	e = ryaml_find_enum(y->r, ryaml_str(v));
	if (!e)
		return ryaml_error(y, v, "enum: no enum '%s' under 'enums:'",
				   ryaml_str(v));
	return ryaml_alias(y, rule, ALIAS_ENUM, ryaml_str(k), ryaml_str(k), NULL,
			   e);
}

int ryaml_enum_refs(struct ryaml *y, struct rule *rule,
		    const struct ryaml_node *n)
{
	return ryaml_each_pair(y, n, "enum",
			       "keys to enum names, such as {exitcode: vmx_exit_reason}",
			       ryaml_enum_ref, rule);
}
