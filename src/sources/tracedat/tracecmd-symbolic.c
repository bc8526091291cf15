// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The names an event's print fmt gives a field's values: kvm_exit's
 *
 *   (REC->isa == 1) ? __print_symbolic(REC->exit_reason & 0xffff,
 *                                      { 0, "EXCEPTION_NMI" }, …)
 *                   : __print_symbolic(REC->exit_reason, { 0x000, … }, …)
 *
 * names exit_reason as `info` prints it. For a record, the print args are
 * followed as libtraceevent follows them (a ?: takes the branch its
 * condition picks), to the __print_symbolic of that field; its value is
 * the symbol's expression, compared with each symbol's value as
 * libtraceevent compares them (as unsigned 64-bit numbers). Only the
 * parsed print args and the record's own bytes are read: nothing of
 * libtraceevent runs, so no guard is needed.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tracecmd.h"

#define TC_SYM_DEPTH	32	/* nesting of the expressions followed */

/* Does expression a read field name? */
static bool tc_sym_reads(const struct tep_print_arg *a, const char *name,
			 unsigned depth)
{
	if (!a || depth > TC_SYM_DEPTH)
		return false;
	switch (a->type) {
	case TEP_PRINT_FIELD:
		return a->field.name && !strcmp(a->field.name, name);
	case TEP_PRINT_TYPE:
		return tc_sym_reads(a->typecast.item, name, depth + 1);
	case TEP_PRINT_OP:
		return tc_sym_reads(a->op.left, name, depth + 1) ||
		       tc_sym_reads(a->op.right, name, depth + 1);
	default:
		return false;
	}
}

