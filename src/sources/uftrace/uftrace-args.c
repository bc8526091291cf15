// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uftrace: argument and return value specs (argspec, retspec, argauto,
 * retauto, NAME.dbg), matched to functions as uftrace matches them.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fnmatch.h>
#include <regex.h>

#include "uftrace-int.h"

/* ------------------------------------------------------------ arg specs */

/* A type name of a spec ("t16:NAME", "e:NAME"), up to '%'; kept in uf. */
static const char *uft_tname(struct uftrace *uf, const char *s)
{
	char **n, *name = strndup(s, strcspn(s, "%"));

	if (!name)
		return NULL;
	if (uft_grow(&uf->tnames, uf->ntnames, sizeof(*n))) {
		free(name);
		return NULL;
	}
	n = uf->tnames;
	n[uf->ntnames++] = name;
	return name;
}

/*
 * One value spec as uftrace's parse_argspec() reads it: argN, fpargN or
 * retval, then "/FMT[BITS]" and "%LOCATION" (which does not change the
 * layout). N is strtol()'s of base 0 ("arg0x10", "arg010") kept in an
 * int: "arg4294967295" is index -1, an argument; index 0 ("arg0",
 * "fparg0") is the return value's (RETVAL_IDX). Returns false for
 * anything else (other trigger actions, and specs uftrace refuses).
 */
/* A long as a C compiler of x86-64 or arm64 makes it an int: its low bits */
static int uft_int(long v)
{
	uint32_t u = (uint32_t)(unsigned long)v;

	return u <= INT32_MAX ? (int)u : -(int)(UINT32_MAX - u) - 1;
}

static bool uft_parse_arg(struct uftrace *uf, const char *s,
			  struct uft_arg *a)
{
	const char *p;
	char *end;
	long bits;

	memset(a, 0, sizeof(*a));
	a->size = uf->lp64 ? 8 : 4;
	if (!strncmp(s, "arg", 3) && isdigit((unsigned char)s[3])) {
		a->idx = uft_int(strtol(s + 3, &end, 0));
	} else if (!strncmp(s, "fparg", 5) && isdigit((unsigned char)s[5])) {
		a->idx = uft_int(strtol(s + 5, &end, 0));
		a->fp = true;
		a->fmt = UFT_AF_FLOAT;
		a->size = 8;
	} else if (!strncmp(s, "retval", 6)) {
		a->idx = UFT_RETVAL_IDX;
		end = (char *)s + 6;
	} else {
		return false;
	}
	p = end;
	if (*p != '/')
		return *p == '\0' || *p == '%';
	p++;
	switch (*p) {
	case 'd':
		a->fmt = UFT_AF_AUTO;
		break;
	case 'i':
		a->fmt = UFT_AF_SINT;
		break;
	case 'u':
		a->fmt = UFT_AF_UINT;
		break;
	case 'x':
		a->fmt = UFT_AF_HEX;
		break;
	case 's':
		a->fmt = UFT_AF_STR;
		break;
	case 'S':
		a->fmt = UFT_AF_STDSTR;
		break;
	case 'p':
		a->fmt = UFT_AF_PTR;
		break;
	case 'c':
		a->fmt = UFT_AF_CHAR;
		a->size = 1;
		break;
	case 'f':
		a->fmt = UFT_AF_FLOAT;
		a->fp = true;
		a->size = 8;
		break;
	case 'e':
		/* "e:NAME": an enum of the default size */
		if (p[1] != ':' || (!isalpha((unsigned char)p[2]) && p[2] != '_'))
			return false;
		a->fmt = UFT_AF_ENUM;
		a->tname = uft_tname(uf, p + 2);
		return a->tname != NULL;
	case 't':
		/* "tSIZE[:NAME]": a struct passed by value */
		a->fmt = UFT_AF_STRUCT;
		errno = 0;
		bits = strtol(p + 1, &end, 0);
		if (errno || bits < 0 || bits > UFT_MAX_STRUCT)
			return false;
		a->size = (uint32_t)bits;
		if (*end == ':') {
			a->tname = uft_tname(uf, end + 1);
			if (!a->tname)
				return false;
		}
		return true;
	default:
		if (a->fmt == UFT_AF_FLOAT && isdigit((unsigned char)*p))
			goto size;
		return false;
	}
	p++;
	if (!*p || *p == '%')
		return true;
size:
	bits = strtol(p, &end, 10);
	if (bits == 8 || bits == 16 || bits == 32 || bits == 64 ||
	    (bits == 80 && a->fmt == UFT_AF_FLOAT))
		a->size = (uint32_t)(bits / 8);
	else
		return false;
	return true;
}

