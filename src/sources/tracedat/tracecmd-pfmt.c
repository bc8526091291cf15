// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libtraceevent's text of an event without a plugin, made from its print
 * fmt compiled once a type: most kvm events (kvm_fpu, kvm_pio,
 * kvm_userspace_exit, ...) print through pretty_print(), whose every %s
 * allocates and frees a 4 KiB trace_seq and whose every number goes
 * through vsnprintf(): about 500 ns an event, most of what --live spent
 * beside a guest making exits in a loop. (src/sources/perf/perf-print.c
 * does the same for perf.data samples, as perf's own libtraceevent
 * prints them.)
 *
 * What is compiled is what libtraceevent 1.7 and 1.8 (event-parse.c:
 * parse_args(), eval_num_arg(), print_str_arg(), print_arg_number())
 * print the same way, and nothing else; a type with anything more goes
 * through tep_print_event() as before:
 *
 * - the format: text (\n, \t, \r, \\ and \c as c, %% as %), numbers as
 *   %[-0][width][hh|h|l|ll]{d,i,u,x,X}, strings as a bare %s;
 * - numbers (all unsigned 64-bit, as eval_num_arg() reads them: a field
 *   of 1, 2, 4 or 8 bytes zero-extended whatever its sign, a numeric
 *   atom by strtoull(), ?:, the operators + - * / % & | && || << >> ==
 *   != < <= > >= and the unary - ~ ! with libtraceevent's empty left
 *   side as 0); a number is cast as print_arg_number() casts it (hh:
 *   char, h: short, none: int, l and ll: 64 bits) and printed as printf
 *   prints that;
 * - strings: an atom ("write"), ?: of strings, __print_symbolic() (the
 *   first symbol whose value, eval_flag() of its text, equals the value
 *   as a signed 64-bit number, else 0x%llx of it) and __print_flags()
 *   (print_str_arg()'s loop, delimiter and rest as 0x%llx); an operator
 *   other than ?: prints nothing there, as in libtraceevent.
 *
 * Not compiled: events with a handler (a plugin's), flags (ftrace,
 * print, bprint, raw, failed), typecasts, arrays, strings of the record
 * (__get_str, char[]), pointers (%p), %c, '#', '+', ' ', precision, '*'
 * and a symbol value named by a word (eval_flag() looks those up in a
 * table of its own). Per record: a record shorter than the fields read,
 * a division by zero or a shift of 64 or more go to tep_print_event()
 * (which reads 0, traps or shifts as the machine does).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tracecmd-pfmt-int.h"

/* Grow an array to hold one more of size; its index, or -1. */
static int32_t tc_pf_grow(void **v, uint32_t *n, size_t size)
{
	void *nv;

	if (*n >= 4096)
		return -1;
	nv = realloc(*v, (*n + 1) * size);
	if (!nv)
		return -1;
	*v = nv;
	return (int32_t)(*n)++;
}

static int32_t tc_pf_node(struct tc_pfmt *pf, uint8_t kind)
{
	int32_t i = tc_pf_grow((void **)&pf->nodes, &pf->nnodes,
			       sizeof(*pf->nodes));

	if (i >= 0)
		pf->nodes[i] = (struct tc_pf_node){ .kind = kind, .a = -1,
						    .b = -1, .c = -1 };
	return i;
}

/*
 * An atom's number as eval_num_arg() makes it: strtoull() ("-4" is
 * 2^64 - 4); false for one that gives 0 and is not a number
 * (test_for_symbol() looks it up in kallsyms).
 */
static bool tc_pf_atom(const char *s, uint64_t *v)
{
	if (!s)
		return false;
	*v = strtoull(s, NULL, 0);
	return *v || isdigit((unsigned char)s[0]);
}

/* eval_num_arg() of a, compiled: a node, or -1 (not compiled). */
static int32_t tc_pf_num(struct tc_pfmt *pf, struct tep_event *e,
			 struct tep_print_arg *a, unsigned depth)
{
	struct tep_format_field *f;
	const char *op;
	int32_t i, l, r, c;
	uint64_t v;

	if (!a || depth > TC_PF_DEPTH)
		return -1;
	switch (a->type) {
	case TEP_PRINT_NULL:
		i = tc_pf_node(pf, TC_PFN_CONST);
		return i;
	case TEP_PRINT_ATOM:
		if (!tc_pf_atom(a->atom.atom, &v))
			return -1;
		i = tc_pf_node(pf, TC_PFN_CONST);
		if (i >= 0)
			pf->nodes[i].val = v;
		return i;
	case TEP_PRINT_FIELD:
		f = a->field.field;
		if (!f && a->field.name)
			f = tep_find_any_field(e, a->field.name);
		if (!f || f->offset < 0 ||
		    (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING |
				 TEP_FIELD_IS_DYNAMIC |
				 TEP_FIELD_IS_RELATIVE)) ||
		    (f->size != 1 && f->size != 2 && f->size != 4 &&
		     f->size != 8) ||
		    f->offset > 65536)
			return -1;
		i = tc_pf_node(pf, TC_PFN_FIELD);
		if (i < 0)
			return -1;
		pf->nodes[i].off = (uint32_t)f->offset;
		pf->nodes[i].size = (uint8_t)f->size;
		if ((uint32_t)(f->offset + f->size) > pf->need)
			pf->need = (uint32_t)(f->offset + f->size);
		return i;
	case TEP_PRINT_OP:
		op = a->op.op;
		if (!op || !op[0])
			return -1;
		if (!strcmp(op, "?")) {
			if (!a->op.right || a->op.right->type != TEP_PRINT_OP ||
			    !a->op.right->op.op ||
			    strcmp(a->op.right->op.op, ":"))
				return -1;
			c = tc_pf_num(pf, e, a->op.left, depth + 1);
			l = tc_pf_num(pf, e, a->op.right->op.left, depth + 1);
			r = tc_pf_num(pf, e, a->op.right->op.right, depth + 1);
			if (c < 0 || l < 0 || r < 0)
				return -1;
			i = tc_pf_node(pf, TC_PFN_COND);
			if (i >= 0) {
				pf->nodes[i].a = c;
				pf->nodes[i].b = l;
				pf->nodes[i].c = r;
			}
			return i;
		}
		/* the operators eval_num_arg() knows (op[0], op[1]) */
		if (strlen(op) > 2)
			return -1;
		switch (op[0]) {
		case '!':
		case '<':
		case '>':
			if (op[1] && op[1] != '=' && op[1] != op[0])
				return -1;
			if (op[0] == '!' && op[1] == '!')
				return -1;
			break;
		case '=':
			if (op[1] != '=')
				return -1;
			break;
		case '|':
		case '&':
			if (op[1] && op[1] != op[0])
				return -1;
			break;
		case '~':
		case '-':
		case '+':
		case '/':
		case '%':
		case '*':
			if (op[1])
				return -1;
			break;
		default:
			return -1;	/* '[', '^' and others */
		}
		l = tc_pf_num(pf, e, a->op.left, depth + 1);
		r = tc_pf_num(pf, e, a->op.right, depth + 1);
		if (l < 0 || r < 0)
			return -1;
		i = tc_pf_node(pf, TC_PFN_OP);
		if (i >= 0) {
			pf->nodes[i].op[0] = op[0];
			pf->nodes[i].op[1] = op[1];
			pf->nodes[i].a = l;
			pf->nodes[i].b = r;
		}
		return i;
	default:
		return -1;
	}
}