/* Is there a __print_symbolic of field name in a (or after it)? */
static bool tc_sym_any(const struct tep_print_arg *a, const char *name,
		       unsigned depth)
{
	for (; a && depth <= TC_SYM_DEPTH; a = a->next) {
		switch (a->type) {
		case TEP_PRINT_SYMBOL:
			if (tc_sym_reads(a->symbol.field, name, 0))
				return true;
			break;
		case TEP_PRINT_TYPE:
			if (tc_sym_any(a->typecast.item, name, depth + 1))
				return true;
			break;
		case TEP_PRINT_OP:
			if (tc_sym_any(a->op.left, name, depth + 1) ||
			    tc_sym_any(a->op.right, name, depth + 1))
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}

struct tc_sym_rec {
	struct tep_event *e;
	const unsigned char *data;
	size_t size;
};

static int tc_sym_eval(const struct tc_sym_rec *r,
		       const struct tep_print_arg *a, unsigned long long *v,
		       unsigned depth);

/* A binary or unary operator of the print fmt's expressions. */
static int tc_sym_op(const struct tc_sym_rec *r, const struct tep_print_arg *a,
		     unsigned long long *v, unsigned depth)
{
	const char *op = a->op.op;
	unsigned long long x = 0, y = 0;

	if (!op)
		return -EINVAL;
	/* unary: libtraceevent leaves left empty */
	if (!a->op.left && (!strcmp(op, "!") || !strcmp(op, "~") ||
			    !strcmp(op, "-"))) {
		if (tc_sym_eval(r, a->op.right, &y, depth + 1) < 0)
			return -EINVAL;
		*v = op[0] == '!' ? !y : op[0] == '~' ? ~y : -y;
		return 0;
	}
	if (!strcmp(op, "?")) {
		const struct tep_print_arg *br = a->op.right;

		if (!br || br->type != TEP_PRINT_OP || !br->op.op ||
		    strcmp(br->op.op, ":") ||
		    tc_sym_eval(r, a->op.left, &x, depth + 1) < 0)
			return -EINVAL;
		return tc_sym_eval(r, x ? br->op.left : br->op.right, v,
				   depth + 1);
	}
	if (tc_sym_eval(r, a->op.left, &x, depth + 1) < 0 ||
	    tc_sym_eval(r, a->op.right, &y, depth + 1) < 0)
		return -EINVAL;
	if (!strcmp(op, "==")) *v = x == y;
	else if (!strcmp(op, "!=")) *v = x != y;
	else if (!strcmp(op, "<")) *v = x < y;
	else if (!strcmp(op, ">")) *v = x > y;
	else if (!strcmp(op, "<=")) *v = x <= y;
	else if (!strcmp(op, ">=")) *v = x >= y;
	else if (!strcmp(op, "&&")) *v = x && y;
	else if (!strcmp(op, "||")) *v = x || y;
	else if (!strcmp(op, "&")) *v = x & y;
	else if (!strcmp(op, "|")) *v = x | y;
	else if (!strcmp(op, "^")) *v = x ^ y;
	else if (!strcmp(op, "+")) *v = x + y;
	else if (!strcmp(op, "-")) *v = x - y;
	else if (!strcmp(op, "*")) *v = x * y;
	else if (!strcmp(op, "<<")) *v = y < 64 ? x << y : 0;
	else if (!strcmp(op, ">>")) *v = y < 64 ? x >> y : 0;
	else if (!strcmp(op, "/") && y) *v = x / y;
	else if (!strcmp(op, "%") && y) *v = x % y;
	else
		return -EINVAL;
	return 0;
}

/* The value of an expression for the record: 0, or -EINVAL. */
static int tc_sym_eval(const struct tc_sym_rec *r,
		       const struct tep_print_arg *a, unsigned long long *v,
		       unsigned depth)
{
	const struct tep_format_field *f;
	char *end;

	if (!a || depth > TC_SYM_DEPTH)
		return -EINVAL;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		if (!a->atom.atom)
			return -EINVAL;
		*v = strtoull(a->atom.atom, &end, 0);
		return *end ? -EINVAL : 0;
	case TEP_PRINT_FIELD:
		f = a->field.field ? a->field.field :
		    a->field.name ? tep_find_any_field(r->e, a->field.name)
				  : NULL;
		if (!f || f->size <= 0 || f->size > 8 ||
		    (size_t)f->offset + (size_t)f->size > r->size)
			return -EINVAL;
		*v = tep_read_number(r->e->tep, r->data + f->offset, f->size);
		return 0;
	case TEP_PRINT_TYPE:
		return tc_sym_eval(r, a->typecast.item, v, depth + 1);
	case TEP_PRINT_OP:
		return tc_sym_op(r, a, v, depth);
	default:
		return -EINVAL;
	}
}

/*
 * The symbol of field name that the print arg a (a ?: picking its
 * branch) gives the record: the name, "" (a symbol table of that field
 * without the value), or NULL (none here).
 */
static const char *tc_sym_in(const struct tc_sym_rec *r,
			     const struct tep_print_arg *a, const char *name,
			     unsigned depth)
{
	const struct tep_print_flag_sym *s;
	unsigned long long v, x;
	char *end;

	if (!a || depth > TC_SYM_DEPTH)
		return NULL;
	switch (a->type) {
	case TEP_PRINT_SYMBOL:
		if (!tc_sym_reads(a->symbol.field, name, 0))
			return NULL;
		if (tc_sym_eval(r, a->symbol.field, &v, 0) < 0)
			return "";
		for (s = a->symbol.symbols; s; s = s->next) {
			if (!s->value || !s->str)
				continue;
			x = strtoull(s->value, &end, 0);
			if (!*end && x == v)
				return s->str;
		}
		return "";
	case TEP_PRINT_TYPE:
		return tc_sym_in(r, a->typecast.item, name, depth + 1);
	case TEP_PRINT_OP:
		if (a->op.op && !strcmp(a->op.op, "?") && a->op.right &&
		    a->op.right->type == TEP_PRINT_OP) {
			if (tc_sym_eval(r, a->op.left, &v, 0) < 0)
				return "";
			return tc_sym_in(r, v ? a->op.right->op.left
					      : a->op.right->op.right,
					 name, depth + 1);
		}
		return NULL;
	default:
		return NULL;
	}
}

int tc_field_symbol(struct source *src, const struct event_type *t,
		    const struct event *ev, int index, struct value *out)
{
	struct tc *tc = src->priv;
	const struct tep_print_arg *a;
	const struct tep_record *rec;
	struct tc_sym_rec r;
	const char *name, *sym;

	if (index < 0 || (size_t)index >= tc->slots.n || !tc->slots.v[index].f ||
	    !t || t == &tc->unknown || t->index >= tc->ntypes)
		return -ENOENT;
	r.e = tc->types[t->index].ev;
	name = tc->slots.v[index].f->name;
	if (!r.e || !name)
		return -ENOENT;
	if (!ev)
		return tc_sym_any(r.e->print_fmt.args, name, 0) ? 0 : -ENOENT;
	rec = ev->rec;
	r.data = rec->data;
	r.size = rec->size > 0 ? (size_t)rec->size : 0;
	for (a = r.e->print_fmt.args; a; a = a->next) {
		sym = tc_sym_in(&r, a, name, 0);
		if (sym && *sym) {
			value_set_str(out, sym, strlen(sym));
			return 0;
		}
		if (sym)
			return -ENOENT;
	}
	return -ENOENT;
}
