// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf-pfmt: a tracepoint's print fmt, parsed by libtraceevent, turned
 * into the steps perf-print.c writes a sample's text by (perf-pfmt.h):
 * numbers as expressions of fields and constants, strings, symbols and
 * flags sorted for lookup; NULL for a fmt with any piece not covered.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perf-pfmt.h"

static int perf_sym_cmp(const void *a, const void *b)
{
	const struct perf_sym *x = a, *y = b;

	if (x->val != y->val)
		return x->val < y->val ? -1 : 1;
	/* the first of equal values wins, as in libtraceevent */
	return x->ord < y->ord ? -1 : x->ord > y->ord;
}

static void perf_pexpr_free(struct perf_pexpr *e)
{
	if (!e)
		return;
	perf_pexpr_free(e->a);
	perf_pexpr_free(e->b);
	perf_pexpr_free(e->c);
	free(e);
}

static void perf_pstr_free(struct perf_pstr *s)
{
	if (!s)
		return;
	perf_pexpr_free(s->e);
	free(s->syms);
	free(s->dense);
	perf_pstr_free(s->yes);
	perf_pstr_free(s->no);
	free(s);
}

/* A number, fully: decimal, 0x hex or 0 octal, as strtoull(…, 0). */
static bool perf_pp_num(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return false;
	*v = strtoull(s, &end, 0);
	return *end == '\0';
}

/*
 * A symbol's or flag's value as perf 6.1 reads it (checked against perf
 * script, tests/gen/gen-perfdata.py --zoo): a number when it starts with
 * a digit or '-' ("-1" is all ones), else one of the softirq and hrtimer
 * names libtraceevent knows, else 0.
 */
static uint64_t perf_pp_flag(const char *s)
{
	static const struct {
		const char *name;
		uint64_t val;
	} names[] = {
		{ "HI_SOFTIRQ", 0 }, { "TIMER_SOFTIRQ", 1 },
		{ "NET_TX_SOFTIRQ", 2 }, { "NET_RX_SOFTIRQ", 3 },
		{ "BLOCK_SOFTIRQ", 4 }, { "IRQ_POLL_SOFTIRQ", 5 },
		{ "TASKLET_SOFTIRQ", 6 }, { "SCHED_SOFTIRQ", 7 },
		{ "HRTIMER_SOFTIRQ", 8 }, { "RCU_SOFTIRQ", 9 },
		{ "HRTIMER_NORESTART", 0 }, { "HRTIMER_RESTART", 1 },
	};
	size_t i;

	if ((*s >= '0' && *s <= '9') || *s == '-')
		return strtoull(s, NULL, 0);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i].name))
			return names[i].val;
	return 0;
}

/* The operators eval_num_arg() knows. */
static bool perf_pp_op(const char *op)
{
	static const char *const ops[] = {
		"!", "!=", "~", "|", "||", "&", "&&", "<", "<<", "<=", ">",
		">>", ">=", "==", "-", "+", "/", "%", "*",
	};
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(op, ops[i]))
			return true;
	return false;
}

static struct perf_pexpr *perf_pexpr_make(struct tep_event *e,
					  const struct tep_print_arg *a,
					  unsigned depth)
{
	struct perf_pexpr *x;

	if (!a || depth > 32)
		return NULL;
	x = calloc(1, sizeof(*x));
	if (!x)
		return NULL;
	switch (a->type) {
	case TEP_PRINT_NULL:
		x->kind = PE_CONST;
		return x;
	case TEP_PRINT_ATOM:
		x->kind = PE_CONST;
		if (!perf_pp_num(a->atom.atom, &x->val))
			goto fail;
		return x;
	case TEP_PRINT_FIELD:
		x->kind = PE_FIELD;
		x->f = a->field.name ? tep_find_any_field(e, a->field.name)
				     : NULL;
		if (!x->f || (x->f->flags & (TEP_FIELD_IS_DYNAMIC |
					     TEP_FIELD_IS_ARRAY)) ||
		    !(x->f->size == 1 || x->f->size == 2 || x->f->size == 4 ||
		      x->f->size == 8))
			goto fail;
		return x;
	case TEP_PRINT_OP:
		if (!a->op.op)
			goto fail;
		if (!strcmp(a->op.op, "?")) {
			if (!a->op.right || a->op.right->type != TEP_PRINT_OP ||
			    !a->op.right->op.op || strcmp(a->op.right->op.op, ":"))
				goto fail;
			x->kind = PE_COND;
			x->a = perf_pexpr_make(e, a->op.left, depth + 1);
			x->b = perf_pexpr_make(e, a->op.right->op.left, depth + 1);
			x->c = perf_pexpr_make(e, a->op.right->op.right, depth + 1);
			if (!x->a || !x->b || !x->c)
				goto fail;
			return x;
		}
		if (strlen(a->op.op) > 2 || !perf_pp_op(a->op.op))
			goto fail;
		x->kind = PE_OP;
		strcpy(x->op, a->op.op);
		x->a = perf_pexpr_make(e, a->op.left, depth + 1);
		x->b = perf_pexpr_make(e, a->op.right, depth + 1);
		if (!x->a || !x->b)
			goto fail;
		return x;
	default:
		goto fail;
	}
fail:
	perf_pexpr_free(x);
	return NULL;
}

