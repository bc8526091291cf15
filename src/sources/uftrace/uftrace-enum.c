// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uftrace: enum definitions ("enum NAME { A, B = 5, };" of the info file's
 * enumauto line and the "E:" lines of NAME.dbg) and the names of "e:NAME"
 * values, as uftrace writes them (utils/auto-args.c: parse_enum_string(),
 * convert_enum_val(), get_enum_string()).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uftrace-int.h"

enum uft_etok {
	UFT_ETOK_INVALID = -1,
	UFT_ETOK_NULL,
	UFT_ETOK_STR,
	UFT_ETOK_SIGN,
	UFT_ETOK_NUM,
};

#define UFT_ETOK_MAX 256

/* The next token at *s, as uftrace's enum_next_token() cuts it. */
static enum uft_etok uft_etok(const char **s, char tok[UFT_ETOK_MAX])
{
	const char *p = *s, *end;
	enum uft_etok ret;
	size_t len;

	if (!p)
		return UFT_ETOK_NULL;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return UFT_ETOK_NULL;
	if (ispunct((unsigned char)*p) && *p != '_') {
		tok[0] = *p;
		tok[1] = '\0';
		*s = p + 1;
		return UFT_ETOK_SIGN;
	}
	if (isalpha((unsigned char)*p) || *p == '_')
		ret = UFT_ETOK_STR;
	else if (isdigit((unsigned char)*p))
		ret = UFT_ETOK_NUM;
	else
		return UFT_ETOK_INVALID;
	end = strpbrk(p, " \n\t=,{}");
	len = end ? (size_t)(end - p) : strlen(p);
	if (len >= UFT_ETOK_MAX)
		len = UFT_ETOK_MAX - 1;
	memcpy(tok, p, len);
	tok[len] = '\0';
	*s = end;
	return ret;
}

static void uft_enum_free(struct uft_enum *e)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		free(e->v[i].name);
	free(e->v);
	free(e->name);
}

void uft_enums_free(struct uft_enums *es)
{
	size_t i;

	for (i = 0; i < es->n; i++) {
		uft_enum_free(es->v[i]);
		free(es->v[i]);
	}
	free(es->v);
	free(es->hash.v);
	memset(es, 0, sizeof(*es));
}

static const char *uft_enum_key(const void *val)
{
	return ((const struct uft_enum *)val)->name;
}

static const struct uft_enum *uft_enum_find(const struct uft_enums *es,
					    const char *name)
{
	return uft_hash_find(&es->hash, name, strlen(name), uft_enum_key);
}

/* Add NAME = val to e, in the order of the definition. */
static int uft_enum_add(struct uft_enum *e, const char *name, long val,
			size_t *cap)
{
	struct uft_enumval *n;

	if (e->n == *cap) {
		size_t c = *cap ? 2 * *cap : 8;

		n = realloc(e->v, c * sizeof(*n));
		if (!n)
			return -ENOMEM;
		e->v = n;
		*cap = c;
	}
	e->v[e->n].val = val;
	e->v[e->n].name = strdup(name);
	if (!e->v[e->n].name)
		return -ENOMEM;
	e->v[e->n].order = e->n;
	e->n++;
	return 0;
}

/* uftrace's list order: by value, highest first, a later name first. */
static int uft_enumval_cmp(const void *a, const void *b)
{
	const struct uft_enumval *x = a, *y = b;

	if (x->val != y->val)
		return x->val > y->val ? -1 : 1;
	return x->order > y->order ? -1 : x->order < y->order;
}

/*
 * One "enum NAME { A, B = 5, }" of a ';'-separated list; a definition of
 * a name seen before is ignored (uftrace's add_enum_tree()). Returns 0,
 * -ENOMEM, or -EINVAL at the first malformed definition (uftrace stops
 * there too, keeping those before it).
 */
