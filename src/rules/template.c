// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "template.h"

/*
 * A template is one block: struct tmpl, then its keys, operations and key
 * columns, the text and the keys' characters. Its size is known before
 * the scan: a template with p percent signs has at most p keys and
 * 2p + 1 operations, and its keys' characters (each NUL-terminated) fit
 * in its length. Rule files hold thousands of templates; one allocation
 * each keeps loading them cheap.
 */
struct tmpl_builder {
	struct tmpl *t;
	char *keybuf;		/* the next key's characters go here */
	/* the keys seen, for templates of more than TMPL_LINEAR_KEYS: a
	 * hash set of indices + 1 (0: free), at most half full, so that a
	 * template of n distinct keys compiles in linear time */
	uint32_t *set;		/* owned */
	size_t cap_set;		/* a power of two, or 0: a linear search */
};

/* Templates with at most this many '%' look their keys up in a row. */
#define TMPL_LINEAR_KEYS 16

static size_t tmpl_hash(const char *s, size_t len)
{
	size_t h = 5381, i;

	for (i = 0; i < len; i++)
		h = h * 33 + (unsigned char)s[i];
	return h;
}

static bool tmpl_key_is(const char *k, const char *key, size_t len)
{
	return strlen(k) == len && !memcmp(k, key, len);
}

/* The index of key, or -1 (*slot: the free slot of the set for it). */
static long tmpl_key_find(const struct tmpl_builder *b, const char *key,
			  size_t len, size_t *slot)
{
	const struct tmpl *t = b->t;
	size_t m = b->cap_set - 1, i;

	if (!b->cap_set) {
		for (i = 0; i < t->nkeys; i++)
			if (tmpl_key_is(t->keys[i], key, len))
				return (long)i;
		return -1;
	}
	for (i = tmpl_hash(key, len) & m;; i = (i + 1) & m) {
		if (!b->set[i]) {
			*slot = i;
			return -1;
		}
		if (tmpl_key_is(t->keys[b->set[i] - 1], key, len))
			return (long)b->set[i] - 1;
	}
}

static void tmpl_push_op(struct tmpl_builder *b, const struct tmpl_op *op)
{
	b->t->ops[b->t->nops++] = *op;
}

static int tmpl_key_index(struct tmpl_builder *b, const char *key, size_t len,
			  uint32_t col)
{
	struct tmpl *t = b->t;
	size_t slot = 0;
	long at = tmpl_key_find(b, key, len, &slot);

	if (at >= 0)
		return (int)at;
	/* as strndup() would: up to a NUL in the key */
	len = strnlen(key, len);
	memcpy(b->keybuf, key, len);
	b->keybuf[len] = '\0';
	t->keys[t->nkeys] = b->keybuf;
	b->keybuf += len + 1;
	t->key_col[t->nkeys] = col;
	if (b->cap_set)
		b->set[slot] = (uint32_t)t->nkeys + 1;
	return (int)t->nkeys++;
}

static int tmpl_lit(struct tmpl_builder *b, size_t off, size_t len)
{
	struct tmpl_op op = { .kind = TMPL_LIT };
	struct tmpl_op *last;

	if (!len)
		return 0;
	last = b->t->nops ? &b->t->ops[b->t->nops - 1] : NULL;
	if (last && last->kind == TMPL_LIT && last->off + last->len == off) {
		last->len += (uint32_t)len;
		return 0;
	}
	op.off = (uint32_t)off;
	op.len = (uint32_t)len;
	tmpl_push_op(b, &op);
	return 0;
}

/*
 * Parse one conversion starting at text[*pos] == '%', as Python 3's
 * PyUnicode_Format does, with a mapping argument.
 */
/* Which conversions the renderer formats inline (enum tmpl_fast) */
static enum tmpl_fast tmpl_fast_kind(const struct pyfmt_spec *sp)
{
	bool plain = sp->prec < 0 && sp->width <= 64 &&
		     !(sp->flags & ~(unsigned)(PYFMT_ZERO | PYFMT_LEFT));
	/* '#' alone: "0x" then the digits */
	bool alt = sp->prec < 0 && sp->width <= 0 && sp->flags == PYFMT_ALT;
	bool bare = sp->prec < 0 && sp->width <= 0 && !sp->flags;

