// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libtraceevent's text of a sample without libtraceevent, for the print
 * fmts simple enough to say exactly what it prints: literal text, and
 * %d %i %u %x %X (flags - 0 #, a width, h hh l ll z) of a numeric field,
 * %s of a char array field or of __print_symbolic(REC->field, …) (a
 * value without a symbol prints as 0x%llx, as libtraceevent prints it). libtraceevent 1.7's pretty_print() reads
 * the field as an unsigned number of its size, casts it to the type the
 * length modifier names and hands the conversion to printf; so does this,
 * by hand; %zu and %zx as perf 6.1's own libtraceevent prints them (it
 * casts the value to int, printf reads 64 bits whose upper half is 0,
 * where Debian's libtraceevent 1.7 passes all 64). Anything else (a %p,
 * an expression, a backslash) goes to tep_print_event() as before: the fast path
 * may only ever print what libtraceevent would.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perf-int.h"

enum {
	PP_LIT = 0,	/* text */
	PP_INT,		/* a numeric field */
	PP_STR,		/* %s of a char array field */
	PP_SYM,		/* %s of __print_symbolic() of a numeric field */
};

struct perf_sym {
	uint64_t val;
	const char *str;	/* borrowed from tep */
	size_t len;
};

struct perf_pop {
	uint8_t kind;
	bool left;		/* '-' */
	bool zero;		/* '0' */
	bool alt;		/* '#' */
	bool zext;		/* 'z': an int cast, read back as size_t */
	char conv;		/* d i u x X s */
	int8_t ls;		/* -2 hh, -1 h, 0, 1 l, 2 ll */
	uint16_t width;
	const char *lit;	/* PP_LIT: borrowed from the format */
	size_t litlen;
	const struct tep_format_field *f;	/* borrowed from tep */
	struct perf_sym *syms;	/* owned: PP_SYM, sorted by value */
	size_t nsyms;
};

struct perf_pfmt {
	struct perf_pop *ops;	/* owned */
	size_t nops;
};

static int perf_sym_cmp(const void *a, const void *b)
{
	const struct perf_sym *x = a, *y = b;

	if (x->val != y->val)
		return x->val < y->val ? -1 : 1;
	/* the first of equal values wins, as in libtraceevent */
	return x->str < y->str ? -1 : x->str > y->str;
}

/* A numeric field of e named by a print arg. */
static const struct tep_format_field *perf_pp_field(struct tep_event *e,
						     const struct tep_print_arg *a,
						     bool numeric)
{
	const struct tep_format_field *f;

	if (!a || a->type != TEP_PRINT_FIELD || !a->field.name)
		return NULL;
	f = tep_find_any_field(e, a->field.name);
	if (!f || (f->flags & TEP_FIELD_IS_DYNAMIC))
		return NULL;
	if (numeric)
		return !(f->flags & TEP_FIELD_IS_ARRAY) &&
		       (f->size == 1 || f->size == 2 || f->size == 4 ||
			f->size == 8) ? f : NULL;
	return (f->flags & TEP_FIELD_IS_ARRAY) &&
	       (f->flags & TEP_FIELD_IS_STRING) && f->size > 0 ? f : NULL;
}

static int perf_pp_syms(struct perf_pop *op, const struct tep_print_arg *a)
{
	const struct tep_print_flag_sym *s;
	size_t n = 0, i, k;

	for (s = a->symbol.symbols; s; s = s->next)
		n++;
	op->syms = calloc(n ? n : 1, sizeof(*op->syms));
	if (!op->syms)
		return -ENOMEM;
	for (s = a->symbol.symbols; s; s = s->next) {
		char *end;

		if (!s->value || !s->str)
			return -EINVAL;
		op->syms[op->nsyms].val = strtoull(s->value, &end, 0);
		if (*end || end == s->value || s->value[0] == '-')
			return -EINVAL;
		op->syms[op->nsyms].str = s->str;
		op->syms[op->nsyms].len = strlen(s->str);
		op->nsyms++;
	}
	qsort(op->syms, op->nsyms, sizeof(*op->syms), perf_sym_cmp);
	/* keep the first of equal values */
	for (i = k = 0; i < op->nsyms; i++)
		if (!k || op->syms[k - 1].val != op->syms[i].val)
			op->syms[k++] = op->syms[i];
	op->nsyms = k;
	return 0;
}

static void perf_pfmt_free(struct perf_pfmt *pf)
{
	size_t i;

	if (!pf)
		return;
	for (i = 0; i < pf->nops; i++)
		free(pf->ops[i].syms);
	free(pf->ops);
	free(pf);
}

