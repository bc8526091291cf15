// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * YAML rule files (schema v1, kvmtrace_format-formats(5)):
 *
 *   version: 1
 *   enums:
 *     vmx_exit_reason: {0: EXCEPTION_NMI, 1: EXTERNAL_INTERRUPT, 12: HLT}
 *   events:
 *     - match: 0x00010002
 *       name: VMEXIT
 *       args: [exitcode, rip_lo, rip_hi]
 *       u64: {rip: [rip_lo, rip_hi]}
 *       enum: {exitcode: vmx_exit_reason}
 *       format: "%(ts)d VMEXIT %(exitcode)s rip=0x%(rip)016x"
 *     - match: "*"
 *       skip: true		# no template: render.c prints nothing
 *
 * Two passes over the text. The first streams libyaml's events and refuses
 * what no rule file needs before anything is built: aliases, nesting deeper
 * than the schema, more than one document, and whatever libyaml refuses.
 * The second loads the document and walks it against the schema.
 *
 * libyaml counts columns in characters; messages count bytes, so marks go
 * through ryaml_locate(). Templates are compiled here: an error inside one
 * points into the scalar as written (quotes, '' and escapes accounted for).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "diag.h"
#include "rules-yaml.h"

/* root > events > event > u64 > [lo, hi] */
#define RYAML_DEPTH_MAX 5
/* kvmtrace records carry at most 7 data words */
#define RYAML_ARGS_MAX 7

struct ryaml {
	const char *name;	/* borrowed: the file, for messages */
	const char *buf;	/* borrowed: its text */
	size_t len;
	size_t *lines;		/* owned: offset of each line's start */
	size_t nlines;
	yaml_document_t doc;
	bool have_doc;
	struct rules *r;	/* owned until handed to the caller */
	struct diag *d;		/* borrowed */
	/* the names args: and u64: gave in the current rule: a hash set */
	const struct rule *names_rule;	/* borrowed: whose; NULL: none yet */
	const char **names;	/* owned array; strings borrowed */
	size_t nnames, capnames;
};

/* Where a mark is, in bytes: its line (1-based), column and line text. */
struct ryaml_pos {
	unsigned line;
	unsigned col;
	const char *text;
	size_t text_len;
};

/* ------------------------------------------------------------ positions */

/* Length of the line break at p (libyaml's: LF, CR, CRLF, NEL, LS, PS). */
static size_t ryaml_break(const char *p, size_t left)
{
	const unsigned char *u = (const unsigned char *)p;

	if (!left)
		return 0;
	if (u[0] == '\n')
		return 1;
	if (u[0] == '\r')
		return left >= 2 && u[1] == '\n' ? 2 : 1;
	if (left >= 2 && u[0] == 0xc2 && u[1] == 0x85)
		return 2;
	if (left >= 3 && u[0] == 0xe2 && u[1] == 0x80 &&
	    (u[2] == 0xa8 || u[2] == 0xa9))
		return 3;
	return 0;
}

static int ryaml_index_lines(struct ryaml *y)
{
	size_t cap = 64, i = 0;

	y->lines = malloc(cap * sizeof(*y->lines));
	if (!y->lines)
		return -ENOMEM;
	y->lines[y->nlines++] = 0;
	while (i < y->len) {
		size_t b = ryaml_break(y->buf + i, y->len - i);

		if (!b) {
			i++;
			continue;
		}
		i += b;
		if (y->nlines == cap) {
			size_t *n = realloc(y->lines, 2 * cap * sizeof(*n));

			if (!n)
				return -ENOMEM;
			y->lines = n;
			cap *= 2;
		}
		y->lines[y->nlines++] = i;
	}
	return 0;
}

/* The text of line (0-based), without its line break. */
static void ryaml_line(const struct ryaml *y, size_t line, const char **text,
		       size_t *len)
{
	size_t beg, end;

	if (line >= y->nlines) {
		*text = "";
		*len = 0;
		return;
	}
	beg = y->lines[line];
	end = y->len;
	if (line + 1 < y->nlines) {
		/* drop the break that ends the line: the one at its end */
		const unsigned char *u = (const unsigned char *)y->buf;

		end = y->lines[line + 1];
		if (u[end - 1] == '\n')
			end -= end - beg >= 2 && u[end - 2] == '\r' ? 2 : 1;
		else if (u[end - 1] == '\r')
			end--;
		else if (u[end - 1] == 0x85)
			end -= 2;
		else
			end -= 3;
	}
	*text = y->buf + beg;
	*len = end - beg;
}

static size_t ryaml_utf8_width(unsigned char c)
{
	if (c < 0xc0)
		return 1;
	if (c < 0xe0)
		return 2;
	if (c < 0xf0)
		return 3;
	return 4;
}

/* A libyaml mark (column in characters) as bytes. */
static struct ryaml_pos ryaml_locate(const struct ryaml *y, yaml_mark_t m)
{
	struct ryaml_pos p = { .line = (unsigned)m.line + 1 };
	size_t off = 0, c;

	ryaml_line(y, m.line, &p.text, &p.text_len);
	for (c = 0; c < m.column && off < p.text_len; c++)
		off += ryaml_utf8_width((unsigned char)p.text[off]);
	p.col = (unsigned)(off + (c < m.column ? m.column - c : 0)) + 1;
	return p;
}