static int perf_pp_syms(struct perf_pstr *ps,
			const struct tep_print_flag_sym *list, bool sort)
{
	const struct tep_print_flag_sym *s;
	size_t n = 0, i, k;

	for (s = list; s; s = s->next)
		n++;
	ps->syms = calloc(n ? n : 1, sizeof(*ps->syms));
	if (!ps->syms)
		return -ENOMEM;
	for (s = list; s; s = s->next) {
		if (!s->str || !s->value)
			return -EINVAL;
		ps->syms[ps->nsyms].val = perf_pp_flag(s->value);
		ps->syms[ps->nsyms].str = s->str;
		ps->syms[ps->nsyms].len = strlen(s->str);
		ps->syms[ps->nsyms].ord = ps->nsyms;
		if (ps->syms[ps->nsyms].len <= sizeof(ps->syms[0].sb))
			memcpy(ps->syms[ps->nsyms].sb, s->str,
			       ps->syms[ps->nsyms].len);
		ps->nsyms++;
	}
	if (!sort)
		return 0;
	qsort(ps->syms, ps->nsyms, sizeof(*ps->syms), perf_sym_cmp);
	/* keep the first of equal values */
	for (i = k = 0; i < ps->nsyms; i++)
		if (!k || ps->syms[k - 1].val != ps->syms[i].val)
			ps->syms[k++] = ps->syms[i];
	ps->nsyms = k;
	/* small values (exit reasons): found by a table */
	if (k && ps->syms[k - 1].val < 1024) {
		ps->ndense = (size_t)ps->syms[k - 1].val + 1;
		ps->dense = calloc(ps->ndense, sizeof(*ps->dense));
		if (!ps->dense)
			return -ENOMEM;
		for (i = 0; i < k; i++)
			ps->dense[ps->syms[i].val] = (uint16_t)(i + 1);
	}
	return 0;
}

/* What a %s of a prints, or NULL: libtraceevent prints it. */
static struct perf_pstr *perf_pstr_make(struct tep_event *e,
					const struct tep_print_arg *a,
					unsigned depth)
{
	struct perf_pstr *ps;
	size_t i;

	if (!a || depth > 32)
		return NULL;
	ps = calloc(1, sizeof(*ps));
	if (!ps)
		return NULL;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		ps->kind = PS_ATOM;
		ps->s = a->atom.atom ? a->atom.atom : "";
		ps->len = ps->max = strlen(ps->s);
		return ps;
	case TEP_PRINT_FIELD:
		ps->kind = PS_FIELD;
		ps->f = a->field.name ? tep_find_any_field(e, a->field.name)
				      : NULL;
		if (!ps->f || (ps->f->flags & TEP_FIELD_IS_DYNAMIC) ||
		    !(ps->f->flags & TEP_FIELD_IS_ARRAY) ||
		    !(ps->f->flags & TEP_FIELD_IS_STRING) || ps->f->size <= 0)
			goto fail;
		ps->max = (size_t)ps->f->size;
		return ps;
	case TEP_PRINT_SYMBOL:
		ps->kind = PS_SYM;
		ps->e = perf_pexpr_make(e, a->symbol.field, depth + 1);
		if (!ps->e || perf_pp_syms(ps, a->symbol.symbols, true) < 0)
			goto fail;
		ps->max = 18;	/* 0x%llx */
		for (i = 0; i < ps->nsyms; i++)
			if (ps->syms[i].len > ps->max)
				ps->max = ps->syms[i].len;
		return ps;
	case TEP_PRINT_FLAGS:
		ps->kind = PS_FLAGS;
		ps->e = perf_pexpr_make(e, a->flags.field, depth + 1);
		ps->s = a->flags.delim;
		ps->len = ps->s ? strlen(ps->s) : 0;
		if (!ps->e || perf_pp_syms(ps, a->flags.flags, false) < 0)
			goto fail;
		ps->max = 18 + ps->len;
		for (i = 0; i < ps->nsyms; i++)
			ps->max += ps->syms[i].len + ps->len;
		return ps;
	case TEP_PRINT_OP:
		/* the only string op: ?: */
		if (!a->op.op || strcmp(a->op.op, "?") || !a->op.right ||
		    a->op.right->type != TEP_PRINT_OP || !a->op.right->op.op ||
		    strcmp(a->op.right->op.op, ":"))
			goto fail;
		ps->kind = PS_COND;
		ps->e = perf_pexpr_make(e, a->op.left, depth + 1);
		ps->yes = perf_pstr_make(e, a->op.right->op.left, depth + 1);
		ps->no = perf_pstr_make(e, a->op.right->op.right, depth + 1);
		if (!ps->e || !ps->yes || !ps->no)
			goto fail;
		ps->max = ps->yes->max > ps->no->max ? ps->yes->max : ps->no->max;
		return ps;
	default:
		goto fail;
	}