/* eval_flag() of a symbol's value; false: a word (its own table) */
static bool tc_pf_flag(const char *s, int64_t *v)
{
	if (!s)
		return false;
	if (isdigit((unsigned char)s[0])) {
		*v = (int64_t)strtoull(s, NULL, 0);
		return true;
	}
	if (isalpha((unsigned char)s[0]) || s[0] == '_')
		return false;
	*v = -1;
	return true;
}

/* The symbols or flags of list into syms: false when one is not known. */
static bool tc_pf_syms(struct tc_pfmt *pf, struct tep_print_flag_sym *list,
		       uint32_t *first, uint32_t *n, size_t *maxlen,
		       size_t *sumlen)
{
	int32_t i;

	*first = pf->nsyms;
	*n = 0;
	*maxlen = 0;
	*sumlen = 0;
	for (; list; list = list->next) {
		if (!list->str)
			return false;
		i = tc_pf_grow((void **)&pf->syms, &pf->nsyms,
			       sizeof(*pf->syms));
		if (i < 0 || !tc_pf_flag(list->value, &pf->syms[i].val))
			return false;
		pf->syms[i].s = list->str;
		pf->syms[i].len = strlen(list->str);
		if (pf->syms[i].len > *maxlen)
			*maxlen = pf->syms[i].len;
		*sumlen += pf->syms[i].len;
		(*n)++;
	}
	return true;
}

