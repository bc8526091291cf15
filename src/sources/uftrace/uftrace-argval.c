// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uftrace: the argument and return values of a record, read by its specs
 * and written the way uftrace writes them: `uftrace dump` ("  args[0]
 * d32: 0x0000001b") for the default text, `uftrace replay` ("27, \"x\"")
 * for the template key args, typed values for argN and retval.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outbuf.h"
#include "uftrace-int.h"

/* One value of a payload: its spec and its bytes. */
struct uft_val {
	const struct uft_arg *a;
	const unsigned char *p;	/* strings: the text */
	uint32_t n;		/* bytes at p */
};

static bool uft_is_str(const struct uft_arg *a)
{
	return a->fmt == UFT_AF_STR || a->fmt == UFT_AF_STDSTR;
}

/*
 * The values of the current record (arguments of an entry, return values
 * of an exit), in payload order. Returns how many (at most max).
 */
static size_t uft_values(const struct uftrace *uf, const struct uft_cur *c,
			 struct uft_val *v, size_t max)
{
	const unsigned char *p = c->pay, *end;
	bool ret = c->rec.type == UFT_EXIT;
	size_t i, n = 0;

	/*
	 * no payload (pay NULL: NULL + 0 is undefined), or one of 0 bytes
	 * (pay then the buffer of an event before, or none: the values
	 * must not depend on which): there is nothing
	 */
	if (!c->av || !c->rec.more || !c->pay || !c->paylen)
		return 0;
	end = c->pay + c->paylen;
	for (i = 0; i < c->av->n && n < max; i++) {
		const struct uft_arg *a = &c->av->v[i];
		uint32_t size = a->size;

		if ((a->idx == UFT_RETVAL_IDX) != ret)
			continue;
		if (uft_is_str(a)) {
			if (end - p < 2)
				break;
			size = uft_u16(uf, p);
			if ((size_t)(end - p - 2) < size)
				break;
			v[n] = (struct uft_val){ a, p + 2, size };
			size += 2;
		} else {
			if ((size_t)(end - p) < size)
				break;
			v[n] = (struct uft_val){ a, p, size };
		}
		n++;
		p += UFT_ALIGN(size, 4);
	}
	return n;
}

/* An integer value of up to 8 bytes, zero-extended. */
static uint64_t uft_val_u64(const struct uftrace *uf, const struct uft_val *v)
{
	switch (v->n) {
	case 1:
		return v->p[0];
	case 2:
		return uft_u16(uf, v->p);
	case 4:
		return uft_u32(uf, v->p);
	case 8:
		return uft_u64(uf, v->p);
	}
	return 0;
}

static int64_t uft_sext(uint64_t u, uint32_t size)
{
	if (size >= 8 || !size)
		return (int64_t)u;
	if (u & (UINT64_C(1) << (size * 8 - 1)))
		u |= ~UINT64_C(0) << (size * 8);
	return (int64_t)u;
}

static double uft_val_double(const struct uftrace *uf, const struct uft_val *v)
{
	if (v->n == 4) {
		uint32_t u = uft_u32(uf, v->p);
		float f;

		memcpy(&f, &u, 4);
		return f;
	}
	if (v->n == 8) {
		uint64_t u = uft_u64(uf, v->p);
		double d;

		memcpy(&d, &u, 8);
		return d;
	}
	if (v->n == 10) {
		long double ld = 0;

		memcpy(&ld, v->p, 10);
		return (double)ld;
	}
	return 0;
}

/* uftrace's NULL string: the four bytes of (int)-1 */
static bool uft_null_str(const struct uft_val *v)
{
	return v->n == 4 && !memcmp(v->p, "\xff\xff\xff\xff", 4);
}

/* The text of a string value up to its first NUL, as uftrace copies it. */
static uint32_t uft_str_len(const struct uft_val *v)
{
	const unsigned char *z = memchr(v->p, '\0', v->n);

	return z ? (uint32_t)(z - v->p) : v->n;
}

