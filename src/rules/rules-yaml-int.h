/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the YAML rule parser (rules-yaml.h is its face):
 *
 *   rules-yaml.c        the schema top-down: root, events, one event, its
 *                       template; rules_parse_yaml()
 *   rules-yaml-names.c  what an event names: enum tables, args:, u64:,
 *                       enum: (the aliases of a rule)
 *   rules-yaml-doc.c    the document: libyaml's event stream walked once
 *                       into a compact tree, positions for messages,
 *                       scalar kinds, mappings of distinct keys
 *
 * Each file uses only the ones below it and rules-table.h.
 */
#ifndef KTF_RULES_YAML_INT_H
#define KTF_RULES_YAML_INT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

#include "rules-table.h"

struct diag;

/* root > events > event > u64 > [lo, hi] */
#define RYAML_DEPTH_MAX 5
/* kvmtrace records carry at most 7 data words */
#define RYAML_ARGS_MAX 7

/* Where a node is: libyaml's line and column (0-based, in characters). */
struct ryaml_mark {
	uint32_t line;
	uint32_t column;
};

/*
 * A node of the document: 24 bytes, for a 10 MB file has some 1.7 M of
 * them. Children are node indices in ryaml.kids: a sequence's items, or
 * a mapping's key, value, key, value... Rule files are at most
 * RULES_FILE_MAX bytes, so a line number fits in 27 bits.
 */
struct ryaml_node {
	union {
		const char *value;	/* scalars: NUL-terminated (ryaml_str) */
		uint32_t first;		/* containers: first child in kids */
	};
	union {
		uint32_t len;		/* scalars: bytes of value */
		uint32_t n;		/* containers: items, or key-value pairs */
	};
	struct ryaml_mark start;
	uint32_t end_line : 27;	/* where the node ends (scalars: their text) */
	uint32_t type : 2;	/* yaml_node_type_t: YAML_SCALAR_NODE, ... */
	uint32_t style : 3;	/* yaml_scalar_style_t, of scalars */
};

/* A block of scalar text; blocks never move, so nodes point into them. */
struct ryaml_chunk {
	struct ryaml_chunk *next;	/* the block filled before */
	size_t size;			/* bytes of data */
	char data[];
};

struct ryaml {
	const char *name;	/* borrowed: the file, for messages */
	const char *buf;	/* borrowed: its text */
	size_t len;
	size_t *lines;		/* owned: offset of each line's start */
	size_t nlines;
	/* the document (ryaml_build) */
	struct ryaml_node *nodes;	/* owned (ryaml_map); nodes[0]: the root */
	size_t nnodes, capnodes;
	uint32_t *kids;		/* owned (ryaml_map): children, see ryaml_node */
	size_t nkids, capkids;
	struct ryaml_chunk *strs;	/* owned (ryaml_map): the scalars' values */
	size_t nstrs;		/* bytes used in strs */
	struct rules *r;	/* owned until handed to the caller */
	struct diag *d;		/* borrowed */
	/* the names args: and u64: gave in the current rule: a hash set */
	const struct rule *names_rule;	/* borrowed: whose; NULL: none yet */
	const char **names;	/* owned array; strings borrowed */
	size_t nnames, capnames;
	size_t capaliases;	/* room in the current rule's aliases */
};

/* Where a mark is, in bytes: its line (1-based), column and line text. */
struct ryaml_pos {
	unsigned line;
	unsigned col;
	const char *text;
	size_t text_len;
};

/* What a node holds, as YAML's core schema resolves plain scalars. */
enum ryaml_kind {
	RYAML_STR = 0,
	RYAML_NULL,
	RYAML_BOOL,
	RYAML_INT,
	RYAML_FLOAT,
	RYAML_LIST,
	RYAML_MAP,
};

extern const char *const ryaml_kind_name[];

/* ---------------------------------------------------- rules-yaml-doc.c */

/* Index the lines, walk the text once into the tree (0 or -errno). */
int ryaml_build(struct ryaml *y);
void ryaml_free_doc(struct ryaml *y);
/* The root node, or NULL (an empty stream). */
const struct ryaml_node *ryaml_root_node(const struct ryaml *y);
/* Child i of a sequence; key and value of pair i of a mapping. */
const struct ryaml_node *ryaml_item(const struct ryaml *y,
				    const struct ryaml_node *seq, size_t i);
const struct ryaml_node *ryaml_key(const struct ryaml *y,
				   const struct ryaml_node *map, size_t i);
const struct ryaml_node *ryaml_value(const struct ryaml *y,
				     const struct ryaml_node *map, size_t i);
/* The value of key in map, or NULL. */
const struct ryaml_node *ryaml_get(const struct ryaml *y,
				   const struct ryaml_node *map,
				   const char *key);

/* The text of line (0-based), without its line break. */
void ryaml_line(const struct ryaml *y, size_t line, const char **text,
		size_t *len);
/* A mark (column in characters) as bytes. */
struct ryaml_pos ryaml_locate(const struct ryaml *y, struct ryaml_mark m);

/* Messages: each returns -EINVAL (ryaml_nomem: -ENOMEM). */
int ryaml_error_pos(struct ryaml *y, struct ryaml_pos p, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int ryaml_error(struct ryaml *y, const struct ryaml_node *n,
		const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int ryaml_nomem(struct ryaml *y);

/* A scalar's value; NULL for a container. */
static inline const char *ryaml_str(const struct ryaml_node *n)
{
	return n->type == YAML_SCALAR_NODE ? n->value : NULL;
}

bool ryaml_is(const struct ryaml_node *n, const char *s);
bool ryaml_is_any(const struct ryaml_node *n, const char *const *v);
enum ryaml_kind ryaml_kind(const struct ryaml_node *n);
/* n of kind want, else an error naming what (the key it is the value of). */
int ryaml_expect(struct ryaml *y, const struct ryaml_node *n,
		 enum ryaml_kind want, const char *what);
/* A non-negative integer scalar. */
int ryaml_uint(struct ryaml *y, const struct ryaml_node *n, const char *what,
	       uint64_t *out);
/* Every key of map a scalar, none twice (n log n). */
int ryaml_check_keys(struct ryaml *y, const struct ryaml_node *map,
		     const char *what);
/*
 * n must be a mapping of distinct keys; what (the key it is the value
 * of) and shape (what it maps, for the message) say so when it is not.
 * Then fn is called for each pair in file order; the first error ends
 * the walk.
 */
int ryaml_each_pair(struct ryaml *y, const struct ryaml_node *n,
		    const char *what, const char *shape,
		    int (*fn)(struct ryaml *y, const struct ryaml_node *k,
			      const struct ryaml_node *v, void *arg),
		    void *arg);

/* -------------------------------------------------- rules-yaml-names.c */

/* enums: {name: {value: SYMBOL, ...}, ...} into y->r->enums. */
int ryaml_enums(struct ryaml *y, const struct ryaml_node *map);
/* args:, u64:, enum: of an event: aliases of rule. */
int ryaml_args(struct ryaml *y, struct rule *rule, const struct ryaml_node *n);
int ryaml_u64(struct ryaml *y, struct rule *rule, const struct ryaml_node *n);
int ryaml_enum_refs(struct ryaml *y, struct rule *rule,
		    const struct ryaml_node *n);

#endif