/* A byte offset into the file (libyaml's reader errors). */
static struct ryaml_pos ryaml_locate_offset(const struct ryaml *y, size_t off)
{
	struct ryaml_pos p;
	size_t lo = 0, hi = y->nlines;

	/* the last line that starts at or before off */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (y->lines[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	p.line = (unsigned)lo + 1;
	p.col = (unsigned)(off - y->lines[lo]) + 1;
	ryaml_line(y, lo, &p.text, &p.text_len);
	return p;
}

static int ryaml_error_pos(struct ryaml *y, struct ryaml_pos p,
			   const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int ryaml_error_pos(struct ryaml *y, struct ryaml_pos p,
			   const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_at(y->d, y->name, p.line, p.col, p.text, p.text_len, "%s", msg);
	return -EINVAL;
}

static int ryaml_error(struct ryaml *y, const yaml_node_t *n,
		       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* An error at node n (its first character). Returns -EINVAL. */
static int ryaml_error(struct ryaml *y, const yaml_node_t *n,
		       const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ryaml_error_pos(y, ryaml_locate(y, n->start_mark), "%s", msg);
}

static int ryaml_nomem(struct ryaml *y)
{
	diag_set(y->d, "%s: out of memory", y->name);
	return -ENOMEM;
}

/* ------------------------------------------------ pass 1: the event stream */

/* What libyaml refused, at its mark, with a hint for the usual slips. */
static int ryaml_parser_error(struct ryaml *y, const yaml_parser_t *p)
{
	struct ryaml_pos pos;
	const char *problem = p->problem ? p->problem : "cannot parse";
	const char *hint = "";
	char ctx[160] = "";
	size_t off;

	if (p->error == YAML_MEMORY_ERROR)
		return ryaml_nomem(y);
	if (p->error == YAML_READER_ERROR) {
		pos = ryaml_locate_offset(y, p->problem_offset);
		return ryaml_error_pos(y, pos, "%s (a rule file is UTF-8 text)",
				       problem);
	}
	pos = ryaml_locate(y, p->problem_mark);
	off = pos.col - 1;
	if (p->context && (strstr(p->context, "alias") ||
			   strstr(p->context, "anchor"))) {
		/* "match: *" reads as an alias: point at the '*' */
		pos = ryaml_locate(y, p->context_mark);
		hint = "; quote names that start with '*' or '&': match: \"*\"";
	} else if (off < pos.text_len && pos.text[off] == '%') {
		hint = "; quote templates: format: \"%(ts)d ...\"";
	} else if (off < pos.text_len && pos.text[off] == '\t') {
		hint = "; indent with spaces: YAML does not allow tabs there";
	}
	if (p->context && p->context_mark.line == p->problem_mark.line)
		snprintf(ctx, sizeof(ctx), " (%s)", p->context);
	else if (p->context)
		snprintf(ctx, sizeof(ctx), " (%s at line %u)", p->context,
			 (unsigned)p->context_mark.line + 1);
	return ryaml_error_pos(y, pos, "%s%s%s", problem, ctx, hint);
}

static int ryaml_parser_init(struct ryaml *y, yaml_parser_t *p)
{
	if (!yaml_parser_initialize(p))
		return ryaml_nomem(y);
	yaml_parser_set_input_string(p, (const unsigned char *)y->buf, y->len);
	yaml_parser_set_encoding(p, YAML_UTF8_ENCODING);
	return 0;
}

/* Refuse aliases, deep nesting and extra documents before building a tree. */
static int ryaml_scan(struct ryaml *y)
{
	yaml_parser_t p;
	yaml_event_t ev;
	unsigned depth = 0, docs = 0;
	int ret;

	ret = ryaml_parser_init(y, &p);
	if (ret < 0)
		return ret;
	for (;;) {
		yaml_event_type_t type;

		if (!yaml_parser_parse(&p, &ev)) {
			ret = ryaml_parser_error(y, &p);
			break;
		}
		type = ev.type;
		switch (type) {
		case YAML_ALIAS_EVENT:
			ret = ryaml_error_pos(y, ryaml_locate(y, ev.start_mark),
					      "aliases (*name) are not allowed in rule files; write the value out");
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1)
				ret = ryaml_error_pos(y, ryaml_locate(y, ev.start_mark),
						      "a second YAML document: a rule file holds one");
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (++depth > RYAML_DEPTH_MAX)
				ret = ryaml_error_pos(y, ryaml_locate(y, ev.start_mark),
						      "nested deeper than a rule file can be (%u levels)",
						      RYAML_DEPTH_MAX);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
		if (ret < 0 || type == YAML_STREAM_END_EVENT)
			break;
	}
	yaml_parser_delete(&p);
	return ret;
}

/* ------------------------------------------------------- pass 2: the tree */

static yaml_node_t *ryaml_node(struct ryaml *y, int index)
{
	return yaml_document_get_node(&y->doc, index);
}

enum ryaml_kind {
	RYAML_STR = 0,
	RYAML_NULL,
	RYAML_BOOL,
	RYAML_INT,
	RYAML_FLOAT,
	RYAML_LIST,
	RYAML_MAP,
};

static const char *const ryaml_kind_name[] = {
	[RYAML_STR] = "a string",
	[RYAML_NULL] = "nothing",
	[RYAML_BOOL] = "a boolean",
	[RYAML_INT] = "an integer",
	[RYAML_FLOAT] = "a number",
	[RYAML_LIST] = "a list",
	[RYAML_MAP] = "a mapping",
};

static bool ryaml_is(const yaml_node_t *n, const char *s)
{
	return n->data.scalar.length == strlen(s) &&
	       !memcmp(n->data.scalar.value, s, n->data.scalar.length);
}

static bool ryaml_is_any(const yaml_node_t *n, const char *const *v)
{
	for (; *v; v++)
		if (ryaml_is(n, *v))
			return true;
	return false;
}

/* [-+]?(digits[.digits]|.digits)([eE][-+]?digits)?, .inf, .nan */
static bool ryaml_is_float(const char *s, size_t len)
{
	static const char *const special[] = {
		".inf", ".Inf", ".INF", "-.inf", "-.Inf", "-.INF", "+.inf",
		"+.Inf", "+.INF", ".nan", ".NaN", ".NAN", NULL,
	};
	size_t i = 0, digits = 0;
	const char *const *sp;

	for (sp = special; *sp; sp++)
		if (strlen(*sp) == len && !memcmp(s, *sp, len))
			return true;
	if (i < len && (s[i] == '-' || s[i] == '+'))
		i++;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		digits++;
	if (i < len && s[i] == '.')
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			digits++;
	if (!digits)
		return false;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t e = 0;

		i++;
		if (i < len && (s[i] == '-' || s[i] == '+'))
			i++;
		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			e++;
		if (!e)
			return false;
	}
	return i == len;
}

/* What a node holds, resolving plain scalars as YAML's core schema does. */
static enum ryaml_kind ryaml_kind(const yaml_node_t *n)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL", NULL };
	static const char *const bools[] = {
		"true", "True", "TRUE", "false", "False", "FALSE", NULL,
	};
	const char *s;
	size_t len;
	uint64_t v;

	if (n->type == YAML_SEQUENCE_NODE)
		return RYAML_LIST;
	if (n->type == YAML_MAPPING_NODE)
		return RYAML_MAP;
	if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return RYAML_STR;
	if (ryaml_is_any(n, nulls))
		return RYAML_NULL;
	if (ryaml_is_any(n, bools))
		return RYAML_BOOL;
	s = (const char *)n->data.scalar.value;
	len = n->data.scalar.length;
	if (len > 1 && (s[0] == '-' || s[0] == '+')) {
		s++;
		len--;
	}
	if (len && s[0] >= '0' && s[0] <= '9' && rules_parse_int(s, len, &v) != -EINVAL)
		return RYAML_INT;
	if (ryaml_is_float(s, len))
		return RYAML_FLOAT;
	return RYAML_STR;
}

static int ryaml_expect(struct ryaml *y, const yaml_node_t *n,
			enum ryaml_kind want, const char *what)
{
	enum ryaml_kind k = ryaml_kind(n);

	if (k == want)
		return 0;
	if (want == RYAML_STR && k != RYAML_LIST && k != RYAML_MAP &&
	    k != RYAML_NULL)
		return ryaml_error(y, n, "%s: expected a string, found %s (quote it)",
				   what, ryaml_kind_name[k]);
	return ryaml_error(y, n, "%s: expected %s, found %s", what,
			   ryaml_kind_name[want], ryaml_kind_name[k]);
}

static const char *ryaml_str(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

/* A non-negative integer scalar. */
static int ryaml_uint(struct ryaml *y, const yaml_node_t *n, const char *what,
		      uint64_t *out)
{
	int ret = ryaml_expect(y, n, RYAML_INT, what);

	if (ret < 0)
		return ret;
	ret = rules_parse_int(ryaml_str(n), n->data.scalar.length, out);
	if (ret == -ERANGE)
		return ryaml_error(y, n, "%s: %s is out of range (64 bits)",
				   what, ryaml_str(n));
	if (ret < 0)
		return ryaml_error(y, n, "%s: expected a non-negative integer, found %s",
				   what, ryaml_str(n));
	return 0;
}

/*
 * The keys of a mapping must be distinct strings. Returns 0, or -EINVAL
 * at the second of two equal keys.
 */
struct ryaml_key {
	const yaml_node_t *k;	/* borrowed */
	size_t at;		/* its place in the mapping */
};

static int ryaml_key_cmp(const void *a, const void *b)
{
	const struct ryaml_key *x = a, *y = b;
	size_t lx = x->k->data.scalar.length, ly = y->k->data.scalar.length;
	int c;

	if (lx != ly)
		return lx < ly ? -1 : 1;
	c = memcmp(x->k->data.scalar.value, y->k->data.scalar.value, lx);
	if (c)
		return c;
	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * Every key a scalar, none twice: sorted, so that a mapping of n keys
 * costs n log n. The duplicate reported is the first in file order that
 * repeats an earlier key, with the line of that key's first use.
 */
static int ryaml_check_keys(struct ryaml *y, const yaml_node_t *map,
			    const char *what)
{
	const yaml_node_pair_t *p, *start = map->data.mapping.pairs.start;
	size_t n = (size_t)(map->data.mapping.pairs.top - start), i, g;
	const struct ryaml_key *dup = NULL, *first = NULL;
	struct ryaml_key *keys;

	for (p = start; p < map->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = ryaml_node(y, p->key);

		if (k->type != YAML_SCALAR_NODE)
			return ryaml_error(y, k, "%s: expected a key, found %s",
					   what, ryaml_kind_name[ryaml_kind(k)]);
	}
	if (n < 2)
		return 0;
	keys = malloc(n * sizeof(*keys));
	if (!keys)
		return ryaml_nomem(y);
	for (i = 0; i < n; i++) {
		keys[i].k = ryaml_node(y, start[i].key);
		keys[i].at = i;
	}
	qsort(keys, n, sizeof(*keys), ryaml_key_cmp);
	for (i = 1, g = 0; i < n; i++) {
		if (ryaml_key_cmp(&(struct ryaml_key){ keys[i - 1].k, 0 },
				  &(struct ryaml_key){ keys[i].k, 0 })) {
			g = i;	/* a new group of equal keys */
			continue;
		}
		/* the group's second (in file order) repeats its first */
		if (i == g + 1 && (!dup || keys[i].at < dup->at)) {
			dup = &keys[i];
			first = &keys[g];
		}
	}
	if (dup) {
		const yaml_node_t *k = dup->k, *e = first->k;

		free(keys);
		return ryaml_error(y, k, "%s: duplicate key '%s' (first at line %u)",
				   what, ryaml_str(k),
				   (unsigned)e->start_mark.line + 1);
	}
	free(keys);
	return 0;
}

/*
 * n must be a mapping of distinct keys; what (the key it is the value
 * of) and shape (what it maps, for the message) say so when it is not.
 */
static int ryaml_mapping(struct ryaml *y, const yaml_node_t *n,
			 const char *what, const char *shape)
{
	if (n->type != YAML_MAPPING_NODE)
		return ryaml_error(y, n, "%s: expected a mapping of %s, found %s",
				   what, shape, ryaml_kind_name[ryaml_kind(n)]);
	return ryaml_check_keys(y, n, what);
}

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
	const yaml_node_t *key;	/* borrowed from the document */
	const yaml_node_t *sym;
};

static int ryaml_entry_cmp(const void *a, const void *b)
{
	const struct ryaml_entry *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	/* equal values: in file order */
	return x->key < y->key ? -1 : x->key > y->key;
}

static int ryaml_enum(struct ryaml *y, const yaml_node_t *key,
		      const yaml_node_t *table, struct rule_enum *e)
{
	const yaml_node_pair_t *p;
	struct ryaml_entry *v;
	size_t n = 0, i;
	char what[128];
	int ret;

	ret = ryaml_expect(y, key, RYAML_STR, "enums");
	if (ret < 0)
		return ret;
	snprintf(what, sizeof(what), "enum '%s'", ryaml_str(key));
	if (table->type != YAML_MAPPING_NODE)
		return ryaml_error(y, table, "%s: expected a mapping of numbers to symbols, such as {0: EXCEPTION_NMI, 12: HLT}, found %s",
				   what, ryaml_kind_name[ryaml_kind(table)]);
	e->name = strdup(ryaml_str(key));
	n = (size_t)(table->data.mapping.pairs.top - table->data.mapping.pairs.start);
	v = calloc(n ? n : 1, sizeof(*v));
	e->v = calloc(n ? n : 1, sizeof(*e->v));
	if (!e->name || !v || !e->v) {
		ret = ryaml_nomem(y);
		goto end;
	}
	for (i = 0, p = table->data.mapping.pairs.start; i < n; i++, p++) {
		v[i].key = ryaml_node(y, p->key);
		v[i].sym = ryaml_node(y, p->value);
		ret = ryaml_uint(y, v[i].key, what, &v[i].value);
		if (ret < 0)
			goto end;
		ret = ryaml_expect(y, v[i].sym, RYAML_STR, what);
		if (ret < 0)
			goto end;
	}
	if (n)
		qsort(v, n, sizeof(*v), ryaml_entry_cmp);
	for (i = 1; i < n; i++) {
		if (v[i].value != v[i - 1].value)
			continue;
		ret = ryaml_error(y, v[i].key, "%s: %" PRIu64 " has the symbol %s already (line %u)",
				  what, v[i].value, ryaml_str(v[i - 1].sym),
				  (unsigned)v[i - 1].key->start_mark.line + 1);
		goto end;
	}
	for (i = 0; i < n; i++) {
		e->v[i].value = v[i].value;
		e->v[i].symbol = strdup(ryaml_str(v[i].sym));
		if (!e->v[i].symbol) {
			ret = ryaml_nomem(y);
			goto end;
		}
		e->n++;
	}
	ret = 0;
end:
	free(v);
	return ret;
}

static int ryaml_enum_cmp(const void *a, const void *b)
{
	const struct rule_enum *x = a, *y = b;

	return strcmp(x->name, y->name);
}

static int ryaml_enums(struct ryaml *y, const yaml_node_t *map)
{
	const yaml_node_pair_t *p;
	struct rules *r = y->r;
	size_t n;
	int ret;

	ret = ryaml_mapping(y, map, "enums", "enum names to tables");
	if (ret < 0)
		return ret;
	n = (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
	r->enums = calloc(n ? n : 1, sizeof(*r->enums));
	if (!r->enums)
		return ryaml_nomem(y);
	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		/* counted first: rules_destroy() frees what is half built */
		r->nenums++;
		ret = ryaml_enum(y, ryaml_node(y, p->key), ryaml_node(y, p->value),
				 &r->enums[r->nenums - 1]);
		if (ret < 0)
			return ret;
	}
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
	struct rule_alias *n, *al;

	n = realloc(rule->aliases, (rule->naliases + 1) * sizeof(*n));
	if (!n)
		return ryaml_nomem(y);
	rule->aliases = n;
	al = &n[rule->naliases++];
	memset(al, 0, sizeof(*al));
	al->kind = kind;
	al->table = table;
	al->key = strdup(key);
	al->a = strdup(a);
	al->b = b ? strdup(b) : NULL;
	if (!al->key || !al->a || (b && !al->b))
		return ryaml_nomem(y);
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
			  const yaml_node_t *n, const char *what)
{
	size_t i;
	int ret;

	ret = ryaml_expect(y, n, RYAML_STR, what);
	if (ret < 0)
		return ret;
	if (!ryaml_ident(ryaml_str(n), n->data.scalar.length))
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
static int ryaml_ref(struct ryaml *y, const yaml_node_t *n, const char *what)
{
	enum ryaml_kind k = ryaml_kind(n);
	const char *s;
	size_t len, i;

	if (k != RYAML_STR && k != RYAML_INT)
		return ryaml_error(y, n, "%s: expected a key name, found %s",
				   what, ryaml_kind_name[k]);
	s = ryaml_str(n);
	len = n->data.scalar.length;
	if (ryaml_ident(s, len))
		return 0;
	for (i = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (len && i == len)
		return 0;
	return ryaml_error(y, n, "%s: '%s' is not a key name", what, s);
}

/* args: [exitcode, rip_lo, rip_hi]: data words 1..n by name */
static int ryaml_args(struct ryaml *y, struct rule *rule, const yaml_node_t *n)
{
	const yaml_node_item_t *it;
	unsigned word = 0;
	int ret;

	if (n->type != YAML_SEQUENCE_NODE)
		return ryaml_error(y, n, "args: expected a list of names of the data words, such as [exitcode, rip_lo, rip_hi], found %s",
				   ryaml_kind_name[ryaml_kind(n)]);
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
		const yaml_node_t *e = ryaml_node(y, *it);
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

/* u64: {rip: [rip_lo, rip_hi]}: lo | hi << 32 */
static int ryaml_u64(struct ryaml *y, struct rule *rule, const yaml_node_t *n)
{
	const yaml_node_pair_t *p;
	int ret;

	ret = ryaml_mapping(y, n, "u64",
			    "names to [low, high] word pairs, such as {rip: [rip_lo, rip_hi]}");
	if (ret < 0)
		return ret;
	for (p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = ryaml_node(y, p->key);
		const yaml_node_t *v = ryaml_node(y, p->value);
		const yaml_node_t *lo, *hi;

		ret = ryaml_new_name(y, rule, k, "u64");
		if (ret < 0)
			return ret;
		if (v->type != YAML_SEQUENCE_NODE ||
		    v->data.sequence.items.top - v->data.sequence.items.start != 2)
			return ryaml_error(y, v, "u64: '%s': expected [low, high], two key names",
					   ryaml_str(k));
		lo = ryaml_node(y, v->data.sequence.items.start[0]);
		hi = ryaml_node(y, v->data.sequence.items.start[1]);
		ret = ryaml_ref(y, lo, "u64");
		if (ret == 0)
			ret = ryaml_ref(y, hi, "u64");
		if (ret == 0)
			ret = ryaml_alias(y, rule, ALIAS_JOIN, ryaml_str(k),
					  ryaml_str(lo), ryaml_str(hi), NULL);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* enum: {exitcode: vmx_exit_reason}: %(exitcode)s prints the symbol */
static int ryaml_enum_refs(struct ryaml *y, struct rule *rule,
			   const yaml_node_t *n)
{
	const yaml_node_pair_t *p;
	int ret;

	ret = ryaml_mapping(y, n, "enum",
			    "keys to enum names, such as {exitcode: vmx_exit_reason}");
	if (ret < 0)
		return ret;
	for (p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = ryaml_node(y, p->key);
		const yaml_node_t *v = ryaml_node(y, p->value);
		const struct rule_enum *e;

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
		ret = ryaml_alias(y, rule, ALIAS_ENUM, ryaml_str(k), ryaml_str(k),
				  NULL, e);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* --------------------------------------------------------------- templates */

/* The length of the double-quoted escape at s (after the '\'), as text. */
static size_t ryaml_escape(const char *s, size_t left, size_t *src_len)
{
	unsigned long cp = 0;
	size_t hex = 0, i;

	*src_len = 1;
	if (!left)
		return 0;
	switch (s[0]) {
	case 'x':
		hex = 2;
		break;
	case 'u':
		hex = 4;
		break;
	case 'U':
		hex = 8;
		break;
	case 'N': case '_':
		*src_len = 1;
		return 2;
	case 'L': case 'P':
		*src_len = 1;
		return 3;
	default:
		return 1;
	}
	for (i = 1; i <= hex && i < left; i++) {
		char c = s[i];

		cp = cp * 16 + (unsigned long)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	*src_len = 1 + hex;
	return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/*
 * Where a template scalar is written: *pos at its first character, and
 * whether offsets into its value map to columns (*exact). They do for a
 * scalar on one line, and for a block scalar of one content line.
 */
static void ryaml_scalar_pos(const struct ryaml *y, const yaml_node_t *n,
			     struct ryaml_pos *pos, bool *exact)
{
	yaml_scalar_style_t style = n->data.scalar.style;
	const char *v = ryaml_str(n);
	size_t len = n->data.scalar.length;

	*pos = ryaml_locate(y, n->start_mark);
	*exact = false;
	if (style == YAML_LITERAL_SCALAR_STYLE || style == YAML_FOLDED_SCALAR_STYLE) {
		size_t line = n->start_mark.line + 1, ll = 0, ind = 0;
		const char *t = NULL;

		while (len && v[len - 1] == '\n')
			len--;
		if (memchr(v, '\n', len))
			return;
		/* the first line with content after the indicator */
		for (; line < y->nlines && line <= n->end_mark.line; line++) {
			ryaml_line(y, line, &t, &ll);
			for (ind = 0; ind < ll && t[ind] == ' '; ind++)
				;
			if (ind < ll)
				break;
		}
		if (line > n->end_mark.line || line >= y->nlines ||
		    ll - ind < len || memcmp(t + ind, v, len))
			return;
		pos->line = (unsigned)line + 1;
		pos->col = (unsigned)ind + 1;
		pos->text = t;
		pos->text_len = ll;
		*exact = true;
		return;
	}
	if (n->start_mark.line != n->end_mark.line)
		return;
	if (style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
	    style == YAML_DOUBLE_QUOTED_SCALAR_STYLE)
		pos->col++;
	*exact = true;
}

/* The column of byte off (0-based) of the value of a one-line scalar. */
/*
 * Where a scan of a quoted scalar stands: s bytes into the line, v bytes
 * into the value. Offsets asked in increasing order cost one pass.
 */
struct ryaml_cursor {
	size_t s, v;
};

static unsigned ryaml_value_col_at(const yaml_node_t *n,
				   const struct ryaml_pos *pos, size_t off,
				   struct ryaml_cursor *c)
{
	yaml_scalar_style_t style = n->data.scalar.style;
	const char *t = pos->text;
	size_t s, v;

	if (style != YAML_SINGLE_QUOTED_SCALAR_STYLE &&
	    style != YAML_DOUBLE_QUOTED_SCALAR_STYLE)
		return pos->col + (unsigned)off;
	if (off < c->v || c->s < pos->col - 1) {
		/* behind the cursor: from the start again */
		c->s = pos->col - 1;
		c->v = 0;
	}
	s = c->s;
	v = c->v;
	while (s < pos->text_len) {
		size_t vl = 1, sl = 1;

		if (style == YAML_SINGLE_QUOTED_SCALAR_STYLE && t[s] == '\'') {
			if (s + 1 >= pos->text_len || t[s + 1] != '\'')
				break;	/* the closing quote */
			sl = 2;
		} else if (style == YAML_DOUBLE_QUOTED_SCALAR_STYLE) {
			if (t[s] == '"')
				break;
			if (t[s] == '\\') {
				vl = ryaml_escape(t + s + 1, pos->text_len - s - 1, &sl);
				sl++;
			}
		}
		if (off < v + vl)
			break;
		v += vl;
		s += sl;
	}
	c->s = s;
	c->v = v;
	return (unsigned)s + 1;
}

static unsigned ryaml_value_col(const yaml_node_t *n,
				const struct ryaml_pos *pos, size_t off)
{
	struct ryaml_cursor c = { pos->col - 1, 0 };

	return ryaml_value_col_at(n, pos, off, &c);
}

static int ryaml_format(struct ryaml *y, struct rule *rule, const yaml_node_t *n)
{
	struct ryaml_pos pos;
	const char *msg;
	unsigned ecol;
	bool exact;
	int ret;

	ret = ryaml_expect(y, n, RYAML_STR, "format");
	if (ret < 0)
		return ret;
	ryaml_scalar_pos(y, n, &pos, &exact);
	ret = tmpl_compile(ryaml_str(n), n->data.scalar.length, &rule->tmpl,
			   &ecol, &msg);
	if (ret == -ENOMEM)
		return ryaml_nomem(y);
	if (ret < 0) {
		if (exact)
			pos.col = ryaml_value_col(n, &pos, ecol - 1);
		return ryaml_error_pos(y, pos, "%s", msg);
	}
	rule->line = pos.line;
	rule->col = pos.col;
	rule->line_text = strndup(pos.text, pos.text_len);
	rule->line_len = pos.text_len;
	if (!rule->line_text)
		return ryaml_nomem(y);
	/*
	 * Later messages (an unknown key, a type error) point at columns of
	 * the template's value; in a quoted scalar, quotes and escapes make
	 * them columns of the line only through ryaml_value_col().
	 */
	if (exact && n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) {
		struct ryaml_cursor c = { pos.col - 1, 0 };
		struct tmpl *tm = rule->tmpl;
		size_t i;

		/* in template order: one pass each (a 10 MB line is linear) */
		for (i = 0; i < tm->nkeys; i++)
			tm->key_col[i] = ryaml_value_col_at(n, &pos,
							    tm->key_col[i] - 1,
							    &c) -
					 pos.col + 1;
		c.s = pos.col - 1;
		c.v = 0;
		for (i = 0; i < tm->nops; i++)
			if (tm->ops[i].kind == TMPL_CONV)
				tm->ops[i].col = ryaml_value_col_at(n, &pos,
								    tm->ops[i].col - 1,
								    &c) -
						 pos.col + 1;
	}
	return 0;
}

/* skip: true: no template; the events print nothing (render.c) */
static int ryaml_skip(struct ryaml *y, struct rule *rule, const yaml_node_t *n)
{
	struct ryaml_pos pos = ryaml_locate(y, n->start_mark);

	rule->line = pos.line;
	rule->col = pos.col;
	rule->line_text = strndup(pos.text, pos.text_len);
	rule->line_len = pos.text_len;
	return rule->line_text ? 0 : ryaml_nomem(y);
}

/* ------------------------------------------------------------------ events */

static const char *const ryaml_event_keys[] = {
	"match", "name", "args", "u64", "enum", "format", "skip", NULL,
};

static const yaml_node_t *ryaml_get(struct ryaml *y, const yaml_node_t *map,
				    const char *key)
{
	const yaml_node_pair_t *p;

	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++)
		if (ryaml_is(ryaml_node(y, p->key), key))
			return ryaml_node(y, p->value);
	return NULL;
}

static int ryaml_event(struct ryaml *y, const yaml_node_t *ev)
{
	const yaml_node_t *match, *n;
	const yaml_node_pair_t *p;
	struct rule rule = { 0 };
	const char *why = NULL;
	bool skip = false;
	int ret;

	/* each rule is made here, at one address: its names start over */
	y->names_rule = NULL;
	if (ev->type != YAML_MAPPING_NODE)
		return ryaml_error(y, ev, "events: expected an event (a mapping with match: and format:), found %s",
				   ryaml_kind_name[ryaml_kind(ev)]);
	ret = ryaml_check_keys(y, ev, "event");
	if (ret < 0)
		return ret;
	for (p = ev->data.mapping.pairs.start; p < ev->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = ryaml_node(y, p->key);

		if (!ryaml_is_any(k, ryaml_event_keys))
			return ryaml_error(y, k, "unknown key '%s' in an event (expected match, name, args, u64, enum, format or skip)",
					   ryaml_str(k));
	}
	match = ryaml_get(y, ev, "match");
	if (!match)
		return ryaml_error(y, ev, "event without 'match:' (an event id, a name, a glob or \"*\")");
	n = ryaml_get(y, ev, "skip");
	if (n) {
		ret = ryaml_expect(y, n, RYAML_BOOL, "skip");
		if (ret < 0)
			return ret;
		skip = ryaml_str(n)[0] != 'f' && ryaml_str(n)[0] != 'F';
	}
	if (skip && ryaml_get(y, ev, "format"))
		return ryaml_error(y, ryaml_get(y, ev, "format"),
				   "format: this event has 'skip: true' and prints nothing; drop one of them");
	if (!skip && !ryaml_get(y, ev, "format"))
		return ryaml_error(y, ev, "event without 'format:' (the template) or 'skip: true'");
	if (ryaml_kind(match) != RYAML_INT) {
		ret = ryaml_expect(y, match, RYAML_STR, "match");
		if (ret < 0)
			return ret;
	}
	if (!match->data.scalar.length)
		return ryaml_error(y, match, "match: empty");
	ret = rules_parse_id(ryaml_str(match), match->data.scalar.length, &rule, &why);
	if (ret == -ENOMEM) {
		ret = ryaml_nomem(y);
		goto error;
	}
	if (ret < 0) {
		ret = ryaml_error(y, match, "match: %s", why);
		goto error;
	}
	n = ryaml_get(y, ev, "name");
	if (n) {
		ret = ryaml_expect(y, n, RYAML_STR, "name");
		if (ret < 0)
			goto error;
		rule.label = strdup(ryaml_str(n));
		if (!rule.label) {
			ret = ryaml_nomem(y);
			goto error;
		}
	}
	n = ryaml_get(y, ev, "args");
	if (n && (ret = ryaml_args(y, &rule, n)) < 0)
		goto error;
	n = ryaml_get(y, ev, "u64");
	if (n && (ret = ryaml_u64(y, &rule, n)) < 0)
		goto error;
	n = ryaml_get(y, ev, "enum");
	if (n && (ret = ryaml_enum_refs(y, &rule, n)) < 0)
		goto error;
	if (skip)
		ret = ryaml_skip(y, &rule, ryaml_get(y, ev, "skip"));
	else
		ret = ryaml_format(y, &rule, ryaml_get(y, ev, "format"));
	if (ret < 0)
		goto error;
	ret = rules_add(y->r, &rule);
	if (ret < 0) {
		ret = ryaml_nomem(y);
		goto error;
	}
	return 0;
error:
	rule_fini(&rule);
	return ret;
}

/* Two events with the same match: the second is an error. */
struct ryaml_seen {
	const struct rule *rule;	/* borrowed from the rules */
	const yaml_node_t *match;	/* borrowed from the document */
	size_t order;
};

static int ryaml_seen_cmp(const void *a, const void *b)
{
	const struct ryaml_seen *x = a, *y = b;
	const struct rule *p = x->rule, *q = y->rule;
	int c;

	if ((p->match == RULE_ID) != (q->match == RULE_ID))
		return p->match == RULE_ID ? -1 : 1;
	if (p->match == RULE_ID) {
		if (p->id != q->id)
			return p->id < q->id ? -1 : 1;
	} else {
		c = strcmp(p->pattern, q->pattern);
		if (c)
			return c;
	}
	return x->order < y->order ? -1 : x->order > y->order;
}

static bool ryaml_same(const struct rule *p, const struct rule *q)
{
	if (p->match == RULE_ID || q->match == RULE_ID)
		return p->match == q->match && p->id == q->id;
	return !strcmp(p->pattern, q->pattern);
}

static int ryaml_check_matches(struct ryaml *y, const yaml_node_t *events)
{
	const yaml_node_item_t *it = events->data.sequence.items.start;
	struct ryaml_seen *s;
	size_t i, n = y->r->n;
	int ret = 0;

	s = calloc(n ? n : 1, sizeof(*s));
	if (!s)
		return ryaml_nomem(y);
	for (i = 0; i < n; i++) {
		s[i].rule = &y->r->v[i];
		s[i].match = ryaml_get(y, ryaml_node(y, it[i]), "match");
		s[i].order = i;
	}
	if (n)
		qsort(s, n, sizeof(*s), ryaml_seen_cmp);
	for (i = 1; i < n; i++) {
		if (!ryaml_same(s[i - 1].rule, s[i].rule))
			continue;
		ret = ryaml_error(y, s[i].match, "match: '%s' again: the event at line %u matches it already",
				  s[i].rule->pattern,
				  (unsigned)s[i - 1].match->start_mark.line + 1);
		break;
	}
	free(s);
	return ret;
}

static int ryaml_events(struct ryaml *y, const yaml_node_t *seq)
{
	const yaml_node_item_t *it;
	int ret;

	if (seq->type != YAML_SEQUENCE_NODE)
		return ryaml_error(y, seq, "events: expected a list of events ('- match: ...'), found %s",
				   ryaml_kind_name[ryaml_kind(seq)]);
	for (it = seq->data.sequence.items.start; it < seq->data.sequence.items.top; it++) {
		ret = ryaml_event(y, ryaml_node(y, *it));
		if (ret < 0)
			return ret;
	}
	return ryaml_check_matches(y, seq);
}

static int ryaml_root(struct ryaml *y)
{
	const yaml_node_t *root = yaml_document_get_root_node(&y->doc);
	const yaml_node_t *n, *events = NULL;
	const yaml_node_pair_t *p;
	uint64_t version;
	int ret;

	if (!root || (root->type == YAML_SCALAR_NODE && ryaml_kind(root) == RYAML_NULL)) {
		diag_set(y->d, "%s: no rules: a YAML rule file is a mapping with a list of 'events:'",
			 y->name);
		return -EINVAL;
	}
	if (root->type != YAML_MAPPING_NODE)
		return ryaml_error(y, root, "expected a mapping with 'events:' (and 'version:', 'enums:'), found %s",
				   ryaml_kind_name[ryaml_kind(root)]);
	ret = ryaml_check_keys(y, root, "rule file");
	if (ret < 0)
		return ret;
	for (p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = ryaml_node(y, p->key);

		if (ryaml_is(k, "events"))
			events = ryaml_node(y, p->value);
		else if (!ryaml_is(k, "version") && !ryaml_is(k, "enums"))
			return ryaml_error(y, k, "unknown key '%s' (expected version, enums or events)",
					   ryaml_str(k));
	}
	n = ryaml_get(y, root, "version");
	if (n) {
		ret = ryaml_uint(y, n, "version", &version);
		if (ret < 0)
			return ret;
		if (version != 1)
			return ryaml_error(y, n, "version: %" PRIu64 " is not supported: this kvmtrace_format reads version 1",
					   version);
	}
	n = ryaml_get(y, root, "enums");
	if (n && (ret = ryaml_enums(y, n)) < 0)
		return ret;
	if (!events)
		return ryaml_error(y, root, "no 'events:': a rule file needs a list of events");
	ret = ryaml_events(y, events);
	if (ret < 0)
		return ret;
	if (!y->r->n)
		return ryaml_error(y, events, "no rules: 'events:' is empty");
	return 0;
}

static int ryaml_load(struct ryaml *y)
{
	yaml_parser_t p;
	int ret;

	ret = ryaml_parser_init(y, &p);
	if (ret < 0)
		return ret;
	if (!yaml_parser_load(&p, &y->doc))
		ret = ryaml_parser_error(y, &p);
	else
		y->have_doc = true;
	yaml_parser_delete(&p);
	return ret;
}

int rules_parse_yaml(const char *name, const char *buf, size_t len,
		     struct rules **out, struct diag *d)
{
	struct ryaml y = { .name = name, .buf = buf, .len = len, .d = d };
	int ret;

	*out = NULL;
	y.r = rules_create(name);
	if (!y.r || ryaml_index_lines(&y) < 0) {
		ret = ryaml_nomem(&y);
		goto end;
	}
	ret = ryaml_scan(&y);
	if (ret == 0)
		ret = ryaml_load(&y);
	if (ret == 0)
		ret = ryaml_root(&y);
	if (ret == 0) {
		*out = y.r;
		y.r = NULL;
	}
end:
	if (y.have_doc)
		yaml_document_delete(&y.doc);
	rules_destroy(y.r);
	free(y.lines);
	free(y.names);
	return ret;
}
