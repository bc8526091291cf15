// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tracecmd-pfmt-text: an event's text written by the pieces its print fmt
 * was compiled into (tracecmd-pfmt.c says what is compiled): numbers
 * evaluated as eval_num_arg() does and printed as printf does after
 * print_arg_number()'s cast, strings, symbols and flags.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pyfmt.h"
#include "tracecmd-pfmt-int.h"

/* eval_num_arg() of node i; false: libtraceevent's to do */
static bool tc_pf_eval(const struct tc_pfmt *pf, int32_t i,
		       const unsigned char *data, uint64_t *v)
{
	const struct tc_pf_node *n = &pf->nodes[i];
	uint64_t l, r;

	switch (n->kind) {
	case TC_PFN_CONST:
		*v = n->val;
		return true;
	case TC_PFN_FIELD:
		*v = tc_read(pf->tc, data + n->off, n->size);
		return true;
	case TC_PFN_COND:
		if (!tc_pf_eval(pf, n->a, data, &l))
			return false;
		return tc_pf_eval(pf, l ? n->b : n->c, data, v);
	}
	if (!tc_pf_eval(pf, n->a, data, &l) || !tc_pf_eval(pf, n->b, data, &r))
		return false;
	switch (n->op[0]) {
	case '!':
		*v = n->op[1] ? l != r : !r;
		break;
	case '~':
		*v = ~r;
		break;
	case '|':
		*v = n->op[1] ? l || r : l | r;
		break;
	case '&':
		*v = n->op[1] ? l && r : l & r;
		break;
	case '<':
		if (n->op[1] == '<' && r >= 64)
			return false;
		*v = !n->op[1] ? l < r : n->op[1] == '<' ? l << r : l <= r;
		break;
	case '>':
		if (n->op[1] == '>' && r >= 64)
			return false;
		*v = !n->op[1] ? l > r : n->op[1] == '>' ? l >> r : l >= r;
		break;
	case '=':
		*v = l == r;
		break;
	case '-':
		*v = l - r;
		break;
	case '+':
		*v = l + r;
		break;
	case '*':
		*v = l * r;
		break;
	case '/':
	case '%':
		if (!r)
			return false;
		*v = n->op[0] == '/' ? l / r : l % r;
		break;
	default:
		return false;
	}
	return true;
}

/* "%llx" of v at p; the end */
static char *tc_pf_hex(char *p, uint64_t v, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	int n = (67 - __builtin_clzll(v | 1)) >> 2;
	char *end = p + n;

	while (n--) {
		p[n] = digits[v & 15];
		v >>= 4;
	}
	return end;
}

/* printf of v (the cast print_arg_number() makes) as piece p asks */
static char *tc_pf_number(char *o, const struct tc_pf_piece *p, uint64_t v)
{
	char digits[24], *d, *e;
	bool neg = false;
	size_t n, pad;

	if (p->bits < 64) {
		v &= (1ull << p->bits) - 1;
		if ((p->conv == 'd' || p->conv == 'i') &&
		    (v >> (p->bits - 1)))
			v |= ~0ull << p->bits;	/* sign-extended */
	}
	if ((p->conv == 'd' || p->conv == 'i') && (int64_t)v < 0) {
		neg = true;
		v = -v;
	}
	if (p->conv == 'x' || p->conv == 'X') {
		n = (size_t)(tc_pf_hex(digits, v, p->conv == 'X') - digits);
	} else {
		if (!p->width && !neg) {
			/* the common case: the digits as they are */
			return o + pyfmt_u64_dec(o, v);
		}
		n = pyfmt_u64_dec(digits, v);
	}
	d = digits;
	e = digits + n;
	n = (size_t)(e - d) + neg;
	pad = p->width > n ? p->width - n : 0;
	if (!p->left && !p->zero)
		for (; pad; pad--)
			*o++ = ' ';
	if (neg)
		*o++ = '-';
	if (p->zero)
		for (; pad; pad--)
			*o++ = '0';
	memcpy(o, d, (size_t)(e - d));
	o += e - d;
	for (; pad; pad--)
		*o++ = ' ';
	return o;
}