static int uft_enum_parse_one(struct uft_enums *es, const char *s)
{
	char tok[UFT_ETOK_MAX], name[UFT_ETOK_MAX];
	struct uft_enum e = { 0 }, *n;
	enum uft_etok t;
	size_t cap = 0;
	long val = 0;
	int ret = -EINVAL;

	t = uft_etok(&s, tok);
	if (t == UFT_ETOK_NULL)
		return 0;
	if (t != UFT_ETOK_STR || strcmp(tok, "enum"))
		return -EINVAL;
	if (uft_etok(&s, tok) != UFT_ETOK_STR)
		return -EINVAL;
	e.name = strdup(tok);
	if (!e.name)
		return -ENOMEM;
	if (uft_etok(&s, tok) != UFT_ETOK_SIGN || strcmp(tok, "{"))
		goto end;
	t = uft_etok(&s, tok);
	while (t != UFT_ETOK_NULL && strcmp(tok, "}")) {
		memcpy(name, tok, sizeof(name));
		if (uft_etok(&s, tok) != UFT_ETOK_SIGN)
			goto end;
		if (!strcmp(tok, "=")) {
			char *end;

			while (isspace((unsigned char)*s))
				s++;
			val = strtol(s, &end, 0);
			s = end;
			if (uft_etok(&s, tok) != UFT_ETOK_SIGN)
				goto end;
		}
		ret = uft_enum_add(&e, name, val, &cap);
		if (ret)
			goto end;
		ret = -EINVAL;
		/* after LONG_MAX comes LONG_MIN, as in uftrace's build; no UB */
		val = (long)((unsigned long)val + 1);
		if (!strcmp(tok, ","))
			t = uft_etok(&s, tok);
	}
	if (strcmp(tok, "}"))
		goto end;
	ret = 0;
	if (uft_enum_find(es, e.name))
		goto end;
	if (e.n)	/* "enum x {}" has no values: no qsort(NULL) */
		qsort(e.v, e.n, sizeof(*e.v), uft_enumval_cmp);
	ret = -ENOMEM;
	if (uft_grow(&es->v, es->n, sizeof(*es->v)))
		goto end;
	n = malloc(sizeof(*n));
	if (!n)
		goto end;
	*n = e;
	if (uft_hash_add(&es->hash, n, uft_enum_key)) {
		free(n);
		goto end;
	}
	es->v[es->n++] = n;
	return 0;
end:
	uft_enum_free(&e);
	return ret;
}

int uft_enums_parse(struct uft_enums *es, const char *s)
{
	char *copy, *p, *semi;
	int ret = 0;

	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	for (p = copy; p && !ret; p = semi) {
		semi = strchr(p, ';');
		if (semi)
			*semi++ = '\0';
		ret = uft_enum_parse_one(es, p);
	}
	free(copy);
	return ret;
}

/* vsnprintf() at buf + *len, which may have passed size: counts on. */
static void uft_eadd(char *buf, size_t size, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void uft_eadd(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	if (*len < size)
		n = vsnprintf(buf + *len, size - *len, fmt, ap);
	else
		n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += (size_t)n;
}

/*
 * The text of value val of enum name into buf (size bytes, cut if need
 * be): the module's definition, else the recording's enumauto one
 * (get_enum_string()); an exact name, else names OR-ed from the highest
 * value down with "+0x…" for what is left, else the number
 * (convert_enum_val()). Returns the length it wanted.
 */
size_t uft_enum_text(const struct uftrace *uf, const struct uft_symtab *mod,
		     const char *name, int val, char *buf, size_t size)
{
	const struct uft_enum *e = mod ? uft_enum_find(&mod->enums, name) : NULL;
	size_t i, len = 0;

	if (!e)
		e = uft_enum_find(&uf->enums, name);
	if (!e) {
		uft_eadd(buf, size, &len, "%d", val);
		return len;
	}
	for (i = 0; i < e->n; i++)
		if (e->v[i].val == val) {
			uft_eadd(buf, size, &len, "%s", e->v[i].name);
			return len;
		}
	for (i = 0; i < e->n; i++) {
		if (e->v[i].val <= val) {
			/* int arithmetic, as uftrace's */
			val = (int)((long)val - e->v[i].val);
			uft_eadd(buf, size, &len, "%s%s", len ? "|" : "",
				 e->v[i].name);
		}
		if (val == 0)
			break;
	}
	if (len && val)
		uft_eadd(buf, size, &len, "+%#x", val);
	else if (!len && labs(val) > 100000)
		uft_eadd(buf, size, &len, "%#x", val);
	else if (!len)
		uft_eadd(buf, size, &len, "%d", val);
	return len;
}