/* uftrace's add_arg_spec(): the same value again replaces, unless exact. */
static int uft_add_arg(struct uft_argv *av, const struct uft_arg *a,
		       bool exact)
{
	struct uft_arg *n;
	size_t i;

	for (i = 0; i < av->n; i++) {
		struct uft_arg *o = &av->v[i];

		if (o->fp != a->fp || o->idx != a->idx)
			continue;
		if (exact || !o->exact) {
			*o = *a;
			o->exact = exact;
		}
		return 0;
	}
	if (uft_grow(&av->v, av->n, sizeof(*n)))
		return -ENOMEM;
	av->v[av->n] = *a;
	av->v[av->n].exact = exact;
	av->n++;
	return 0;
}

/* Add the specs of a comma list ("arg1/s,arg2") to av. */
static int uft_add_args(struct uftrace *uf, struct uft_argv *av,
			const char *list, bool exact)
{
	char *copy, *tok, *save = NULL;
	struct uft_arg a;
	int ret = 0;

	if (!list)
		return 0;
	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save))
		if (uft_parse_arg(uf, tok, &a))
			ret = uft_add_arg(av, &a, exact);
	free(copy);
	return ret;
}

/* "name@spec;name@spec;" into autos (argauto, retauto). */
int uft_parse_autos(struct uftrace *uf, const char *line, bool ret)
{
	const char *p = line;

	while (*p) {
		const char *semi = strchr(p, ';'), *at;
		size_t len = semi ? (size_t)(semi - p) : strlen(p);
		struct uft_auto *a, *n;

		at = memchr(p, '@', len);
		if (at) {
			if (uft_grow(&uf->autos, uf->nautos, sizeof(*n)))
				return -ENOMEM;
			a = &uf->autos[uf->nautos];
			memset(a, 0, sizeof(*a));
			a->name = strndup(p, (size_t)(at - p));
			if (a->name) {
				char *simple = uft_simple_name(a->name);

				if (simple) {
					free(a->name);
					a->name = simple;
				}
			}
			if (ret)
				a->rets = strndup(at + 1, len - (size_t)(at - p) - 1);
			else
				a->args = strndup(at + 1, len - (size_t)(at - p) - 1);
			uf->nautos++;
			if (!a->name || (!a->args && !a->rets))
				return -ENOMEM;
		}
		if (!semi)
			break;
		p = semi + 1;
	}
	return 0;
}

/* Most '+' a regex pattern may hold (see uft_parse_specs()). */
#define UFT_MAX_PLUS 8

static size_t uft_count_char(const char *s, char c)
{
	size_t n = 0;

	while ((s = strchr(s, c))) {
		n++;
		s++;
	}
	return n;
}