/* A growing text in c->text (a failed allocation cuts it short). */
void uft_tadd(struct uft_cur *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = c->textcap - c->textlen;
		char *nt;

		va_start(ap, fmt);
		n = vsnprintf(c->text ? c->text + c->textlen : NULL,
			      c->text ? room : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (c->text && (size_t)n < room) {
			c->textlen += (size_t)n;
			return;
		}
		nt = realloc(c->text, c->textlen + (size_t)n + 256);
		if (!nt)
			return;
		c->text = nt;
		c->textcap = c->textlen + (size_t)n + 256;
	}
}

/* The symbol a pointer value points into, as uftrace looks it up. */
static const char *uft_ptr_sym(struct uftrace *uf, struct uft_cur *c,
			       uint64_t val)
{
	struct uft_symtab *mod;
	struct uft_sym *sym;

	if (!val)
		return NULL;
	sym = uft_resolve(uf, c->task, c->rec.ts, val, &mod);
	return sym ? sym->name : NULL;
}

/*
 * The module of the current record's function, whose NAME.dbg holds the
 * enums of its specs (uftrace looks the enum up in the map of
 * rstack->addr); NULL when no map holds it.
 */
static struct uft_symtab *uft_fn_module(struct uftrace *uf, struct uft_cur *c)
{
	struct uft_symtab *mod = NULL;

	uft_resolve(uf, c->task, c->rec.ts, c->rec.addr, &mod);
	if (mod && !mod->dbg_loaded)
		uft_load_dbg(uf, mod);
	return mod;
}

/* An enum value as uftrace prints it (get_enum_string()), into c->text. */
static void uft_enum_tadd(struct uftrace *uf, struct uft_cur *c,
			  const struct uft_symtab *mod, const struct uft_arg *a,
			  int val)
{
	char buf[256];
	size_t n = uft_enum_text(uf, mod, a->tname, val, buf, sizeof(buf));

	if (n < sizeof(buf)) {
		uft_tadd(c, "%s", buf);
		return;
	}
	{
		char *big = malloc(n + 1);

		if (!big)
			return;
		uft_enum_text(uf, mod, a->tname, val, big, n + 1);
		uft_tadd(c, "%s", big);
		free(big);
	}
}