/*
 * print_str_arg() of a, compiled: a string, or -1; *max: the longest text
 * it may print
 */
static int32_t tc_pf_str(struct tc_pfmt *pf, struct tep_event *e,
			 struct tep_print_arg *a, size_t *max, unsigned depth)
{
	struct tc_pf_str s = { .a = -1, .b = -1, .num = -1 };
	size_t la, lb, sum;
	int32_t i;

	if (!a || depth > TC_PF_DEPTH)
		return -1;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		if (!a->atom.atom)
			return -1;
		s.kind = TC_PFS_ATOM;
		s.s = a->atom.atom;
		s.len = strlen(s.s);
		*max = s.len;
		break;
	case TEP_PRINT_OP:
		if (!a->op.op || a->op.op[0] != '?') {
			s.kind = TC_PFS_NONE;
			*max = 0;
			break;
		}
		if (!a->op.right || a->op.right->type != TEP_PRINT_OP)
			return -1;
		s.kind = TC_PFS_COND;
		s.num = tc_pf_num(pf, e, a->op.left, depth + 1);
		s.a = tc_pf_str(pf, e, a->op.right->op.left, &la, depth + 1);
		s.b = tc_pf_str(pf, e, a->op.right->op.right, &lb, depth + 1);
		if (s.num < 0 || s.a < 0 || s.b < 0)
			return -1;
		*max = la > lb ? la : lb;
		break;
	case TEP_PRINT_SYMBOL:
		s.kind = TC_PFS_SYMBOL;
		s.num = tc_pf_num(pf, e, a->symbol.field, depth + 1);
		if (s.num < 0 || !tc_pf_syms(pf, a->symbol.symbols, &s.first,
					     &s.n, max, &sum))
			return -1;
		if (*max < 18)
			*max = 18;	/* 0x%llx */
		break;
	case TEP_PRINT_FLAGS:
		s.kind = TC_PFS_FLAGS;
		s.num = tc_pf_num(pf, e, a->flags.field, depth + 1);
		if (s.num < 0 || !tc_pf_syms(pf, a->flags.flags, &s.first,
					     &s.n, &la, &sum))
			return -1;
		s.s = a->flags.delim ? a->flags.delim : "";
		s.len = a->flags.delim ? strlen(a->flags.delim) : 0;
		*max = sum + (s.n + 1) * s.len + 18;
		break;
	default:
		return -1;
	}
	i = tc_pf_grow((void **)&pf->strs, &pf->nstrs, sizeof(*pf->strs));
	if (i >= 0)
		pf->strs[i] = s;
	return i;
}

static bool tc_pf_lit(struct tc_pfmt *pf, char c)
{
	uint32_t n = (uint32_t)pf->nlits;
	int32_t i = tc_pf_grow((void **)&pf->lits, &n, 1);

	if (i < 0)
		return false;
	pf->lits[i] = c;
	pf->nlits = n;
	return true;
}

static struct tc_pf_piece *tc_pf_piece(struct tc_pfmt *pf, uint8_t kind)
{
	int32_t i = tc_pf_grow((void **)&pf->p, &pf->np, sizeof(*pf->p));

	if (i < 0)
		return NULL;
	pf->p[i] = (struct tc_pf_piece){ .kind = kind };
	return &pf->p[i];
}

/*
 * parse_arg_string(): text up to a lone '%'; *f moved past it. False on a
 * backslash that ends the format (libtraceevent reads past its end).
 */
