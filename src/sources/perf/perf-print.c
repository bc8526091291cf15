// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libtraceevent's text of a sample without libtraceevent, for the print
 * fmts whose every piece this can say exactly: literal text; %d %i %u %x
 * %X (flags - 0 #, a width, h hh l ll z) of a number; %s of a char array
 * field, a string literal, __print_symbolic(), __print_flags() and ?:
 * between them. A number is a field (read unsigned, as eval_num_arg()
 * reads it), a constant, or an expression of them with the operators
 * libtraceevent evaluates (~ ! + - * / % << >> & | && || == != < <= >
 * >= and ?:). libtraceevent casts the number to the type the length
 * modifier names and hands it to printf; so does this, by hand, and %zu
 * as perf 6.1's own libtraceevent prints it (an int cast, read back as 64
 * bits whose upper half is 0, where Debian's libtraceevent 1.7 passes all
 * 64). Symbols and flags follow perf 6.1 too (tests/gen/gen-perfdata.py
 * --zoo checks every case against perf script). Anything else (a %p, a
 * typecast, __get_str(), a backslash) goes to tep_print_event().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perf-pfmt.h"
#include "pyfmt.h"

/* e's value for the raw record at r; false: not computable (x / 0). */
static bool perf_pexpr_eval(const struct perf *p, const struct perf_pexpr *x,
			    const unsigned char *r, uint64_t *out)
{
	uint64_t l, v;

	switch (x->kind) {
	case PE_CONST:
		*out = x->val;
		return true;
	case PE_FIELD: {
		const unsigned char *fp = r + x->f->offset;

		*out = x->f->size == 1 ? fp[0]
		     : x->f->size == 2 ? perf_u16(p, fp)
		     : x->f->size == 4 ? perf_u32(p, fp) : perf_u64(p, fp);
		return true;
	}
	case PE_COND:
		if (!perf_pexpr_eval(p, x->a, r, &v))
			return false;
		return perf_pexpr_eval(p, v ? x->b : x->c, r, out);
	}
	if (!perf_pexpr_eval(p, x->a, r, &l) || !perf_pexpr_eval(p, x->b, r, &v))
		return false;
	switch (x->op[0]) {
	case '!':
		*out = x->op[1] ? l != v : !v;
		return true;
	case '~':
		*out = ~v;
		return true;
	case '|':
		*out = x->op[1] ? l || v : l | v;
		return true;
	case '&':
		*out = x->op[1] ? l && v : l & v;
		return true;
	case '<':
		*out = !x->op[1] ? l < v : x->op[1] == '<' ? (v < 64 ? l << v : 0)
						  : l <= v;
		return x->op[1] != '<' || v < 64;
	case '>':
		*out = !x->op[1] ? l > v : x->op[1] == '>' ? (v < 64 ? l >> v : 0)
						  : l >= v;
		return x->op[1] != '>' || v < 64;
	case '=':
		*out = l == v;
		return true;
	case '-':
		*out = l - v;
		return true;
	case '+':
		*out = l + v;
		return true;
	case '*':
		*out = l * v;
		return true;
	case '/':
	case '%':
		if (!v)
			return false;
		*out = x->op[0] == '/' ? l / v : l % v;
		return true;
	}
	return false;
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

/* The 8 hex digits of x into b, most significant first. */
static inline void perf_hex8(char *b, uint32_t x, bool upper)
{
	uint64_t y = pyfmt_hex8(x, upper ? 'A' - '0' - 10 : 'a' - '0' - 10);

	memcpy(b, &y, 8);
}

/* The 16 hex digits of v into b (with leading zeros). */
static void perf_hex16(char *b, uint64_t v, bool upper)
{
	perf_hex8(b, (uint32_t)(v >> 32), upper);
	perf_hex8(b + 8, (uint32_t)v, upper);
}

/*
 * v in hex without leading zeros into b, which has room for 16 bytes
 * (what goes past the digits is written over or left out).
 */
static inline char *perf_pp_hexs(char *b, uint64_t v, bool upper)
{
	size_t n = v ? (size_t)(67 - __builtin_clzll(v)) / 4 : 1;

	pyfmt_hex_n(b, v, n, upper);
	return b + n;
}

static char *perf_pp_int(char *b, const struct perf_pop *op, uint64_t v)
{
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
		n = v ? (size_t)(67 - __builtin_clzll(v)) / 4 : 1;
		t -= n;
		perf_hex16(tmp + sizeof(tmp) - 16, v, op->conv == 'X');
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

static const struct perf_sym *perf_pp_sym(const struct perf_pstr *ps,
					  uint64_t v)
{
	size_t lo = 0, hi = ps->nsyms;

	if (ps->dense)
		return v < ps->ndense && ps->dense[v] ? &ps->syms[ps->dense[v] - 1]
						      : NULL;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ps->syms[mid].val == v)
			return &ps->syms[mid];
		if (ps->syms[mid].val < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* "0x%llx" */
static char *perf_pp_hex(char *b, uint64_t v)
{
	*b++ = '0';
	*b++ = 'x';
	return perf_pp_hexs(b, v, false);
}

/* A %s of ps into b (op: its width and '-'); NULL: not computable. */
static char *perf_pp_str(const struct perf *p, const struct perf_pop *op,
			 const struct perf_pstr *ps, const unsigned char *r,
			 char *b)
{
	const struct perf_sym *sym;
	const char *z;
	uint64_t v;
	size_t i;
	bool any;

	switch (ps->kind) {
	case PS_ATOM:
		return perf_pp_pad(b, op, ps->s, ps->len);
	case PS_FIELD:
		z = memchr(r + ps->f->offset, '\0', (size_t)ps->f->size);
		return perf_pp_pad(b, op, (const char *)r + ps->f->offset,
				   z ? (size_t)(z - (const char *)r - ps->f->offset)
				     : (size_t)ps->f->size);
	case PS_SYM:
		if (ps->e->kind == PE_FIELD && ps->e->f->size == 4)
			v = perf_u32(p, r + ps->e->f->offset);	/* as a rule */
		else if (!perf_pexpr_eval(p, ps->e, r, &v))
			return NULL;
		sym = perf_pp_sym(ps, v);
		/* no symbol: "0x%llx", without the width */
		if (!sym)
			return perf_pp_hex(b, v);
		if (!op->width && sym->len <= sizeof(sym->sb)) {
			memcpy(b, sym->sb, sizeof(sym->sb));
			return b + sym->len;
		}
		return perf_pp_pad(b, op, sym->str, sym->len);
	case PS_FLAGS:
		/* libtraceevent puts flags without the format */
		if (!perf_pexpr_eval(p, ps->e, r, &v))
			return NULL;
		any = false;
		/* as perf 6.1 prints them: a flag of value 0 never shows */
		for (i = 0; i < ps->nsyms; i++) {
			uint64_t fv = ps->syms[i].val;

			if (fv && (v & fv) == fv) {
				if (any && ps->len) {
					memcpy(b, ps->s, ps->len);
					b += ps->len;
				}
				memcpy(b, ps->syms[i].str, ps->syms[i].len);
				b += ps->syms[i].len;
				any = true;
				v &= ~fv;
			}
		}
		if (v) {
			if (any && ps->len) {
				memcpy(b, ps->s, ps->len);
				b += ps->len;
			}
			b = perf_pp_hex(b, v);
		}
		return b;
	case PS_COND:
		if (!perf_pexpr_eval(p, ps->e, r, &v))
			return NULL;
		return perf_pp_str(p, op, v ? ps->yes : ps->no, r, b);
	}
	return NULL;
}

/* Can x not be computed for some record (x / 0, a shift of 64 or more)? */
static bool perf_pexpr_may_fail(const struct perf_pexpr *x)
{
	if (!x)
		return false;
	if (x->kind == PE_OP &&
	    (x->op[0] == '/' || x->op[0] == '%' ||
	     ((x->op[0] == '<' || x->op[0] == '>') && x->op[1] == x->op[0])))
		return true;
	return perf_pexpr_may_fail(x->a) || perf_pexpr_may_fail(x->b) ||
	       perf_pexpr_may_fail(x->c);
}

static bool perf_pstr_may_fail(const struct perf_pstr *ps)
{
	return ps && (perf_pexpr_may_fail(ps->e) || perf_pstr_may_fail(ps->yes) ||
		      perf_pstr_may_fail(ps->no));
}

/* Does perf_print_to() give a text for every record pf fits? */
static bool perf_pfmt_sure(const struct perf_pfmt *pf)
{
	size_t i;

	for (i = 0; i < pf->nops; i++)
		if (perf_pexpr_may_fail(pf->ops[i].e) ||
		    perf_pstr_may_fail(pf->ops[i].str))
			return false;
	return true;
}

size_t perf_print_room(struct perf *p, const struct perf_sample *s)
{
	struct perf_attr *at = s->attr;
	size_t size = s->raw_size, i;
	struct perf_pfmt *pf;

	if (!at->pf_tried) {
		at->pf_tried = true;
		at->pf = at->tp ? perf_pfmt_make(at->tp, tep_get_long_size(p->tep))
				: NULL;
		/* (a text of 4 GiB is none) */
		if (at->pf && at->pf->max + 1 >= UINT32_MAX) {
			perf_pfmt_free(at->pf);
			at->pf = NULL;
		}
		if (at->pf) {
			at->pf_size = SIZE_MAX;	/* none checked yet */
			at->pf_sure = perf_pfmt_sure(at->pf);
			at->pf_room = (uint32_t)(at->pf->max + 1);
		}
	}
	pf = at->pf;
	if (!pf)
		return 0;
	/* a record of a size seen before fits as that one did */
	if (size != at->pf_size) {
		for (i = 0; i < pf->nops; i++)
			if (!perf_pexpr_fits(pf->ops[i].e, size) ||
			    !perf_pstr_fits(pf->ops[i].str, size))
				return 0;
		at->pf_size = size;
	}
	return pf->max + 1;
}

char *perf_print_to(const struct perf *p, const struct perf_sample *s, char *b)
{
	const unsigned char *raw = s->raw;
	const struct perf_pfmt *pf = s->attr->pf;
	const struct perf_pop *op, *end = pf->ops + pf->nops;
	uint64_t v;

	for (op = pf->ops; op < end; op++) {
		/* the text before it, merged (perf_pfmt_make()) */
		memcpy(b, op->pre, sizeof(op->pre));
		b += op->prelen;
		switch (op->kind) {
		case PP_LIT:
			if (op->litlen <= sizeof(op->litb))
				memcpy(b, op->litb, sizeof(op->litb));
			else
				memcpy(b, op->lit, op->litlen);
			b += op->litlen;
			break;
		case PP_INT:
			if (op->fsize) {
				const unsigned char *fp = raw + op->foff;

				v = op->fsize == 8   ? perf_u64(p, fp)
				    : op->fsize == 4 ? perf_u32(p, fp)
				    : op->fsize == 2 ? perf_u16(p, fp)
						     : fp[0];
			} else if (!perf_pexpr_eval(p, op->e, raw, &v)) {
				return NULL;
			}
			if (op->hex)
				b = perf_pp_hexs(b, v & op->mask, op->conv == 'X');
			else if (op->udec)
				b += pyfmt_u64_dec_w(b, v & op->mask, 0, ' ');
			else
				b = perf_pp_int(b, op, v);
			break;
		case PP_STR:
			b = perf_pp_str(p, op, op->str, raw, b);
			if (!b)
				return NULL;
			break;
		case PP_HEX64:
			b = perf_pp_hexs(b, perf_u64(p, raw + op->foff), false);
			break;
		case PP_HEX32:
			b = perf_pp_hexs(b, perf_u32(p, raw + op->foff), false);
			break;
		case PP_UDEC32:
			b += pyfmt_u64_dec_w(b, perf_u32(p, raw + op->foff), 0,
					     ' ');
			break;
		}
	}
	return b;
}

const char *perf_print_fast(struct perf *p, const struct perf_sample *s,
			    size_t *len)
{
	size_t room = perf_print_room(p, s);
	char *b;

	if (!room)
		return NULL;
	if (room > p->ppcap) {
		char *n = realloc(p->ppbuf, room);

		if (!n)
			return NULL;
		p->ppbuf = n;
		p->ppcap = room;
	}
	b = perf_print_to(p, s, p->ppbuf);
	if (!b)
		return NULL;
	*len = (size_t)(b - p->ppbuf);
	return p->ppbuf;
}

bool perf_print_lib_slow(struct perf *p, struct perf_sample *s)
{
	size_t room;

	if (!p->tep || !s->raw)
		return false;
	room = perf_print_room(p, s);
	s->room = (uint32_t)room + 1;
	return !room || !s->attr->pf_sure;
}

void perf_print_free(struct perf *p)
{
	uint32_t i;

	for (i = 0; i < p->nattrs; i++)
		perf_pfmt_free(p->attrs[i].pf);
	free(p->ppbuf);
}