/* One value as `uftrace replay` writes it (cmds/replay.c). */
static void uft_replay_val(struct uftrace *uf, struct uft_cur *c,
			   const struct uft_val *v)
{
	const struct uft_arg *a = v->a;
	uint64_t u = uft_val_u64(uf, v);
	char fmt = UFT_AF_CHARS[a->fmt];
	struct uft_symtab *mod;
	const char *name;
	uint32_t i, n;

	switch (a->fmt) {
	case UFT_AF_STR:
	case UFT_AF_STDSTR:
		if (uft_null_str(v)) {
			uft_tadd(c, "NULL");
			break;
		}
		n = uft_str_len(v);
		uft_tadd(c, "\"");
		for (i = 0; i < n && !(v->p[i] & 0x80); i++)
			;
		if (i < n) {
			uft_tadd(c, "%.*s", (int)n, (const char *)v->p);
		} else {
			for (i = 0; i < n; i++) {
				if (v->p[i] == '\b')
					uft_tadd(c, "\\b");
				else if (v->p[i] == '\n')
					uft_tadd(c, "\\n");
				else
					uft_tadd(c, "%c", v->p[i]);
			}
		}
		uft_tadd(c, a->fmt == UFT_AF_STDSTR ? "\"s" : "\"");
		break;
	case UFT_AF_CHAR:
		if (!v->p[0])
			uft_tadd(c, "'\\0'");
		else if (v->p[0] == '\b')
			uft_tadd(c, "'\\b'");
		else if (v->p[0] == '\n')
			uft_tadd(c, "'\\n'");
		else
			uft_tadd(c, "'%c'", v->p[0]);
		break;
	case UFT_AF_FLOAT:
		uft_tadd(c, "%#f", uft_val_double(uf, v));
		break;
	case UFT_AF_PTR:
		name = uft_ptr_sym(uf, c, u);
		if (name)
			uft_tadd(c, "&%s", name);
		else if (u)
			uft_tadd(c, "0x%" PRIx64, u);
		else
			uft_tadd(c, "0");
		break;
	case UFT_AF_STRUCT:
		if (a->tname && strcmp(a->tname, "<lambda"))
			uft_tadd(c, "%s", a->tname);
		uft_tadd(c, a->size ? "{...}" : "{}");
		break;
	case UFT_AF_ENUM:
		mod = uft_fn_module(uf, c);
		if (mod)
			uft_enum_tadd(uf, c, mod, a, (int)u);
		else
			uft_tadd(c, "<ENUM?> %x", (unsigned)u);
		break;
	default:
		if (a->fmt == UFT_AF_AUTO &&
		    ((int64_t)u > 100000 || (int64_t)u < -100000)) {
			/* small negative 32-bit values, naturally */
			if (u > 0xffff0000u && u <= 0xffffffffu) {
				uft_tadd(c, "%d", (int)(int32_t)(uint32_t)u);
				break;
			}
			fmt = 'x';
		}
		if (a->fmt == UFT_AF_UINT && u > 100000)
			fmt = 'x';
		if (fmt == 'd' || fmt == 'i')
			uft_tadd(c, "%" PRId64, uft_sext(u, a->size));
		else if (fmt == 'x' && u)
			uft_tadd(c, "%#" PRIx64, u);
		else
			uft_tadd(c, "%" PRIu64, u);
		break;
	}
}

/* args: the arguments of an entry as `uftrace replay` lists them. */
int uft_args_text(struct uftrace *uf, struct uft_cur *c, bool retval,
		  struct value *out)
{
	struct uft_val v[UFT_MAX_VALUES];
	size_t n, i;

	c->textlen = 0;
	n = (c->rec.type == UFT_EXIT) == retval ?
		    uft_values(uf, c, v, UFT_MAX_VALUES) : 0;
	for (i = 0; i < n && (!retval || i < 1); i++) {
		if (i)
			uft_tadd(c, ", ");
		uft_replay_val(uf, c, &v[i]);
	}
	value_set_str(out, c->text ? c->text : "", c->textlen);
	return 0;
}

/* argN (N from 1): the N-th value of an entry; 0: the return value. */
int uft_arg_value(struct uftrace *uf, struct uft_cur *c, size_t nth,
		  struct value *out)
{
	struct uft_val v[UFT_MAX_VALUES];
	const struct uft_val *x;
	size_t n;
	uint64_t u;

	value_set_str(out, "", 0);
	if ((c->rec.type == UFT_EXIT) != (nth == 0))
		return 0;
	n = uft_values(uf, c, v, UFT_MAX_VALUES);
	if (nth ? nth > n : !n)
		return 0;
	x = &v[nth ? nth - 1 : 0];
	u = uft_val_u64(uf, x);
	switch (x->a->fmt) {
	case UFT_AF_STR:
	case UFT_AF_STDSTR:
		if (uft_null_str(x))
			value_set_str(out, "NULL", 4);
		else
			value_set_str(out, (const char *)x->p, uft_str_len(x));
		break;
	case UFT_AF_CHAR:
		value_set_str(out, (const char *)x->p, 1);
		break;
	case UFT_AF_FLOAT:
		value_set_float(out, uft_val_double(uf, x));
		break;
	case UFT_AF_AUTO:
	case UFT_AF_SINT:
		value_set_s64(out, uft_sext(u, x->a->size));
		break;
	case UFT_AF_ENUM:
	case UFT_AF_STRUCT:
		c->textlen = 0;
		uft_replay_val(uf, c, x);
		value_set_str(out, c->text ? c->text : "", c->textlen);
		break;
	default:
		value_set_u64(out, u);
		break;
	}
	return 0;
}