/* "PATTERN[@ACTION,...];..." of the argspec (ret false) or retspec line. */
int uft_parse_specs(struct uftrace *uf, const char *line, bool ret)
{
	char *copy, *ent, *save = NULL;
	int err = 0;

	copy = strdup(line);
	if (!copy)
		return -ENOMEM;
	for (ent = strtok_r(copy, ";", &save); ent && !err;
	     ent = strtok_r(NULL, ";", &save)) {
		struct uft_pspec *n, *ps;
		char *at = strchr(ent, '@'), *tok, *s2 = NULL;
		bool explicit_arg = false, explicit_ret = false;

		if (at)
			*at = '\0';
		if (!*ent)
			continue;
		/* doubling: a spec at a time was quadratic (fuzz-uftrace) */
		if (uft_grow(&uf->specs, uf->nspecs, sizeof(*n))) {
			err = -ENOMEM;
			break;
		}
		ps = &uf->specs[uf->nspecs];
		memset(ps, 0, sizeof(*ps));
		ps->pattern = strdup(ent);
		if (!ps->pattern) {
			err = -ENOMEM;
			break;
		}
		uf->nspecs++;
		if (!strpbrk(ent, ".?*+-^$|()[]{}"))
			ps->patt = UFT_PATT_SIMPLE;
		else
			ps->patt = uf->patt;
		/*
		 * glibc's regcomp() copies the tree once per '+' and per count
		 * of "{m,n}": "f++++…" (40 of them) takes gigabytes. Such
		 * patterns name no function; take them literally.
		 */
		if (ps->patt == UFT_PATT_REGEX &&
		    (!strncmp(ent, "operator ", 9) || strchr(ent, '{') ||
		     uft_count_char(ent, '+') > UFT_MAX_PLUS ||
		     regcomp(&ps->re, ent, REG_NOSUB | REG_EXTENDED)))
			ps->patt = UFT_PATT_SIMPLE;
		for (tok = at ? strtok_r(at + 1, ",", &s2) : NULL; tok;
		     tok = strtok_r(NULL, ",", &s2)) {
			struct uft_arg a;

			if (!strcmp(tok, "auto-args")) {
				ps->auto_arg = ps->auto_ret = true;
				continue;
			}
			if (!uft_parse_arg(uf, tok, &a))
				continue;
			if (a.idx == UFT_RETVAL_IDX)
				explicit_ret = true;
			else
				explicit_arg = true;
			err = uft_add_arg(&ps->args, &a,
					  ps->patt == UFT_PATT_SIMPLE);
			if (err)
				break;
		}
		/* "-A func" alone: the auto-args spec of func */
		if (!explicit_arg && !explicit_ret) {
			if (ret)
				ps->auto_ret = true;
			else
				ps->auto_arg = true;
		}
	}
	free(copy);
	return err;
}

static bool uft_pspec_match(const struct uft_pspec *ps, const char *name)
{
	switch (ps->patt) {
	case UFT_PATT_SIMPLE:
		return !strcmp(ps->pattern, name);
	case UFT_PATT_REGEX:
		return !regexec(&ps->re, name, 0, NULL, 0);
	case UFT_PATT_GLOB:
		return !fnmatch(ps->pattern, name, 0);
	}
	return false;
}

