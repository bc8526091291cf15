// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The document of a YAML rule file (rules-yaml-int.h): libyaml's event
 * stream, walked once into a compact tree, with what the schema needs to
 * read it: positions in bytes for messages, the kind of a scalar, and
 * mappings whose keys are distinct.
 *
 * libyaml counts columns in characters; messages count bytes, so marks go
 * through ryaml_locate(). The tree is one array of nodes, one of child
 * indices and blocks of the scalars' text: a 10 MB file costs a few
 * allocations, not one per node (libyaml's own document did).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "diag.h"
#include "rules-yaml-int.h"

_Static_assert(RULES_FILE_MAX < (1u << 27), "a line number fits ryaml_node.end_line");

static struct ryaml_mark ryaml_mark_of(yaml_mark_t m)
{
	struct ryaml_mark r = { (uint32_t)m.line, (uint32_t)m.column };

	return r;
}

/*
 * The tree's arrays, some 60 MB for a 10 MB file, in anonymous memory the
 * kernel may back with huge pages: touched 4 KiB at a time they cost a
 * page fault each and fill the TLB, which took half of the load time
 * on a nested VM. ryaml_map(NULL, 0, size) maps, ryaml_map(p, old, size)
 * grows (mremap: no copy), ryaml_unmap(p, size) unmaps; NULL: no memory.
 */
static void *ryaml_map(void *old, size_t oldsize, size_t size)
{
	void *p = old ? mremap(old, oldsize, size, MREMAP_MAYMOVE)
		      : mmap(NULL, size, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	/* advice: without it (or without THP) the pages are small */
	(void)madvise(p, size, MADV_HUGEPAGE);
#endif
	return p;
}

static void ryaml_unmap(void *p, size_t size)
{
	if (p)
		munmap(p, size);
}

/*
 * Room for need elements of size bytes in the mapped array that pv
 * points to (capacity *cap), doubling: 0 or -ENOMEM.
 */
static int ryaml_grow(void *pv, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 4096 / size;
	void *v, *n;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	memcpy(&v, pv, sizeof(v));
	n = ryaml_map(v, *cap * size, c * size);
	if (!n)
		return -ENOMEM;
	memcpy(pv, &n, sizeof(n));
	*cap = c;
	return 0;
}

/* Room for need bytes of scalar text: a new block when the last is full. */
static char *ryaml_text_room(struct ryaml *y, size_t need)
{
	struct ryaml_chunk *c = y->strs;
	size_t size;

	if (c && c->size - y->nstrs >= need)
		return c->data + y->nstrs;
	/* the first block holds the text of any file but a contrived one */
	size = c ? 2 * c->size : y->len + 64;
	if (size < need)
		size = need;
	c = ryaml_map(NULL, 0, sizeof(*c) + size);
	if (!c)
		return NULL;
	c->next = y->strs;
	c->size = size;
	y->strs = c;
	y->nstrs = 0;
	return c->data;
}

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
		unsigned char c = (unsigned char)y->buf[i];
		size_t b;

		/* only these bytes start a line break */
		if (c != '\n' && c != '\r' && c != 0xc2 && c != 0xe2) {
			i++;
			continue;
		}
		b = ryaml_break(y->buf + i, y->len - i);
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
void ryaml_line(const struct ryaml *y, size_t line, const char **text,
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

/* A mark (column in characters) as bytes. */
struct ryaml_pos ryaml_locate(const struct ryaml *y, struct ryaml_mark m)
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

static int ryaml_verror_pos(struct ryaml *y, struct ryaml_pos p,
			    const char *fmt, va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	diag_at(y->d, y->name, p.line, p.col, p.text, p.text_len, "%s", msg);
	return -EINVAL;
}

int ryaml_error_pos(struct ryaml *y, struct ryaml_pos p,
			   const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = ryaml_verror_pos(y, p, fmt, ap);
	va_end(ap);
	return ret;
}

/* An error at node n (its first character). Returns -EINVAL. */
int ryaml_error(struct ryaml *y, const struct ryaml_node *n,
		       const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = ryaml_verror_pos(y, ryaml_locate(y, n->start), fmt, ap);
	va_end(ap);
	return ret;
}

int ryaml_nomem(struct ryaml *y)
{
	diag_set(y->d, "%s: out of memory", y->name);
	return -ENOMEM;
}

/* ---------------------------------------------------------- the stream */

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
	pos = ryaml_locate(y, ryaml_mark_of(p->problem_mark));
	off = pos.col - 1;
	if (p->context && (strstr(p->context, "alias") ||
			   strstr(p->context, "anchor"))) {
		/* "match: *" reads as an alias: point at the '*' */
		pos = ryaml_locate(y, ryaml_mark_of(p->context_mark));
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

/* A new node of the type of ev; its index in *at. */
static int ryaml_new_node(struct ryaml *y, const yaml_event_t *ev,
			  yaml_node_type_t type, uint32_t *at)
{
	struct ryaml_node *n;

	if (ryaml_grow(&y->nodes, &y->capnodes, y->nnodes + 1, sizeof(*n)) < 0)
		return -ENOMEM;
	n = &y->nodes[y->nnodes];
	memset(n, 0, sizeof(*n));
	n->type = (unsigned)type & 3;
	n->start = ryaml_mark_of(ev->start_mark);
	n->end_line = (uint32_t)ev->end_mark.line;
	if (type == YAML_SCALAR_NODE) {
		size_t len = ev->data.scalar.length;
		char *v = ryaml_text_room(y, len + 1);

		if (!v)
			return -ENOMEM;
		if (len)
			memcpy(v, ev->data.scalar.value, len);
		v[len] = '\0';
		y->nstrs += len + 1;
		n->value = v;
		n->len = (uint32_t)len;
		n->style = (unsigned)ev->data.scalar.style & 7;
	}
	*at = (uint32_t)y->nnodes++;
	return 0;
}

/* A container open while its children are read. */
struct ryaml_open {
	uint32_t node;
	size_t base;	/* its first child in the pending list */
};

/*
 * One walk of libyaml's event stream into the tree. Aliases, nesting
 * deeper than the schema and a second document are refused as they come,
 * so that nothing bigger than the text is ever built.
 */
static int ryaml_walk(struct ryaml *y, yaml_parser_t *p)
{
	struct ryaml_open open[RYAML_DEPTH_MAX];
	uint32_t *pend = NULL;	/* children of the open containers */
	size_t npend = 0, cappend = 0, kids;
	unsigned depth = 0, docs = 0;
	yaml_event_t ev;
	int ret = 0;

	for (;;) {
		yaml_event_type_t type;
		struct ryaml_node *n;
		uint32_t at;

		if (!yaml_parser_parse(p, &ev)) {
			ret = ryaml_parser_error(y, p);
			break;
		}
		type = ev.type;
		switch (type) {
		case YAML_ALIAS_EVENT:
			ret = ryaml_error_pos(y, ryaml_locate(y, ryaml_mark_of(ev.start_mark)),
					      "aliases (*name) are not allowed in rule files; write the value out");
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1)
				ret = ryaml_error_pos(y, ryaml_locate(y, ryaml_mark_of(ev.start_mark)),
						      "a second YAML document: a rule file holds one");
			break;
		case YAML_SCALAR_EVENT:
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (type != YAML_SCALAR_EVENT && depth == RYAML_DEPTH_MAX) {
				ret = ryaml_error_pos(y, ryaml_locate(y, ryaml_mark_of(ev.start_mark)),
						      "nested deeper than a rule file can be (%u levels)",
						      RYAML_DEPTH_MAX);
				break;
			}
			ret = ryaml_new_node(y, &ev,
					     type == YAML_SCALAR_EVENT ? YAML_SCALAR_NODE :
					     type == YAML_SEQUENCE_START_EVENT ?
					     YAML_SEQUENCE_NODE : YAML_MAPPING_NODE, &at);
			if (ret == 0 && depth)
				ret = ryaml_grow(&pend, &cappend, npend + 1,
						 sizeof(*pend));
			if (ret < 0) {
				ret = ryaml_nomem(y);
				break;
			}
			if (depth)
				pend[npend++] = at;
			if (type != YAML_SCALAR_EVENT) {
				open[depth].node = at;
				open[depth].base = npend;
				depth++;
			}
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			kids = npend - open[depth].base;
			n = &y->nodes[open[depth].node];
			n->end_line = (uint32_t)ev.end_mark.line;
			n->first = (uint32_t)y->nkids;
			n->n = (uint32_t)(n->type == YAML_MAPPING_NODE ? kids / 2
								 : kids);
			if (!kids)
				break;
			if (ryaml_grow(&y->kids, &y->capkids, y->nkids + kids,
				       sizeof(*y->kids)) < 0) {
				ret = ryaml_nomem(y);
				break;
			}
			memcpy(y->kids + y->nkids, pend + open[depth].base,
			       kids * sizeof(*pend));
			y->nkids += kids;
			npend = open[depth].base;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
		if (ret < 0 || type == YAML_STREAM_END_EVENT)
			break;
	}
	ryaml_unmap(pend, cappend * sizeof(*pend));
	return ret;
}

int ryaml_build(struct ryaml *y)
{
	yaml_parser_t p;
	int ret;

	if (ryaml_index_lines(y) < 0)
		return ryaml_nomem(y);
	/*
	 * Room for the nodes of a dense file at once (a node takes 5 bytes
	 * of text or more, "a: 1\n" two): pages not written are never
	 * touched.
	 */
	if (ryaml_grow(&y->nodes, &y->capnodes, y->len / 5 + 64,
		       sizeof(*y->nodes)) < 0)
		return ryaml_nomem(y);
	ret = ryaml_parser_init(y, &p);
	if (ret < 0)
		return ret;
	ret = ryaml_walk(y, &p);
	yaml_parser_delete(&p);
	return ret;
}

void ryaml_free_doc(struct ryaml *y)
{
	struct ryaml_chunk *c, *next;

	free(y->lines);
	ryaml_unmap(y->nodes, y->capnodes * sizeof(*y->nodes));
	ryaml_unmap(y->kids, y->capkids * sizeof(*y->kids));
	for (c = y->strs; c; c = next) {
		next = c->next;
		ryaml_unmap(c, sizeof(*c) + c->size);
	}
}

/* ------------------------------------------------------------ the tree */

const struct ryaml_node *ryaml_root_node(const struct ryaml *y)
{
	return y->nnodes ? &y->nodes[0] : NULL;
}

const struct ryaml_node *ryaml_item(const struct ryaml *y,
				    const struct ryaml_node *seq, size_t i)
{
	return &y->nodes[y->kids[seq->first + i]];
}

const struct ryaml_node *ryaml_key(const struct ryaml *y,
				   const struct ryaml_node *map, size_t i)
{
	return &y->nodes[y->kids[map->first + 2 * i]];
}

const struct ryaml_node *ryaml_value(const struct ryaml *y,
				     const struct ryaml_node *map, size_t i)
{
	return &y->nodes[y->kids[map->first + 2 * i + 1]];
}

const struct ryaml_node *ryaml_get(const struct ryaml *y,
				   const struct ryaml_node *map,
				   const char *key)
{
	size_t i;

	if (map->type != YAML_MAPPING_NODE)
		return NULL;
	for (i = 0; i < map->n; i++)
		if (ryaml_is(ryaml_key(y, map, i), key))
			return ryaml_value(y, map, i);
	return NULL;
}


const char *const ryaml_kind_name[] = {
	[RYAML_STR] = "a string",
	[RYAML_NULL] = "nothing",
	[RYAML_BOOL] = "a boolean",
	[RYAML_INT] = "an integer",
	[RYAML_FLOAT] = "a number",
	[RYAML_LIST] = "a list",
	[RYAML_MAP] = "a mapping",
};

bool ryaml_is(const struct ryaml_node *n, const char *s)
{
	return n->type == YAML_SCALAR_NODE && n->len == strlen(s) &&
	       !memcmp(n->value, s, n->len);
}

bool ryaml_is_any(const struct ryaml_node *n, const char *const *v)
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
enum ryaml_kind ryaml_kind(const struct ryaml_node *n)
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
	if (n->style != YAML_PLAIN_SCALAR_STYLE)
		return RYAML_STR;
	/* most scalars are names: no null, boolean or number starts so */
	if (n->len && !strchr("~nNtTfF0123456789+-.", n->value[0]))
		return RYAML_STR;
	if (ryaml_is_any(n, nulls))
		return RYAML_NULL;
	if (ryaml_is_any(n, bools))
		return RYAML_BOOL;
	s = n->value;
	len = n->len;
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

int ryaml_expect(struct ryaml *y, const struct ryaml_node *n,
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

/* A non-negative integer scalar. */
int ryaml_uint(struct ryaml *y, const struct ryaml_node *n, const char *what,
		      uint64_t *out)
{
	int ret = ryaml_expect(y, n, RYAML_INT, what);

	if (ret < 0)
		return ret;
	ret = rules_parse_int(ryaml_str(n), n->len, out);
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
	const struct ryaml_node *k;	/* borrowed */
	size_t at;		/* its place in the mapping */
};

static int ryaml_key_cmp(const void *a, const void *b)
{
	const struct ryaml_key *x = a, *y = b;
	size_t lx = x->k->len, ly = y->k->len;
	int c;

	if (lx != ly)
		return lx < ly ? -1 : 1;
	c = memcmp(x->k->value, y->k->value, lx);
	if (c)
		return c;
	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * Every key a scalar, none twice: sorted, so that a mapping of n keys
 * costs n log n. The duplicate reported is the first in file order that
 * repeats an earlier key, with the line of that key's first use.
 */
int ryaml_check_keys(struct ryaml *y, const struct ryaml_node *map,
			    const char *what)
{
	const struct ryaml_key *dup = NULL, *first = NULL;
	size_t n = map->n, i, g;
	struct ryaml_key *keys;

	for (i = 0; i < n; i++) {
		const struct ryaml_node *k = ryaml_key(y, map, i);

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
		keys[i].k = ryaml_key(y, map, i);
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
		const struct ryaml_node *k = dup->k, *e = first->k;

		free(keys);
		return ryaml_error(y, k, "%s: duplicate key '%s' (first at line %u)",
				   what, ryaml_str(k),
				   (unsigned)e->start.line + 1);
	}
	free(keys);
	return 0;
}

/*
 * n must be a mapping of distinct keys; what (the key it is the value
 * of) and shape (what it maps, for the message) say so when it is not.
 */

int ryaml_each_pair(struct ryaml *y, const struct ryaml_node *n,
		    const char *what, const char *shape,
		    int (*fn)(struct ryaml *y, const struct ryaml_node *k,
			      const struct ryaml_node *v, void *arg),
		    void *arg)
{
	size_t i;
	int ret;

	if (n->type != YAML_MAPPING_NODE)
		return ryaml_error(y, n, "%s: expected a mapping of %s, found %s",
				   what, shape, ryaml_kind_name[ryaml_kind(n)]);
	ret = ryaml_check_keys(y, n, what);
	for (i = 0; ret == 0 && i < n->n; i++)
		ret = fn(y, ryaml_key(y, n, i), ryaml_value(y, n, i), arg);
	return ret;
}