/* The fast form of e's print fmt, or NULL: libtraceevent prints it. */
static struct perf_pfmt *perf_pfmt_make(struct tep_event *e, int long_size)
{
	const struct tep_print_arg *a = e->print_fmt.args;
	const char *f = e->print_fmt.format, *lit;
	struct perf_pfmt *pf;
	size_t cap;

	if (!f || long_size != 8 || (e->flags & TEP_EVENT_FL_FAILED) ||
	    e->handler || strchr(f, '\\'))
		return NULL;
	pf = calloc(1, sizeof(*pf));
	cap = 2 * strlen(f) + 2;
	if (!pf || !(pf->ops = calloc(cap, sizeof(*pf->ops))))
		goto fail;
	lit = f;
	while (*f) {
		struct perf_pop *op;

		if (*f != '%') {
			f++;
			continue;
		}
		if (f > lit) {
			op = &pf->ops[pf->nops++];
			op->kind = PP_LIT;
			op->lit = lit;
			op->litlen = (size_t)(f - lit);
		}
		f++;
		if (*f == '%') {
			op = &pf->ops[pf->nops++];
			op->kind = PP_LIT;
			op->lit = f;
			op->litlen = 1;
			lit = ++f;
			continue;
		}
		op = &pf->ops[pf->nops++];
		for (;; f++) {
			if (*f == '-')
				op->left = true;
			else if (*f == '0')
				op->zero = true;
			else if (*f == '#')
				op->alt = true;
			else
				break;
		}
		while (*f >= '0' && *f <= '9') {
			op->width = (uint16_t)(op->width * 10 + (*f++ - '0'));
			if (op->width > 256)
				goto fail;
		}
		for (;; f++) {
			if (*f == 'h')
				op->ls--;
			else if (*f == 'l')
				op->ls++;
			else if (*f == 'z')
				op->zext = true;
			else
				break;
		}
		if (op->ls < -2 || op->ls > 2 || !*f || !strchr("diuxXs", *f))
			goto fail;
		op->conv = *f++;
		lit = f;
		if (!a)
			goto fail;
		if (op->conv == 's') {
			if (op->zero || op->alt || op->ls)
				goto fail;
			if (a->type == TEP_PRINT_SYMBOL) {
				op->kind = PP_SYM;
				op->f = perf_pp_field(e, a->symbol.field, true);
				if (!op->f || perf_pp_syms(op, a) < 0)
					goto fail;
			} else {
				op->kind = PP_STR;
				op->f = perf_pp_field(e, a, false);
				if (!op->f)
					goto fail;
			}
		} else {
			op->kind = PP_INT;
			op->f = perf_pp_field(e, a, true);
			if (!op->f || (op->alt && (op->conv == 'd' ||
						   op->conv == 'i' ||
						   op->conv == 'u')))
				goto fail;
		}
		a = a->next;
	}
	if (a)
		goto fail;	/* libtraceevent warns of extra arguments */
	if (f > lit) {
		struct perf_pop *op = &pf->ops[pf->nops++];

		op->kind = PP_LIT;
		op->lit = lit;
		op->litlen = (size_t)(f - lit);
	}
	return pf;
fail:
	perf_pfmt_free(pf);
	return NULL;
}

/* Pad s (n bytes) to op's width into b. */
static char *perf_pp_pad(char *b, const struct perf_pop *op, const char *s,
			 size_t n)
{
	size_t i;

	if (!op->left)
		for (i = n; i < op->width; i++)
			*b++ = ' ';
	memcpy(b, s, n);
	b += n;
	if (op->left)
		for (i = n; i < op->width; i++)
			*b++ = ' ';
	return b;
}

static char *perf_pp_int(char *b, const struct perf_pop *op, uint64_t v)
{
	static const char lo[] = "0123456789abcdef", up[] = "0123456789ABCDEF";
	unsigned bits = op->ls == -2 ? 8 : op->ls == -1 ? 16 : op->ls == 0 ? 32 : 64;
	char tmp[32], *t = tmp + sizeof(tmp);
	size_t n, i, pre = 0;
	bool neg = false;

	if (bits < 64)
		v &= (1ull << bits) - 1;
	if (op->zext) {
		/* perf's libtraceevent passes an int, printf reads a size_t */
		v &= 0xffffffffull;
	} else if (op->conv == 'd' || op->conv == 'i') {
		if (bits < 64 && (v >> (bits - 1)) & 1)
			v |= ~0ull << bits;
		neg = (int64_t)v < 0;
		if (neg)
			v = -v;
	}
	if (op->conv == 'x' || op->conv == 'X') {
		const char *dig = op->conv == 'x' ? lo : up;

		do {
			*--t = dig[v & 15];
			v >>= 4;
		} while (v);
		/* "%#x" of 0 is "0" */
		if (op->alt && !(t[0] == '0' && t + 1 == tmp + sizeof(tmp)))
			pre = 2;
	} else {
		do {
			*--t = (char)('0' + v % 10);
			v /= 10;
		} while (v);
		pre = neg;
	}
	n = (size_t)(tmp + sizeof(tmp) - t);
	if (!op->left && !op->zero)
		for (i = n + pre; i < op->width; i++)
			*b++ = ' ';
	if (neg)
		*b++ = '-';
	else if (pre == 2) {
		*b++ = '0';
		*b++ = op->conv;
	}
	if (op->zero && !op->left)
		for (i = n + pre; i < op->width; i++)
			*b++ = '0';
	memcpy(b, t, n);
	b += n;
	if (op->left)
		for (i = n + pre; i < op->width; i++)
			*b++ = ' ';
	return b;
}

