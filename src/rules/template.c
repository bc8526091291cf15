// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "template.h"

struct tmpl_builder {
	struct tmpl *t;
	size_t cap_ops;
	size_t cap_keys;
	/* the keys seen: a hash set of indices + 1 (0: free), so that a
	 * template of n distinct keys compiles in linear time */
	uint32_t *set;	/* owned */
	size_t cap_set;	/* a power of two, or 0 */
};

static size_t tmpl_hash(const char *s, size_t len)
{
	size_t h = 5381, i;

	for (i = 0; i < len; i++)
		h = h * 33 + (unsigned char)s[i];
	return h;
}

/* The slot of key in the set: its index + 1 there, or a free slot. */
static size_t tmpl_set_slot(const struct tmpl_builder *b, const char *key,
			    size_t len)
{
	size_t m = b->cap_set - 1, i = tmpl_hash(key, len) & m;

	for (;; i = (i + 1) & m) {
		const char *k;

		if (!b->set[i])
			return i;
		k = b->t->keys[b->set[i] - 1];
		if (strlen(k) == len && !memcmp(k, key, len))
			return i;
	}
}

/* Room for one more key in the set (kept at most half full). */
static int tmpl_set_grow(struct tmpl_builder *b)
{
	size_t cap, i;
	uint32_t *old = b->set;

	if ((b->t->nkeys + 1) * 2 <= b->cap_set)
		return 0;
	cap = b->cap_set ? 2 * b->cap_set : 16;
	b->set = calloc(cap, sizeof(*b->set));
	if (!b->set) {
		b->set = old;
		return -ENOMEM;
	}
	b->cap_set = cap;
	for (i = 0; i < b->t->nkeys; i++) {
		const char *k = b->t->keys[i];

		b->set[tmpl_set_slot(b, k, strlen(k))] = (uint32_t)i + 1;
	}
	free(old);
	return 0;
}

static int tmpl_push_op(struct tmpl_builder *b, const struct tmpl_op *op)
{
	struct tmpl *t = b->t;

	if (t->nops == b->cap_ops) {
		size_t cap = b->cap_ops ? b->cap_ops * 2 : 8;
		struct tmpl_op *n = realloc(t->ops, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		t->ops = n;
		b->cap_ops = cap;
	}
	t->ops[t->nops++] = *op;
	return 0;
}

static int tmpl_key_index(struct tmpl_builder *b, const char *key, size_t len,
			  uint32_t col)
{
	struct tmpl *t = b->t;
	size_t slot;

	if (tmpl_set_grow(b) < 0)
		return -ENOMEM;
	slot = tmpl_set_slot(b, key, len);
	if (b->set[slot])
		return (int)b->set[slot] - 1;
	if (t->nkeys == b->cap_keys) {
		size_t cap = b->cap_keys ? b->cap_keys * 2 : 8;
		char **nk = realloc(t->keys, cap * sizeof(*nk));
		uint32_t *nc;

		if (!nk)
			return -ENOMEM;
		t->keys = nk;
		nc = realloc(t->key_col, cap * sizeof(*nc));
		if (!nc)
			return -ENOMEM;
		t->key_col = nc;
		b->cap_keys = cap;
	}
	t->keys[t->nkeys] = strndup(key, len);
	if (!t->keys[t->nkeys])
		return -ENOMEM;
	t->key_col[t->nkeys] = col;
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
	return tmpl_push_op(b, &op);
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
	return tmpl_push_op(b, &op);
}

int tmpl_compile(const char *text, size_t len, struct tmpl **out,
		 unsigned *err_col, const char **err_msg)
{
	struct tmpl_builder b = { 0 };
	size_t pos = 0, lit = 0, i;
	int ret = -ENOMEM;

	*out = NULL;
	*err_col = 0;
	*err_msg = "out of memory";
	b.t = calloc(1, sizeof(*b.t));
	if (!b.t)
		goto error;
	/* zero slack after the text: the renderer copies in 16-byte chunks */
	b.t->text = calloc(1, len + TMPL_SLACK);
	if (!b.t->text)
		goto error;
	memcpy(b.t->text, text, len);
	b.t->len = len;
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
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nkeys; i++)
		free(t->keys[i]);
	free(t->keys);
	free(t->key_col);
	free(t->ops);
	free(t->text);
	free(t);
}
