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

#include "perf-int.h"

enum {
	PP_LIT = 0,	/* text */
	PP_INT,		/* a number: %d %i %u %x %X */
	PP_STR,		/* a string: %s */
};

/* A number, as libtraceevent's eval_num_arg() computes it. */
enum {
	PE_FIELD = 0,	/* a numeric field, read unsigned */
	PE_CONST,
	PE_OP,		/* op[] of a and b (a: 0 for a unary op) */
	PE_COND,	/* a ? b : c */
};

struct perf_pexpr {
	uint8_t kind;
	char op[3];
	const struct tep_format_field *f;	/* borrowed from tep */
	uint64_t val;
	struct perf_pexpr *a, *b, *c;		/* owned */
};

struct perf_sym {
	uint64_t val;
	const char *str;	/* borrowed from tep */
	size_t len;
	size_t ord;		/* its place in the list */
};

/* A string, as libtraceevent's print_str_arg() prints it. */
enum {
	PS_ATOM = 0,	/* a literal */
	PS_FIELD,	/* a char array field, to its first NUL */
	PS_SYM,		/* __print_symbolic(e, …) */
	PS_FLAGS,	/* __print_flags(e, delim, …) */
	PS_COND,	/* e ? yes : no */
};

struct perf_pstr {
	uint8_t kind;
	const char *s;			/* PS_ATOM, PS_FLAGS' delim: borrowed */
	size_t len;
	const struct tep_format_field *f;	/* PS_FIELD */
	struct perf_pexpr *e;		/* owned */
	struct perf_sym *syms;		/* owned: PS_SYM sorted, PS_FLAGS in order */
	size_t nsyms;
	struct perf_pstr *yes, *no;	/* owned: PS_COND */
	size_t max;			/* the most it prints, padding aside */
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
	bool hex;		/* a plain %x or %X: perf_pp_hexs() */
	uint8_t fsize;		/* e is a field of this size (0: it is not) */
	uint32_t foff;		/* and at this offset */
	uint64_t mask;		/* the bits of the value printed by hex */
	const char *lit;	/* PP_LIT: borrowed from the format */
	size_t litlen;
	char litb[16];		/* lit, when litlen fits, then zeros */
	struct perf_pexpr *e;	/* owned: PP_INT */
	struct perf_pstr *str;	/* owned: PP_STR */
};

struct perf_pfmt {
	struct perf_pop *ops;	/* owned */
	size_t nops;
	size_t max;		/* the most the text takes */
};

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

static void perf_pfmt_free(struct perf_pfmt *pf)
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
static struct perf_pfmt *perf_pfmt_make(struct tep_event *e, int long_size)
{
	const struct tep_print_arg *a = e->print_fmt.args;
	const char *f = e->print_fmt.format, *lit;
	struct perf_pfmt *pf;
	size_t cap, i;

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
	pf->max += sizeof(pf->ops[0].litb);
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

/* The 8 hex digits of x into b, most significant first. */
static inline void perf_hex8(char *b, uint32_t x, bool upper)
{
	uint64_t y = x, c;

	/* nibble i into byte i, then each to its digit */
	y = (y | y << 16) & 0x0000ffff0000ffffull;
	y = (y | y << 8) & 0x00ff00ff00ff00ffull;
	y = (y | y << 4) & 0x0f0f0f0f0f0f0f0full;
	c = ((y + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull;
	y += 0x3030303030303030ull + c * (upper ? 7 : 39);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	y = __builtin_bswap64(y);
	memcpy(b, &y, 8);
#else
	for (int i = 7; i >= 0; i--, y >>= 8)
		b[i] = (char)(y & 0xff);
#endif
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
static char *perf_pp_hexs(char *b, uint64_t v, bool upper)
{
	size_t n = v ? (size_t)(67 - __builtin_clzll(v)) / 4 : 1;

	if (n <= 8) {
		perf_hex8(b, (uint32_t)v << (4 * (8 - n)), upper);
	} else {
		perf_hex8(b, (uint32_t)(v >> 32) << (4 * (16 - n)), upper);
		perf_hex8(b + n - 8, (uint32_t)v, upper);
	}
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
		if (!perf_pexpr_eval(p, ps->e, r, &v))
			return NULL;
		sym = perf_pp_sym(ps, v);
		/* no symbol: "0x%llx", without the width */
		return sym ? perf_pp_pad(b, op, sym->str, sym->len)
			   : perf_pp_hex(b, v);
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

/* Do the fields pf reads lie inside the record? */
static bool perf_pexpr_fits(const struct perf_pexpr *x, size_t size)
{
	if (!x)
		return true;
	if (x->kind == PE_FIELD &&
	    (size_t)x->f->offset + (size_t)x->f->size > size)
		return false;
	return perf_pexpr_fits(x->a, size) && perf_pexpr_fits(x->b, size) &&
	       perf_pexpr_fits(x->c, size);
}

static bool perf_pstr_fits(const struct perf_pstr *ps, size_t size)
{
	if (!ps)
		return true;
	if (ps->kind == PS_FIELD &&
	    (size_t)ps->f->offset + (size_t)ps->f->size > size)
		return false;
	return perf_pexpr_fits(ps->e, size) && perf_pstr_fits(ps->yes, size) &&
	       perf_pstr_fits(ps->no, size);
}

size_t perf_print_room(struct perf *p, struct perf_attr *at)
{
	size_t size = p->cur.raw_size, i;
	struct perf_pfmt *pf;

	if (!at->pf_tried) {
		at->pf_tried = true;
		at->pf = at->tp ? perf_pfmt_make(at->tp, tep_get_long_size(p->tep))
				: NULL;
		if (at->pf)
			at->pf_size = SIZE_MAX;	/* none checked yet */
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

char *perf_print_to(struct perf *p, struct perf_attr *at, char *b)
{
	const unsigned char *raw = p->cur.raw;
	const struct perf_pfmt *pf = at->pf;
	const struct perf_pop *op, *end = pf->ops + pf->nops;
	uint64_t v;

	for (op = pf->ops; op < end && b; op++) {
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
			b = op->hex ? perf_pp_hexs(b, v & op->mask,
						   op->conv == 'X')
				    : perf_pp_int(b, op, v);
			break;
		case PP_STR:
			b = perf_pp_str(p, op, op->str, raw, b);
			break;
		}
	}
	return b;
}

const char *perf_print_fast(struct perf *p, struct perf_attr *at, size_t *len)
{
	size_t room = perf_print_room(p, at);
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
	b = perf_print_to(p, at, p->ppbuf);
	if (!b)
		return NULL;
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
