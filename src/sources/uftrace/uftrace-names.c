// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * C++ names as `uftrace dump` spells them (uftrace 0.13's own demangler,
 * utils/demangle.c), from what libiberty's demangler writes without
 * parameters; uft_simplify() then drops the template arguments.
 *
 *   {lambda(int, int)#1}     $_0          a closure: "$_" and its number
 *                                         from 0 (libiberty's #N less 1)
 *   (anonymous namespace)    _GLOBAL__N_1 the namespace's own name, as
 *                                         the mangled name holds it
 *   f[abi:cxx11]             f::cxx11     an ABI tag: one more name
 *   outer(int, char)::Guard  outer::Guard a class local to a function:
 *                                         without the function's
 *                                         parameters
 *   Derived::Base            Derived::Derived  an inheriting constructor
 *                                         (CI1, CI2): the class's name
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uftrace-int.h"

/* The names "_GLOBAL__N..." of the mangled name raw, in their order. */
static size_t uft_anon_names(const char *raw, const char **at, size_t *len,
			     size_t max)
{
	size_t n = 0, rlen = strlen(raw), i = 0;

	while (i < rlen && n < max) {
		size_t k = i, l = 0;

		if (!isdigit((unsigned char)raw[i]) ||
		    (i && isdigit((unsigned char)raw[i - 1]))) {
			i++;
			continue;
		}
		while (k < rlen && isdigit((unsigned char)raw[k]) && l < rlen)
			l = l * 10 + (size_t)(raw[k++] - '0');
		if (l >= 10 && l <= rlen - k && !strncmp(raw + k, "_GLOBAL__N", 10)) {
			at[n] = raw + k;
			len[n++] = l;
			i = k + l;
		} else {
			i = k;
		}
	}
	return n;
}

/* Is raw an inheriting constructor (<ctor-dtor-name> CI1 / CI2 <type>)? */
static bool uft_inheriting_ctor(const char *raw)
{
	const char *p = raw;

	while ((p = strstr(p, "CI"))) {
		if ((p[2] == '1' || p[2] == '2') && p > raw &&
		    !isdigit((unsigned char)p[-1]) && p[3] &&
		    (isdigit((unsigned char)p[3]) || p[3] == 'N' || p[3] == 'S'))
			return true;
		p += 2;
	}
	return false;
}

/* s[i] opens a "(...)": the index after its ')', or 0 if unbalanced. */
static size_t uft_close_paren(const char *s, size_t i)
{
	size_t depth = 0;

	for (; s[i]; i++) {
		if (s[i] == '(')
			depth++;
		else if (s[i] == ')' && !--depth)
			return i + 1;
	}
	return 0;
}

/* After a function's parameters: " const", " &", " &&", " volatile". */
static size_t uft_skip_quals(const char *s, size_t i)
{
	static const char *const quals[] = { " const", " volatile", " &&",
					     " &" };
	size_t k;
	bool more = true;

	while (more) {
		more = false;
		for (k = 0; k < sizeof(quals) / sizeof(quals[0]); k++) {
			size_t n = strlen(quals[k]);

			if (!strncmp(s + i, quals[k], n)) {
				i += n;
				more = true;
				break;
			}
		}
	}
	return i;
}

/*
 * d (libiberty's, without parameters) of the mangled raw as uftrace's
 * demangler spells it, before template arguments go; malloc'd or NULL.
 */
char *uft_dump_spelling(const char *raw, const char *d)
{
	static const char anons[] = "(anonymous namespace)";
	const char *anon[16], *p;
	size_t anon_len[16], nanon, kanon = 0, i = 0, n = strlen(d), k;
	size_t cap = n + 1, longest = 0;
	char *out, *o;

	nanon = uft_anon_names(raw, anon, anon_len, 16);
	for (k = 0; k < nanon; k++)
		if (anon_len[k] > longest)
			longest = anon_len[k];
	/* only the namespaces' names can be longer than what they replace */
	for (p = d; (p = strstr(p, anons)); p += sizeof(anons) - 1)
		cap += longest;
	out = malloc(cap);
	if (!out)
		return NULL;
	o = out;
	while (i < n) {
		size_t e;

		if (!strncmp(d + i, "operator()", 10)) {
			memcpy(o, "operator()", 10);
			o += 10;
			i += 10;
			continue;
		}
		if (!strncmp(d + i, "{lambda(", 8)) {
			const char *hash;
			long num;

			e = uft_close_paren(d, i + 7);
			hash = e ? d + e : NULL;
			if (hash && hash[0] == '#' && isdigit((unsigned char)hash[1])) {
				char *end;

				num = strtol(hash + 1, &end, 10);
				/* "$_N" is shorter than "{lambda()#N+1}" */
				if (*end == '}' && num > 0 && num < 1000000) {
					o += sprintf(o, "$_%ld", num - 1);
					i = (size_t)(end + 1 - d);
					continue;
				}
			}
		}
		if (nanon && !strncmp(d + i, anons, sizeof(anons) - 1)) {
			k = kanon < nanon ? kanon++ : nanon - 1;
			memcpy(o, anon[k], anon_len[k]);
			o += anon_len[k];
			i += sizeof(anons) - 1;
			continue;
		}
		if (!strncmp(d + i, "[abi:", 5)) {
			const char *end = strchr(d + i, ']');

			if (end) {
				size_t l = (size_t)(end - d) - i - 5;

				memcpy(o, "::", 2);
				memmove(o + 2, d + i + 5, l);
				o += 2 + l;
				i = (size_t)(end + 1 - d);
				continue;
			}
		}
		if (d[i] == '(') {
			/* a local entity's function: its parameters go */
			e = uft_close_paren(d, i);
			if (e) {
				e = uft_skip_quals(d, e);
				if (!strncmp(d + e, "::", 2)) {
					i = e;
					continue;
				}
			}
		}
		*o++ = d[i++];
	}
	*o = '\0';
	return out;
}

/*
 * The simple form s of raw, for an inheriting constructor, with its last
 * "::"-separated name made the one before it, as uftrace repeats it:
 * malloc'd, or NULL (not one, or no memory).
 */
char *uft_inheriting_name(const char *raw, const char *s)
{
	const char *last = strrchr(s, ':'), *prev;
	size_t plen, head;
	char *out;

	if (!uft_inheriting_ctor(raw) || !last || last == s || last[-1] != ':')
		return NULL;
	for (prev = last - 1; prev > s && !(prev[-1] == ':' && prev > s + 1 &&
					   prev[-2] == ':');
	     prev--)
		;
	plen = (size_t)(last - 1 - prev);
	head = (size_t)(last + 1 - s);
	out = malloc(head + plen + 1);
	if (!out)
		return NULL;
	memcpy(out, s, head);
	memcpy(out + head, prev, plen);
	out[head + plen] = '\0';
	return out;
}
