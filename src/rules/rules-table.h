/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rule table: which template renders which event. The parsers of
 * rule files (rules-classic.c, rules-yaml*.c) build it with the helpers
 * below; rules.c (the loader) sits above them and hands the table out.
 *
 * Lookup order (DESIGN.md): an exact id (kvmtrace) or name, then the globs
 * in file order, then rule 0 (kvmtrace events) or "*".
 */
#ifndef KTF_RULES_TABLE_H
#define KTF_RULES_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "template.h"

/* The largest rule file the loader reads (rules.c); the parsers rely on it. */
#define RULES_FILE_MAX (64u << 20)

enum rule_match {
	RULE_ID = 0,	/* a kvmtrace event id */
	RULE_NAME,	/* "event" */
	RULE_SYSNAME,	/* "system:event" */
	RULE_GLOB,	/* "kvm:*", "kvm_*" */
	RULE_ANY,	/* "*" */
};

/* A name a rule gives to a value (YAML rules): args, 64-bit joins, enums. */
enum alias_kind {
	ALIAS_KEY = 0,	/* another key: a named data word */
	ALIAS_JOIN,	/* lo | hi << 32 of two keys */
	ALIAS_ENUM,	/* key through an enum table: %s symbol, %d number */
};

struct rule_enum_entry {
	uint64_t value;
	char *symbol;	/* borrowed: in the block of its table's name */
};

struct rule_enum {
	char *name;	/* owned: one block, the symbols follow the name */
	struct rule_enum_entry *v;	/* owned, sorted by value */
	size_t n;
};

struct rule_alias {
	char *key;	/* owned: the name templates use; a and b follow it */
	enum alias_kind kind;
	char *a;	/* borrowed (key's block): the key aliased, or the low word */
	char *b;	/* borrowed (key's block): the high word (ALIAS_JOIN) */
	const struct rule_enum *table;	/* borrowed from rules (ALIAS_ENUM) */
};

struct rule {
	enum rule_match match;
	uint64_t id;		/* RULE_ID */
	char *pattern;		/* owned: the ID as written */
	char *system;		/* owned: RULE_SYSNAME */
	char *name;		/* owned: RULE_NAME/SYSNAME event name */
	char *label;		/* owned: YAML "name:", %(name)s of kvmtrace */
	struct tmpl *tmpl;	/* owned; NULL: skip, its events print nothing */
	struct rule_alias *aliases;	/* owned */
	size_t naliases;
	/* owned array: the aliases by (key, kind), for rules_alias() */
	const struct rule_alias **alias_order;
	unsigned line;		/* where the template is: 1-based */
	unsigned col;
	const char *line_text;	/* borrowed (rules.text): that line, for carets */
	size_t line_len;
};

struct rules {
	char *file;		/* owned: as given, for messages */
	char *text;		/* owned: the file's text, which the rules'
				 * line_text points into; NULL: built in */
	struct rule *v;		/* owned */
	size_t n;
	size_t cap;
	struct rule_enum *enums;	/* owned */
	size_t nenums;
	long zero;		/* rule 0, or -1 */
	long any;		/* rule "*", or -1 */
};

void rules_destroy(struct rules *r);

/* The rule for events of type t, or NULL. */
const struct rule *rules_lookup(const struct rules *r,
				const struct event_type *t);
/* The symbol of x in an enum table (sorted by value), or NULL. */
const char *rules_enum_symbol(const struct rule_enum *e, uint64_t x);
/* The alias of rule naming key, of that kind, or NULL: log n. */
const struct rule_alias *rules_alias(const struct rule *rule, const char *key,
				     enum alias_kind kind);
/* Could rule match events of type t at all (ignoring precedence)? */
bool rules_match(const struct rule *rule, const struct event_type *t);

/* Building the table (the parsers). */
struct rules *rules_create(const char *file);
/*
 * Classify and store an ID: integer literal, name, system:name, glob or
 * "*". Returns 0 or -EINVAL (with *why set).
 */
int rules_parse_id(const char *s, size_t len, struct rule *rule,
		   const char **why);
/*
 * An integer literal as Python's eval() reads one (0x1f, 0o17, 0b101, 017,
 * 42): 0, -EINVAL or -ERANGE.
 */
int rules_parse_int(const char *s, size_t len, uint64_t *out);
/* Append a rule (takes ownership of its members); indexes its aliases. */
int rules_add(struct rules *r, struct rule *rule);
void rule_fini(struct rule *rule);

#endif
