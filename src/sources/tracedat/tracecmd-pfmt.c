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

#include "pyfmt.h"
#include "tracecmd.h"

#define TC_PF_DEPTH	32	/* nesting of the expressions compiled */
#define TC_PF_WIDTH	64	/* widest number field compiled */
#define TC_PF_TEXT	16384	/* longest text compiled */
#define TC_PF_SLACK	16	/* bytes after the text and the literals:
				 * short pieces are copied 16 at a time */

enum tc_pf_nkind {
	TC_PFN_CONST,		/* val */
	TC_PFN_FIELD,		/* size bytes at off */
	TC_PFN_COND,		/* a ? b : c */
	TC_PFN_OP,		/* a op b */
};

struct tc_pf_node {
	uint8_t kind;
	char op[2];
	uint8_t size;
	uint32_t off;
	int32_t a, b, c;	/* nodes */
	uint64_t val;
};

enum tc_pf_skind {
	TC_PFS_ATOM,		/* s, len */
	TC_PFS_NONE,		/* an operator other than ?: prints nothing */
	TC_PFS_COND,		/* num ? a : b (strings) */
	TC_PFS_SYMBOL,		/* of num: syms[first .. first + n) */
	TC_PFS_FLAGS,		/* of num: syms[...], s/len the delimiter */
};

struct tc_pf_str {
	uint8_t kind;
	int32_t num;		/* node */
	int32_t a, b;		/* strings */
	uint32_t first, n;	/* syms */
	const char *s;		/* borrowed from tep */
	size_t len;
};

struct tc_pf_sym {
	int64_t val;		/* eval_flag() of its value */
	const char *s;		/* borrowed from tep */
	size_t len;
};

enum tc_pf_pkind { TC_PFP_TEXT, TC_PFP_NUM, TC_PFP_STR };

struct tc_pf_piece {
	uint8_t kind;
	char conv;		/* d i u x X */
	uint8_t bits;		/* 8 16 32 64 */
	bool left, zero;	/* '-', '0' */
	uint8_t width;
	int32_t idx;		/* node (NUM), string (STR) */
	size_t off, len;	/* TEXT: in lits */
};

struct tc_pfmt {
	struct tc_pf_piece *p;		/* owned */
	struct tc_pf_node *nodes;	/* owned */
	struct tc_pf_str *strs;		/* owned */
	struct tc_pf_sym *syms;		/* owned */
	uint32_t np, nnodes, nstrs, nsyms;
	char *lits;			/* owned: the text pieces, unescaped */
	size_t nlits;
	uint32_t need;			/* record bytes the fields read */
	char *text;			/* owned: the event's text */
	size_t cap;			/* its size */
	const struct tc *tc;		/* borrowed: byte order */
};

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