/*
 * The lines `uftrace dump` writes after an entry or exit with values
 * (cmds/dump.c: pr_args(), pr_retval()); time is the record's time
 * stamp as printed, with the tid.
 */
int uft_dump_values(struct uftrace *uf, struct uft_cur *c, const char *time,
		    size_t timelen, struct outbuf *o)
{
	struct uft_val v[UFT_MAX_VALUES];
	bool ret = c->rec.type == UFT_EXIT;
	size_t n, i;
	uint32_t k;

	if (!c->rec.more || !c->av ||
	    (c->rec.type != UFT_ENTRY && c->rec.type != UFT_EXIT))
		return 0;
	n = uft_values(uf, c, v, UFT_MAX_VALUES);
	c->textlen = 0;
	uft_tadd(c, "%.*s%s: [%s] length = %" PRIu32 "\n", (int)timelen, time,
		 c->task->tid_text, ret ? "retval" : "args ", c->arglen);
	for (i = 0; i < n; i++) {
		const struct uft_arg *a = v[i].a;
		uint64_t u = uft_val_u64(uf, &v[i]);
		struct uft_symtab *mod;
		char head[32];
		const char *name;

		if (ret)
			snprintf(head, sizeof(head), "  retval");
		else
			snprintf(head, sizeof(head), "  args[%zu]", i);
		switch (a->fmt) {
		case UFT_AF_STR:
		case UFT_AF_STDSTR:
			if (uft_null_str(&v[i]))
				uft_tadd(c, "%s %s: NULL\n", head,
					 a->fmt == UFT_AF_STR ? "str" : "std::string");
			else
				uft_tadd(c, "%s %s: %.*s\n", head,
					 a->fmt == UFT_AF_STR ? "str" : "std::string",
					 (int)uft_str_len(&v[i]),
					 (const char *)v[i].p);
			break;
		case UFT_AF_PTR:
			name = uft_ptr_sym(uf, c, u);
			if (name)
				uft_tadd(c, "%s p: %" PRIx64 " (&%s)\n", head, u,
					 name);
			else if (u)
				uft_tadd(c, "%s p: 0x%" PRIx64 "\n", head, u);
			else
				uft_tadd(c, "%s p: %s\n", head,
					 ret ? "(nil)" : "0");
			break;
		case UFT_AF_ENUM:
			/* pr_args() only: pr_retval() prints the raw value */
			mod = ret ? NULL : uft_fn_module(uf, c);
			if (!mod)
				goto raw;
			uft_tadd(c, "%s enum %s: ", head, a->tname);
			uft_enum_tadd(uf, c, mod, a, (int)u);
			uft_tadd(c, " (%lld)\n", (long long)u);
			break;
		case UFT_AF_STRUCT:
			uft_tadd(c, "%s struct %s:", head,
				 a->tname ? a->tname : "");
			for (k = 0; k < v[i].n; k++) {
				if (k % 16 == 0)
					uft_tadd(c, "\n\t");
				uft_tadd(c, "%02x ", v[i].p[k]);
				if (k % 8 == 7)
					uft_tadd(c, " ");
			}
			uft_tadd(c, "\n");
			break;
		default:
raw:
			/* pr_args() shows at most the 8 bytes of a long long */
			if (v[i].n == 10) {
				uint64_t lo;

				memcpy(&lo, v[i].p, 8);
				u = lo;
			}
			uft_tadd(c, "%s %c%u: 0x%0*" PRIx64 "\n", head,
				 UFT_AF_CHARS[a->fmt], a->size * 8,
				 (int)(a->size * 2), u);
			break;
		}
	}
	return outbuf_put(o, c->text ? c->text : "", c->textlen);
}