	switch (sp->conv) {
	case 'd':
	case 'i':
	case 'u':
		return plain ? TMPL_DEC : TMPL_SLOW;
	case 'x':
		return plain || alt ? TMPL_HEX : TMPL_SLOW;
	case 'X':
		return plain || alt ? TMPL_HEX_UP : TMPL_SLOW;
	case 's':
		return bare ? TMPL_STR : TMPL_SLOW;
	case 'f':
	case 'F':
		return sp->width <= 0 && !sp->flags && sp->prec <= 9 ?
			       TMPL_FLT : TMPL_SLOW;
	}
	return TMPL_SLOW;
}

static int tmpl_conv(struct tmpl_builder *b, const char *s, size_t len,
		     size_t *pos, unsigned *err_col, const char **err_msg)
{
	struct tmpl_op op = { .kind = TMPL_CONV };
	size_t start = *pos, i = *pos + 1, kbeg, kend;
	unsigned depth;
	int key;

	op.spec.width = -1;
	op.spec.prec = -1;
	op.col = (uint32_t)start + 1;
	if (i >= len) {
		*err_col = (unsigned)start + 1;
		*err_msg = "incomplete format: '%' at the end of the template";
		return -EINVAL;
	}
	if (s[i] == '%') {
		*pos = i + 1;
		return tmpl_lit(b, i, 1);
	}
	if (s[i] != '(') {
		*err_col = (unsigned)start + 1;
		*err_msg = "conversion without a key: write %(key)d; a literal percent sign is %%";
		return -EINVAL;
	}
	/* the key: up to the matching ')' */
	depth = 1;
	kbeg = ++i;
	while (i < len) {
		if (s[i] == '(')
			depth++;
		else if (s[i] == ')' && --depth == 0)
			break;
		i++;
	}
	if (i >= len) {
		*err_col = (unsigned)start + 1;
		*err_msg = "incomplete format key: '%(' without ')'";
		return -EINVAL;
	}
	kend = i++;
	/* flags */
	for (; i < len; i++) {
		switch (s[i]) {
		case '-':
			op.spec.flags |= PYFMT_LEFT;
			continue;
		case '+':
			op.spec.flags |= PYFMT_PLUS;
			continue;
		case ' ':
			op.spec.flags |= PYFMT_SPACE;
			continue;
		case '#':
			op.spec.flags |= PYFMT_ALT;
			continue;
		case '0':
			op.spec.flags |= PYFMT_ZERO;
			continue;
		}
		break;
	}
	if (i < len && s[i] == '*') {
		*err_col = (unsigned)i + 1;
		*err_msg = "'*' width needs a positional argument; write the width as digits";
		return -EINVAL;
	}
	if (i < len && s[i] >= '0' && s[i] <= '9') {
		long w = 0;

		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
			w = w * 10 + (s[i] - '0');
			if (w > PYFMT_MAX_WIDTH) {
				*err_col = (unsigned)i + 1;
				*err_msg = "width too big (the limit is 4096)";
				return -ERANGE;
			}
		}
		op.spec.width = (int)w;
	}
	if (i < len && s[i] == '.') {
		long p = 0;

		i++;
		if (i < len && s[i] == '*') {
			*err_col = (unsigned)i + 1;
			*err_msg = "'*' precision needs a positional argument; write the precision as digits";
			return -EINVAL;
		}
		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
			p = p * 10 + (s[i] - '0');
			if (p > PYFMT_MAX_PREC) {
				*err_col = (unsigned)i + 1;
				*err_msg = "precision too big (the limit is 4096)";
				return -ERANGE;
			}
		}
		op.spec.prec = (int)p;
	}
	/* Python ignores one length modifier */
	if (i < len && (s[i] == 'h' || s[i] == 'l' || s[i] == 'L'))
		i++;
	if (i >= len) {
		*err_col = (unsigned)start + 1;
		*err_msg = "incomplete format: the conversion character is missing";
		return -EINVAL;
	}
	switch (s[i]) {
	case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
	case 'e': case 'E': case 'f': case 'F': case 'g': case 'G':
	case 's': case 'r': case 'a': case 'c':
		op.spec.conv = s[i];
		break;
	default:
		*err_col = (unsigned)i + 1;
		*err_msg = "unsupported format character (use one of d i o u x X e E f F g G s r a c)";
		return -EINVAL;
	}
	op.fast = tmpl_fast_kind(&op.spec);
	key = tmpl_key_index(b, s + kbeg, kend - kbeg, (uint32_t)kbeg + 1);
	if (key < 0)
		return key;
	op.key = (uint32_t)key;
	*pos = i + 1;
	tmpl_push_op(b, &op);
	return 0;
}