static const struct perf_sym *perf_pp_sym(const struct perf_pop *op,
					  uint64_t v)
{
	size_t lo = 0, hi = op->nsyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (op->syms[mid].val == v)
			return &op->syms[mid];
		if (op->syms[mid].val < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The most one op writes besides a string's bytes. */
#define PERF_PP_SLACK 300

const char *perf_print_fast(struct perf *p, struct perf_attr *at, size_t *len)
{
	static const struct perf_pop hex = { .kind = PP_INT, .conv = 'x',
					     .ls = 2 };
	const unsigned char *raw = p->cur.raw;
	size_t size = p->cur.raw_size, need = 0, i;
	struct perf_pfmt *pf;
	char *b;

	if (!at->pf_tried) {
		at->pf_tried = true;
		at->pf = at->tp ? perf_pfmt_make(at->tp, tep_get_long_size(p->tep))
				: NULL;
	}
	pf = at->pf;
	if (!pf)
		return NULL;
	for (i = 0; i < pf->nops; i++) {
		const struct perf_pop *op = &pf->ops[i];

		if (op->kind == PP_LIT) {
			need += op->litlen;
			continue;
		}
		if ((size_t)op->f->offset + (size_t)op->f->size > size)
			return NULL;
		need += PERF_PP_SLACK + (op->kind == PP_STR ? (size_t)op->f->size
							    : 0);
		if (op->kind == PP_SYM)
			need += 256;
	}
	if (need > p->ppcap) {
		char *n = realloc(p->ppbuf, need);

		if (!n)
			return NULL;
		p->ppbuf = n;
		p->ppcap = need;
	}
	b = p->ppbuf;
	for (i = 0; i < pf->nops; i++) {
		const struct perf_pop *op = &pf->ops[i];
		const unsigned char *fp;
		const struct perf_sym *sym;
		const char *z;

		switch (op->kind) {
		case PP_LIT:
			memcpy(b, op->lit, op->litlen);
			b += op->litlen;
			break;
		case PP_INT:
			fp = raw + op->f->offset;
			b = perf_pp_int(b, op, op->f->size == 1 ? fp[0]
					   : op->f->size == 2 ? perf_u16(p, fp)
					   : op->f->size == 4 ? perf_u32(p, fp)
							      : perf_u64(p, fp));
			break;
		case PP_STR:
			fp = raw + op->f->offset;
			z = memchr(fp, '\0', (size_t)op->f->size);
			b = perf_pp_pad(b, op, (const char *)fp,
					z ? (size_t)(z - (const char *)fp)
					  : (size_t)op->f->size);
			break;
		case PP_SYM:
			fp = raw + op->f->offset;
			sym = perf_pp_sym(op, op->f->size == 1 ? fp[0]
					     : op->f->size == 2 ? perf_u16(p, fp)
					     : op->f->size == 4 ? perf_u32(p, fp)
								: perf_u64(p, fp));
			if (sym && sym->len > 256)
				return NULL;
			if (sym) {
				b = perf_pp_pad(b, op, sym->str, sym->len);
				break;
			}
			/* no symbol: the value as "0x%llx", no width */
			*b++ = '0';
			*b++ = 'x';
			b = perf_pp_int(b, &hex, op->f->size == 1 ? fp[0]
					    : op->f->size == 2 ? perf_u16(p, fp)
					    : op->f->size == 4 ? perf_u32(p, fp)
							       : perf_u64(p, fp));
			break;
		}
	}
	*len = (size_t)(b - p->ppbuf);
	return p->ppbuf;
}

void perf_print_free(struct perf *p)
{
	uint32_t i;

	for (i = 0; i < p->nattrs; i++)
		perf_pfmt_free(p->attrs[i].pf);
	free(p->ppbuf);
}