static bool tc_pf_text(struct tc_pfmt *pf, const char **f, size_t *total)
{
	const char *s = *f;
	struct tc_pf_piece *p = tc_pf_piece(pf, TC_PFP_TEXT);
	char c;

	if (!p)
		return false;
	p->off = pf->nlits;
	for (; *s; s++) {
		c = *s;
		if (c == '\\') {
			s++;
			switch (*s) {
			case '\0':
				return false;
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case 'r':
				c = '\r';
				break;
			default:
				c = *s;
				break;
			}
		} else if (c == '%') {
			if (s[1] != '%')
				break;
			s++;
		}
		if (!tc_pf_lit(pf, c))
			return false;
	}
	/* pf->p may have moved */
	p = &pf->p[pf->np - 1];
	p->len = pf->nlits - p->off;
	*total += p->len;
	*f = s;
	return true;
}

/* A conversion at *f ('%'): compiled with its argument, *f past it. */
static bool tc_pf_conv(struct tc_pfmt *pf, struct tep_event *e,
		       const char **f, struct tep_print_arg **arg,
		       size_t *total)
{
	const char *s = *f + 1;
	struct tc_pf_piece *p;
	unsigned width = 0;
	bool left = false, zero = false;
	int ls = 0;
	size_t max;
	int32_t i;

	if (*s == 's') {
		if (!*arg)
			return false;
		i = tc_pf_str(pf, e, *arg, &max, 0);
		p = i >= 0 ? tc_pf_piece(pf, TC_PFP_STR) : NULL;
		if (!p)
			return false;
		p->idx = i;
		*total += max;
		*arg = (*arg)->next;
		*f = s + 1;
		return true;
	}
	for (; *s == '-' || *s == '0'; s++) {
		if (*s == '-')
			left = true;
		else
			zero = true;
	}
	for (; *s >= '0' && *s <= '9'; s++) {
		width = width * 10 + (unsigned)(*s - '0');
		if (width > TC_PF_WIDTH)
			return false;
	}
	if (s[0] == 'h') {
		ls = s[1] == 'h' ? -2 : -1;
		s += s[1] == 'h' ? 2 : 1;
	} else if (s[0] == 'l') {
		ls = s[1] == 'l' ? 2 : 1;
		s += s[1] == 'l' ? 2 : 1;
	}
	if (!*s || !strchr("diuxX", *s) || !*arg)
		return false;
	i = tc_pf_num(pf, e, *arg, 0);
	p = i >= 0 ? tc_pf_piece(pf, TC_PFP_NUM) : NULL;
	if (!p)
		return false;
	p->conv = *s;
	p->bits = ls == -2 ? 8 : ls == -1 ? 16 : ls == 0 ? 32 : 64;
	p->left = left;
	p->zero = zero && !left;
	p->width = (uint8_t)width;
	p->idx = i;
	*total += (width > 21 ? width : 21);
	*arg = (*arg)->next;
	*f = s + 1;
	return true;
}

void tc_pfmt_free(struct tc_pfmt *pf)
{
	if (!pf)
		return;
	free(pf->p);
	free(pf->nodes);
	free(pf->strs);
	free(pf->syms);
	free(pf->lits);
	free(pf->text);
	free(pf);
}

struct tc_pfmt *tc_pfmt_create(const struct tc *tc, struct tep_event *e)
{
	struct tep_print_arg *arg;
	struct tc_pfmt *pf;
	const char *f;
	size_t total = 0;
	char *lits;

	if (!e || !e->print_fmt.format || e->handler || e->flags)
		return NULL;
	/* print_arg_number() casts %l to long: 64 bits here */
	if (sizeof(long) != 8)
		return NULL;
	pf = calloc(1, sizeof(*pf));
	if (!pf)
		return NULL;
	pf->tc = tc;
	f = e->print_fmt.format;
	arg = e->print_fmt.args;
	while (*f) {
		if (*f == '%' && f[1] != '%') {
			if (!tc_pf_conv(pf, e, &f, &arg, &total))
				goto refuse;
		} else if (!tc_pf_text(pf, &f, &total)) {
			goto refuse;
		}
		if (total > TC_PF_TEXT)
			goto refuse;
	}
	pf->cap = total + 1;
	pf->text = malloc(pf->cap + TC_PF_SLACK);
	lits = realloc(pf->lits, pf->nlits + TC_PF_SLACK);
	if (!pf->text || !lits)
		goto refuse;
	pf->lits = lits;
	memset(pf->lits + pf->nlits, 0, TC_PF_SLACK);
	return pf;
refuse:
	tc_pfmt_free(pf);
	return NULL;
}