fail:
	perf_pstr_free(ps);
	return NULL;
}

void perf_pfmt_free(struct perf_pfmt *pf)
{
	size_t i;

	if (!pf)
		return;
	for (i = 0; i < pf->nops; i++) {
		perf_pexpr_free(pf->ops[i].e);
		perf_pstr_free(pf->ops[i].str);
	}
	free(pf->ops);
	free(pf);
}

/* The fast form of e's print fmt, or NULL: libtraceevent prints it. */
struct perf_pfmt *perf_pfmt_make(struct tep_event *e, int long_size)
{
	const struct tep_print_arg *a = e->print_fmt.args;
	const char *f = e->print_fmt.format, *lit;
	struct perf_pfmt *pf;
	size_t cap, i, k;

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
			pf->max += op->litlen;
		}
		f++;
		if (*f == '%') {
			op = &pf->ops[pf->nops++];
			op->kind = PP_LIT;
			op->lit = f;
			op->litlen = 1;
			pf->max++;
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
			if (op->zero || op->alt || op->ls || op->zext)
				goto fail;
			op->kind = PP_STR;
			op->str = perf_pstr_make(e, a, 0);
			if (!op->str)
				goto fail;
			pf->max += op->str->max + op->width;
		} else {
			op->kind = PP_INT;
			op->hex = (op->conv == 'x' || op->conv == 'X') &&
				  !op->alt && !op->width;
			op->udec = op->conv == 'u' && !op->alt && !op->width &&
				   !op->left && !op->zero && !op->zext;
			op->mask = op->ls == -2 ? 0xff : op->ls == -1 ? 0xffff :
				   op->ls == 0 || op->zext ? 0xffffffffull :
				   ~0ull;
			op->e = perf_pexpr_make(e, a, 0);
			if (op->e && op->e->kind == PE_FIELD &&
			    (op->e->f->size == 1 || op->e->f->size == 2 ||
			     op->e->f->size == 4 || op->e->f->size == 8)) {
				op->fsize = (uint8_t)op->e->f->size;
				op->foff = (uint32_t)op->e->f->offset;
			}
			if (!op->e || (op->alt && (op->conv == 'd' ||
						   op->conv == 'i' ||
						   op->conv == 'u')))
				goto fail;
			pf->max += 24 + op->width;
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
		pf->max += op->litlen;
	}
	/* short text kept in the op, copied 16 bytes at a time */
	for (i = 0; i < pf->nops; i++)
		if (pf->ops[i].kind == PP_LIT &&
		    pf->ops[i].litlen <= sizeof(pf->ops[i].litb))
			memcpy(pf->ops[i].litb, pf->ops[i].lit,
			       pf->ops[i].litlen);
	/* and merged into the value after it: one step less */
	for (i = k = 0; i < pf->nops; i++) {
		struct perf_pop *op = &pf->ops[i];

		if (op->kind == PP_LIT && op->litlen <= sizeof(op->pre) &&
		    i + 1 < pf->nops && pf->ops[i + 1].kind != PP_LIT) {
			struct perf_pop *v = &pf->ops[++i];

			memcpy(v->pre, op->litb, sizeof(v->pre));
			v->prelen = (uint8_t)op->litlen;
			op = v;
		}
		pf->ops[k++] = *op;
	}
	pf->nops = k;
	/* a plain %x or %u of a whole field: a step of its own */
	for (i = 0; i < pf->nops; i++) {
		struct perf_pop *op = &pf->ops[i];

		if (op->kind != PP_INT || op->conv == 'X')
			continue;
		if (op->hex && op->fsize == 8 && op->mask == ~0ull)
			op->kind = PP_HEX64;
		else if (op->hex && op->fsize == 4 && op->mask >= 0xffffffffull)
			op->kind = PP_HEX32;
		else if (op->udec && op->fsize == 4 && op->mask >= 0xffffffffull)
			op->kind = PP_UDEC32;
	}
	/* the last op's 16 bytes of text, a symbol's 24 */
	pf->max += 32;
	return pf;
fail:
	perf_pfmt_free(pf);
	return NULL;
}

/* Do the fields pf reads lie inside the record? */
bool perf_pexpr_fits(const struct perf_pexpr *x, size_t size)
{
	if (!x)
		return true;
	if (x->kind == PE_FIELD &&
	    (size_t)x->f->offset + (size_t)x->f->size > size)
		return false;
	return perf_pexpr_fits(x->a, size) && perf_pexpr_fits(x->b, size) &&
	       perf_pexpr_fits(x->c, size);
}

bool perf_pstr_fits(const struct perf_pstr *ps, size_t size)
{
	if (!ps)
		return true;
	if (ps->kind == PS_FIELD &&
	    (size_t)ps->f->offset + (size_t)ps->f->size > size)
		return false;
	return perf_pexpr_fits(ps->e, size) && perf_pstr_fits(ps->yes, size) &&
	       perf_pstr_fits(ps->no, size);
}