static int uft_auto_cmp(const void *a, const void *b)
{
	const struct uft_auto *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * NAME.dbg: "E: enum NAME {...}" lines, then "F: ADDR NAME" each followed
 * by "A: @specs" / "R: @specs" lines.
 */
void uft_load_dbg(struct uftrace *uf, struct uft_symtab *st)
{
	struct uft_auto *cur = NULL;
	struct uft_lines it;
	char *path, *buf, *line;
	size_t len;

	st->dbg_loaded = true;
	path = uft_pathf(uf, "%s.dbg", st->name);
	if (!path || uft_read_file(path, &buf, &len) < 0) {
		free(path);
		return;
	}
	it = (struct uft_lines){ buf, buf + len, 0 };
	while ((line = uft_line(&it))) {
		if (!strncmp(line, "F: ", 3)) {
			char *name = strchr(line + 3, ' '), *end;
			struct uft_auto *n;
			uint64_t addr;

			cur = NULL;
			errno = 0;
			addr = strtoull(line + 3, &end, 16);
			if (!name || end != name || errno)
				continue;
			if (uft_grow(&st->dbg, st->ndbg, sizeof(*n)))
				break;
			cur = &st->dbg[st->ndbg++];
			memset(cur, 0, sizeof(*cur));
			cur->addr = addr;
			cur->name = strdup(name + 1);
		} else if (!strncmp(line, "E: ", 3)) {
			/* a malformed definition is skipped, as uftrace does */
			if (uft_enums_parse(&st->enums, line + 3) == -ENOMEM)
				uf->nomem = true;
		} else if (cur && !strncmp(line, "A: @", 4)) {
			free(cur->args);
			cur->args = strdup(line + 4);
		} else if (cur && !strncmp(line, "R: @", 4)) {
			free(cur->rets);
			cur->rets = strdup(line + 4);
		}
	}
	if (st->ndbg)
		qsort(st->dbg, st->ndbg, sizeof(*st->dbg), uft_auto_cmp);
	free(buf);
	free(path);
}

/* The .dbg entry of the function at addr (two statics may share a name). */
static const struct uft_auto *uft_dbg_at(const struct uft_symtab *st,
					 uint64_t addr)
{
	size_t lo = 0, hi = st->ndbg;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->dbg[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < st->ndbg && st->dbg[lo].addr == addr ? &st->dbg[lo] : NULL;
}

/*
 * The auto-args spec of a function: its module's debug info (by address,
 * as uftrace looks it up), then uftrace's list of known functions.
 */
static int uft_add_auto(struct uftrace *uf, struct uft_argv *av,
			struct uft_symtab *mod, const struct uft_sym *sym,
			bool ret, bool exact)
{
	const char *name = sym->sname;
	const struct uft_auto *d = NULL;
	size_t i;

	if (mod && !mod->dbg_loaded)
		uft_load_dbg(uf, mod);
	if (mod)
		d = uft_dbg_at(mod, sym->addr);
	if (d && (ret ? d->rets : d->args))
		return uft_add_args(uf, av, ret ? d->rets : d->args, exact);
	for (i = 0; i < uf->nautos; i++) {
		const struct uft_auto *a = &uf->autos[i];

		if (!strcmp(a->name, name) && (ret ? a->rets : a->args))
			return uft_add_args(uf, av, ret ? a->rets : a->args,
					    exact);
	}
	return 0;
}

/* The argument and return value specs of a function, as recorded. */
const struct uft_argv *uft_args_of(struct uftrace *uf,
				   struct uft_sym *sym,
				   struct uft_symtab *mod)
{
	struct uft_argv av = { 0 }, *keep;
	size_t i;
	int ret = 0;

	if (sym->args)
		return sym->args;
	for (i = 0; i < uf->nspecs && !ret; i++) {
		const struct uft_pspec *ps = &uf->specs[i];
		bool exact = ps->patt == UFT_PATT_SIMPLE;
		size_t k;

		if (!uft_pspec_match(ps, sym->sname) &&
		    (sym->raw == sym->sname || !uft_pspec_match(ps, sym->raw)))
			continue;
		for (k = 0; k < ps->args.n && !ret; k++)
			ret = uft_add_arg(&av, &ps->args.v[k], exact);
		if (!ret && ps->auto_arg)
			ret = uft_add_auto(uf, &av, mod, sym, false, exact);
		if (!ret && ps->auto_ret)
			ret = uft_add_auto(uf, &av, mod, sym, true, exact);
	}
	/*
	 * --auto-args: every known function, arguments and return value
	 * each unless a spec gave them already (filter.c's add_filter():
	 * "ignore auto-args if it already has argspec", by trigger flag)
	 */
	if (!ret && uf->auto_args) {
		bool has_arg = false, has_ret = false;
		size_t k;

		for (k = 0; k < av.n; k++) {
			if (av.v[k].idx == UFT_RETVAL_IDX)
				has_ret = true;
			else
				has_arg = true;
		}
		if (!has_arg)
			ret = uft_add_auto(uf, &av, mod, sym, false, true);
		if (!ret && !has_ret)
			ret = uft_add_auto(uf, &av, mod, sym, true, true);
	}
	if (ret || !av.n) {
		free(av.v);
		if (ret)
			return NULL;
		sym->args = &uf->no_args;
		return sym->args;
	}
	keep = malloc(sizeof(*keep));
	if (!keep || uft_grow(&uf->argvs, uf->nargvs, sizeof(*uf->argvs))) {
		free(keep);
		free(av.v);
		return NULL;
	}
	*keep = av;
	uf->argvs[uf->nargvs++] = keep;
	sym->args = keep;
	return keep;
}