/* Round n up to the alignment of type. */
#define TMPL_ALIGN(n, type) (((n) + _Alignof(type) - 1) & ~(_Alignof(type) - 1))

int tmpl_compile(const char *text, size_t len, struct tmpl **out,
		 unsigned *err_col, const char **err_msg)
{
	struct tmpl_builder b = { 0 };
	size_t pos = 0, lit = 0, npct = 0, i;
	size_t keys_at, ops_at, cols_at, text_at;
	const char *p = text;
	char *block;
	int ret = -ENOMEM;

	*out = NULL;
	*err_col = 0;
	*err_msg = "out of memory";
	while ((p = memchr(p, '%', len - (size_t)(p - text)))) {
		npct++;
		p++;
	}
	/* struct tmpl, keys, ops, key columns, text (+ slack), key bytes */
	keys_at = TMPL_ALIGN(sizeof(struct tmpl), char *);
	ops_at = TMPL_ALIGN(keys_at + npct * sizeof(char *), struct tmpl_op);
	cols_at = TMPL_ALIGN(ops_at + (2 * npct + 1) * sizeof(struct tmpl_op),
			     uint32_t);
	text_at = cols_at + npct * sizeof(uint32_t);
	block = malloc(text_at + len + TMPL_SLACK + len + 1);
	if (!block)
		goto error;
	b.t = (struct tmpl *)block;
	memset(b.t, 0, sizeof(*b.t));
	b.t->keys = (char **)(block + keys_at);
	b.t->ops = (struct tmpl_op *)(block + ops_at);
	b.t->key_col = (uint32_t *)(block + cols_at);
	/* zero slack after the text: the renderer copies in 16-byte chunks */
	b.t->text = block + text_at;
	memcpy(b.t->text, text, len);
	memset(b.t->text + len, 0, TMPL_SLACK);
	b.t->len = len;
	b.keybuf = b.t->text + len + TMPL_SLACK;
	if (npct > TMPL_LINEAR_KEYS) {
		for (b.cap_set = 16; b.cap_set < 2 * npct; b.cap_set *= 2)
			;
		b.set = calloc(b.cap_set, sizeof(*b.set));
		if (!b.set)
			goto error;
	}
	while (pos < len) {
		const char *pct = memchr(text + pos, '%', len - pos);

		if (!pct)
			break;
		pos = (size_t)(pct - text);
		ret = tmpl_lit(&b, lit, pos - lit);
		if (ret < 0)
			goto error;
		ret = tmpl_conv(&b, text, len, &pos, err_col, err_msg);
		if (ret < 0)
			goto error;
		lit = pos;
	}
	ret = tmpl_lit(&b, lit, len - lit);
	if (ret < 0)
		goto error;
	for (i = 0; i < b.t->nops; i++) {
		const struct tmpl_op *op = &b.t->ops[i];

		if (op->kind == TMPL_LIT) {
			b.t->bound += op->len;
			continue;
		}
		b.t->bound += pyfmt_bound(&op->spec, 0);
		if (op->spec.conv == 's' || op->spec.conv == 'r' ||
		    op->spec.conv == 'a' || op->spec.conv == 'c')
			b.t->has_str = true;
	}
	free(b.set);
	*out = b.t;
	return 0;
error:
	free(b.set);
	tmpl_destroy(b.t);
	return ret;
}

void tmpl_destroy(struct tmpl *t)
{
	/* one block (tmpl_compile) */
	free(t);
}
