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
 * One pass over the text builds a compact tree (rules-yaml-doc.c), which
 * refuses what no rule file needs as it reads: aliases, nesting deeper
 * than the schema, more than one document, and whatever libyaml refuses.
 * This file then walks the tree against the schema, top-down; what an
 * event names (enums, args, u64, enum) is read in rules-yaml-names.c.
 *
 * Templates are compiled here: an error inside one points into the
 * scalar as written (quotes, '' and escapes accounted for).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "rules-yaml.h"
#include "rules-yaml-int.h"

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
static void ryaml_scalar_pos(const struct ryaml *y, const struct ryaml_node *n,
			     struct ryaml_pos *pos, bool *exact)
{
	yaml_scalar_style_t style = n->style;
	const char *v = ryaml_str(n);
	size_t len = n->len;

	*pos = ryaml_locate(y, n->start);
	*exact = false;
	if (style == YAML_LITERAL_SCALAR_STYLE || style == YAML_FOLDED_SCALAR_STYLE) {
		size_t line = n->start.line + 1, ll = 0, ind = 0;
		const char *t = NULL;

		while (len && v[len - 1] == '\n')
			len--;
		if (memchr(v, '\n', len))
			return;
		/* the first line with content after the indicator */
		for (; line < y->nlines && line <= n->end_line; line++) {
			ryaml_line(y, line, &t, &ll);
			for (ind = 0; ind < ll && t[ind] == ' '; ind++)
				;
			if (ind < ll)
				break;
		}
		if (line > n->end_line || line >= y->nlines ||
		    ll - ind < len || memcmp(t + ind, v, len))
			return;
		pos->line = (unsigned)line + 1;
		pos->col = (unsigned)ind + 1;
		pos->text = t;
		pos->text_len = ll;
		*exact = true;
		return;
	}
	if (n->start.line != n->end_line)
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

static unsigned ryaml_value_col_at(const struct ryaml_node *n,
				   const struct ryaml_pos *pos, size_t off,
				   struct ryaml_cursor *c)
{
	yaml_scalar_style_t style = n->style;
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

static unsigned ryaml_value_col(const struct ryaml_node *n,
				const struct ryaml_pos *pos, size_t off)
{
	struct ryaml_cursor c = { pos->col - 1, 0 };

	return ryaml_value_col_at(n, pos, off, &c);
}

static int ryaml_format(struct ryaml *y, struct rule *rule, const struct ryaml_node *n)
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
	ret = tmpl_compile(ryaml_str(n), n->len, &rule->tmpl,
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
	rule->line_text = pos.text;
	rule->line_len = pos.text_len;
	/*
	 * Later messages (an unknown key, a type error) point at columns of
	 * the template's value; in a quoted scalar, quotes and escapes make
	 * them columns of the line only through ryaml_value_col().
	 */
	if (exact && n->style != YAML_PLAIN_SCALAR_STYLE) {
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
static int ryaml_skip(struct ryaml *y, struct rule *rule, const struct ryaml_node *n)
{
	struct ryaml_pos pos = ryaml_locate(y, n->start);

	rule->line = pos.line;
	rule->col = pos.col;
	rule->line_text = pos.text;
	rule->line_len = pos.text_len;
	return 0;
}

/* ------------------------------------------------------------------ events */

static const char *const ryaml_event_keys[] = {
	"match", "name", "args", "u64", "enum", "format", "skip", NULL,
};

/* Room for the aliases args:, u64: and enum: will give rule, at once. */
static int ryaml_alias_room(struct ryaml *y, struct rule *rule,
			    const struct ryaml_node *ev)
{
	static const char *const keys[] = { "args", "u64", "enum" };
	size_t i, n = 0;

	for (i = 0; i < 3; i++) {
		const struct ryaml_node *v = ryaml_get(y, ev, keys[i]);

		if (v && v->type != YAML_SCALAR_NODE)
			n += v->n;
	}
	if (!n)
		return 0;
	rule->aliases = malloc(n * sizeof(*rule->aliases));
	if (!rule->aliases)
		return ryaml_nomem(y);
	y->capaliases = n;
	return 0;
}

static int ryaml_event(struct ryaml *y, const struct ryaml_node *ev)
{
	const struct ryaml_node *match, *n;
	struct rule rule = { 0 };
	const char *why = NULL;
	bool skip = false;
	size_t i;
	int ret;

	/* each rule is made here, at one address: its names start over */
	y->names_rule = NULL;
	y->capaliases = 0;
	if (ev->type != YAML_MAPPING_NODE)
		return ryaml_error(y, ev, "events: expected an event (a mapping with match: and format:), found %s",
				   ryaml_kind_name[ryaml_kind(ev)]);
	ret = ryaml_check_keys(y, ev, "event");
	if (ret < 0)
		return ret;
	for (i = 0; i < ev->n; i++) {
		const struct ryaml_node *k = ryaml_key(y, ev, i);

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
	if (!match->len)
		return ryaml_error(y, match, "match: empty");
	ret = rules_parse_id(ryaml_str(match), match->len, &rule, &why);
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
	ret = ryaml_alias_room(y, &rule, ev);
	if (ret < 0)
		goto error;
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
	const struct ryaml_node *match;	/* borrowed from the document */
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

static int ryaml_check_matches(struct ryaml *y, const struct ryaml_node *events)
{
	struct ryaml_seen *s;
	size_t i, n = y->r->n;
	int ret = 0;

	s = calloc(n ? n : 1, sizeof(*s));
	if (!s)
		return ryaml_nomem(y);
	for (i = 0; i < n; i++) {
		s[i].rule = &y->r->v[i];
		s[i].match = ryaml_get(y, ryaml_item(y, events, i), "match");
		s[i].order = i;
	}
	if (n)
		qsort(s, n, sizeof(*s), ryaml_seen_cmp);
	for (i = 1; i < n; i++) {
		if (!ryaml_same(s[i - 1].rule, s[i].rule))
			continue;
		ret = ryaml_error(y, s[i].match, "match: '%s' again: the event at line %u matches it already",
				  s[i].rule->pattern,
				  (unsigned)s[i - 1].match->start.line + 1);
		break;
	}
	free(s);
	return ret;
}

static int ryaml_events(struct ryaml *y, const struct ryaml_node *seq)
{
	size_t i;
	int ret;

	if (seq->type != YAML_SEQUENCE_NODE)
		return ryaml_error(y, seq, "events: expected a list of events ('- match: ...'), found %s",
				   ryaml_kind_name[ryaml_kind(seq)]);
	for (i = 0; i < seq->n; i++) {
		ret = ryaml_event(y, ryaml_item(y, seq, i));
		if (ret < 0)
			return ret;
	}
	return ryaml_check_matches(y, seq);
}

static int ryaml_root(struct ryaml *y)
{
	const struct ryaml_node *root = ryaml_root_node(y);
	const struct ryaml_node *n, *events = NULL;
	size_t i;
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
	for (i = 0; i < root->n; i++) {
		const struct ryaml_node *k = ryaml_key(y, root, i);

		if (ryaml_is(k, "events"))
			events = ryaml_value(y, root, i);
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

int rules_parse_yaml(const char *name, const char *buf, size_t len,
		     struct rules **out, struct diag *d)
{
	struct ryaml y = { .name = name, .buf = buf, .len = len, .d = d };
	int ret;

	*out = NULL;
	/*
	 * a UTF-8 byte order mark (some editors write one) is no text: the
	 * encoding is set to UTF-8, which turns off libyaml's own skipping
	 */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) {
		y.buf += 3;
		y.len -= 3;
	}
	y.r = rules_create(name);
	if (!y.r) {
		ret = ryaml_nomem(&y);
		goto end;
	}
	ret = ryaml_build(&y);
	if (ret == 0)
		ret = ryaml_root(&y);
	if (ret == 0) {
		*out = y.r;
		y.r = NULL;
	}
end:
	ryaml_free_doc(&y);
	rules_destroy(y.r);
	free(y.names);
	return ret;
}