/* print_str_arg() of string i at o; NULL: libtraceevent's to do */
static char *tc_pf_string(const struct tc_pfmt *pf, int32_t i,
			  const unsigned char *data, char *o)
{
	const struct tc_pf_str *s = &pf->strs[i];
	const struct tc_pf_sym *sym;
	bool printed = false;
	uint64_t v;
	int64_t val;
	uint32_t k;

	switch (s->kind) {
	case TC_PFS_ATOM:
		memcpy(o, s->s, s->len);
		return o + s->len;
	case TC_PFS_NONE:
		return o;
	case TC_PFS_COND:
		if (!tc_pf_eval(pf, s->num, data, &v))
			return NULL;
		return tc_pf_string(pf, v ? s->a : s->b, data, o);
	}
	if (!tc_pf_eval(pf, s->num, data, &v))
		return NULL;
	val = (int64_t)v;
	sym = pf->syms + s->first;
	if (s->kind == TC_PFS_SYMBOL) {
		for (k = 0; k < s->n; k++)
			if (sym[k].val == val) {
				memcpy(o, sym[k].s, sym[k].len);
				return o + sym[k].len;
			}
		memcpy(o, "0x", 2);
		return tc_pf_hex(o + 2, v, false);
	}
	for (k = 0; k < s->n; k++) {
		if (!val && sym[k].val < 0) {
			memcpy(o, sym[k].s, sym[k].len);
			o += sym[k].len;
			break;
		}
		if (sym[k].val > 0 && (val & sym[k].val) == sym[k].val) {
			if (printed) {
				memcpy(o, s->s, s->len);
				o += s->len;
			}
			memcpy(o, sym[k].s, sym[k].len);
			o += sym[k].len;
			printed = true;
			val &= ~sym[k].val;
		}
	}
	if (val) {
		if (printed) {
			memcpy(o, s->s, s->len);
			o += s->len;
		}
		memcpy(o, "0x", 2);
		o = tc_pf_hex(o + 2, (uint64_t)val, false);
	}
	return o;
}

const char *tc_pfmt_text(const struct tc_pfmt *pf, const struct tep_record *rec,
			 size_t *len)
{
	const unsigned char *data = rec->data;
	const struct tc_pf_piece *p;
	const struct tc_pf_node *n;
	char *o = pf->text;
	uint64_t v;
	uint32_t k;

	if (rec->size < 0 || (uint32_t)rec->size < pf->need)
		return NULL;
	for (k = 0; k < pf->np; k++) {
		p = &pf->p[k];
		switch (p->kind) {
		case TC_PFP_TEXT:
			/* both buffers have TC_PF_SLACK bytes more */
			if (p->len <= TC_PF_SLACK)
				memcpy(o, pf->lits + p->off, TC_PF_SLACK);
			else
				memcpy(o, pf->lits + p->off, p->len);
			o += p->len;
			break;
		case TC_PFP_NUM:
			n = &pf->nodes[p->idx];
			if (n->kind == TC_PFN_FIELD)
				v = tc_read(pf->tc, data + n->off, n->size);
			else if (!tc_pf_eval(pf, p->idx, data, &v))
				return NULL;
			o = tc_pf_number(o, p, v);
			break;
		case TC_PFP_STR:
			o = tc_pf_string(pf, p->idx, data, o);
			if (!o)
				return NULL;
			break;
		}
	}
	*len = (size_t)(o - pf->text);
	return pf->text;
}

void tc_types_free(struct tc *tc)
{
	uint32_t i;

	for (i = 0; tc->types && i < tc->ntypes; i++) {
		tc_pfmt_free(tc->types[i].pf);
		tc->types[i].pf = NULL;
	}
}
