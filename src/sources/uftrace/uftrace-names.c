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

/* ------------------------------------------------------------ Rust legacy */

/*
 * The "$CODE$" escapes of Rust's legacy mangling that uftrace 0.13 spells
 * out, in the order it tries them: a prefix match on what follows the '$'.
 */
static const struct {
	const char *code;
	char punc;
} uft_rust_escapes[] = {
	{ "SP", '@' }, { "BP", '*' }, { "RF", '&' }, { "LT", '<' },
	{ "GT", '>' }, { "LP", '(' }, { "RP", ')' }, { "C", ',' },
	{ "u20", ' ' }, { "u22", '"' }, { "u27", '\'' }, { "u2b", '+' },
	{ "u3b", ';' }, { "u3d", '=' }, { "u5b", '[' }, { "u5d", ']' },
	{ "u7b", '{' }, { "u7d", '}' }, { "u7e", '~' },
};

/*
 * One component of a legacy Rust name as uftrace writes it: its escapes
 * spelt out; the "_" before a leading "$LT$" and the ".." separators
 * stay. At a '$' that is no escape ("$u21$") uftrace writes the text
 * since the last escape once more, then the rest as it stands:
 * "a$u5c$b" is "aa$u5c$b". o has room for 2 * len bytes.
 */
static char *uft_rust_component(char *o, const char *p, size_t len)
{
	const char *end = p + len, *seg = p;
	size_t k;

	while (p < end) {
		if (*p != '$') {
			*o++ = *p++;
			continue;
		}
		for (k = 0; k < sizeof(uft_rust_escapes) /
					sizeof(uft_rust_escapes[0]);
		     k++) {
			size_t n = strlen(uft_rust_escapes[k].code);

			if ((size_t)(end - p) > n &&
			    !strncmp(p + 1, uft_rust_escapes[k].code, n))
				break;
		}
		if (k == sizeof(uft_rust_escapes) / sizeof(uft_rust_escapes[0])) {
			memcpy(o, seg, (size_t)(end - seg));
			return o + (end - seg);
		}
		*o++ = uft_rust_escapes[k].punc;
		p += strlen(uft_rust_escapes[k].code) + 2;
		seg = p;
	}
	return o;
}

/*
 * A legacy Rust name (_ZN...17h<hash>E, maybe ".llvm.N" after it) as
 * uftrace 0.13's demangler spells it: its components joined by "::",
 * the hash left out; malloc'd, or NULL (not of that form, no memory).
 */
char *uft_rust_legacy_name(const char *raw)
{
	size_t rlen = strlen(raw), i = 3;
	char *out, *o;

	if (strncmp(raw, "_ZN", 3))
		return NULL;
	out = malloc(2 * rlen + 1);
	if (!out)
		return NULL;
	o = out;
	while (i < rlen && raw[i] != 'E') {
		size_t len = 0;

		if (!isdigit((unsigned char)raw[i]))
			goto bad;
		while (i < rlen && isdigit((unsigned char)raw[i]) && len < rlen)
			len = len * 10 + (size_t)(raw[i++] - '0');
		if (len == 0 || len > rlen - i)
			goto bad;
		if (!(len == 17 && raw[i] == 'h' &&
		      strspn(raw + i + 1, "0123456789abcdef") >= 16)) {
			if (o != out) {
				*o++ = ':';
				*o++ = ':';
			}
			o = uft_rust_component(o, raw + i, len);
		}
		i += len;
	}
	if (i >= rlen || o == out)
		goto bad;
	*o = '\0';
	return out;
bad:
	free(out);
	return NULL;
}

/* ------------------------------------------------------------ C++ */

/*
 * A thunk (_ZTh, _ZTv, _ZTc) or a transaction clone (_ZGTt, _ZGTn) of an
 * encoding: uftrace names it as the function itself. The offset in raw
 * where that function's encoding starts, or 0.
 */
static size_t uft_skip_offset(const char *raw, size_t i)
{
	int parts = raw[i] == 'h' ? 1 : raw[i] == 'v' ? 2 : 0;

	if (!parts)
		return 0;
	for (i++; parts; parts--) {
		if (raw[i] == 'n')
			i++;
		if (!isdigit((unsigned char)raw[i]))
			return 0;
		while (isdigit((unsigned char)raw[i]))
			i++;
		if (raw[i++] != '_')
			return 0;
	}
	return i;
}

size_t uft_special_inner(const char *raw)
{
	size_t i;

	if (!strncmp(raw, "_ZGTt", 5) || !strncmp(raw, "_ZGTn", 5))
		return 5;
	if (!strncmp(raw, "_ZTh", 4) || !strncmp(raw, "_ZTv", 4))
		return uft_skip_offset(raw, 3);
	if (!strncmp(raw, "_ZTc", 4)) {
		i = uft_skip_offset(raw, 4);
		return i ? uft_skip_offset(raw, i) : 0;
	}
	return 0;
}

/*
 * The names uftrace gives the standard abbreviations that open a name
 * (_ZNSo..., _ZNKSs...), beside the two libiberty writes for each: the
 * short one, and the one of a constructor's or destructor's class.
 */
static const struct {
	char code;
	const char *uftrace, *shortname, *longname;
} uft_std_abbrevs[] = {
	{ 's', "std::basic_string<>", "std::string", "std::basic_string" },
	{ 'i', "std::basic_istream", "std::istream", "std::basic_istream" },
	{ 'o', "std::basic_ostream", "std::ostream", "std::basic_ostream" },
	{ 'd', "std::basic_iostream", "std::iostream", "std::basic_iostream" },
};

/* "std::ostream::flush" of _ZNSo5flushEv as "std::basic_ostream::flush". */
char *uft_std_spelling(const char *raw, char *s)
{
	const char *p = raw + 2;
	size_t k, n, slen = strlen(s), ulen;
	char *out;

	if (strncmp(raw, "_Z", 2))
		return s;
	if (*p == 'N')
		for (p++; *p && strchr("rVKRO", *p); p++)
			;
	if (p[0] != 'S')
		return s;
	for (k = 0; k < sizeof(uft_std_abbrevs) / sizeof(uft_std_abbrevs[0]);
	     k++)
		if (p[1] == uft_std_abbrevs[k].code)
			break;
	if (k == sizeof(uft_std_abbrevs) / sizeof(uft_std_abbrevs[0]))
		return s;
	n = strlen(uft_std_abbrevs[k].shortname);
	if (strncmp(s, uft_std_abbrevs[k].shortname, n) ||
	    (s[n] && s[n] != ':')) {
		n = strlen(uft_std_abbrevs[k].longname);
		if (strncmp(s, uft_std_abbrevs[k].longname, n) ||
		    (s[n] && s[n] != ':'))
			return s;
	}
	ulen = strlen(uft_std_abbrevs[k].uftrace);
	out = malloc(slen - n + ulen + 1);
	if (!out)
		return s;
	memcpy(out, uft_std_abbrevs[k].uftrace, ulen);
	memcpy(out + ulen, s + n, slen - n + 1);
	free(s);
	return out;
}

/* The start of the last "::"-separated name of s (s itself if none). */
static const char *uft_last_name(const char *s, const char *end)
{
	const char *p;

	for (p = end; p > s + 1; p--)
		if (p[-1] == ':' && p[-2] == ':')
			return p;
	return s;
}

/* The length of s[0, n) without its "<...>" and "[abi:...]" parts. */
static size_t uft_bare(const char *s, size_t n, char *out, size_t cap)
{
	size_t i, o = 0, depth = 0;

	for (i = 0; i < n && o + 1 < cap; i++) {
		if (s[i] == '<' || s[i] == '[')
			depth++;
		else if ((s[i] == '>' || s[i] == ']') && depth)
			depth--;
		else if (!depth)
			out[o++] = s[i];
	}
	out[o] = '\0';
	return o;
}

/*
 * Is libiberty's d (without parameters) a constructor or a destructor:
 * its last name the one before it, bare of template arguments and ABI
 * tags ("std::basic_string<char, ...>::basic_string")? 1 constructor,
 * 2 destructor, 0 neither.
 */
int uft_ctor_dtor(const char *d)
{
	char last[256], prev[256];
	const char *l, *p;
	size_t n = strlen(d), depth = 0, i;

	/* the last "::" outside <...> and (...) */
	for (i = n, l = NULL; i > 1 && !l; i--) {
		char c = d[i - 1];

		if (c == '>' || c == ')' || c == ']')
			depth++;
		else if ((c == '<' || c == '(' || c == '[') && depth)
			depth--;
		else if (!depth && c == ':' && d[i - 2] == ':')
			l = d + i;
	}
	if (!l)
		return 0;
	for (p = l - 2, depth = 0; p > d; p--) {
		char c = p[-1];

		if (c == '>' || c == ')' || c == ']')
			depth++;
		else if ((c == '<' || c == '(' || c == '[') && depth)
			depth--;
		else if (!depth && c == ':' && p - 1 > d && p[-2] == ':')
			break;
	}
	uft_bare(l, n - (size_t)(l - d), last, sizeof(last));
	uft_bare(p, (size_t)(l - 2 - p), prev, sizeof(prev));
	if (!prev[0] || strchr(prev, '('))
		return 0;
	if (last[0] == '~' && !strcmp(last + 1, prev))
		return 2;
	return !strcmp(last, prev) ? 1 : 0;
}

/*
 * s with its last name made the one before it ("~" before it for a
 * destructor), as uftrace repeats the name it has just written:
 * "std::basic_string<>::basic_string<>", "failure::cxx11::cxx11".
 */
char *uft_ctor_repeat(char *s, int kind)
{
	const char *end = s + strlen(s), *last = uft_last_name(s, end), *prev;
	size_t head, plen;
	char *out;

	if (last == s)
		return s;
	prev = uft_last_name(s, last - 2);
	plen = (size_t)(last - 2 - prev);
	head = (size_t)(last - s);
	out = malloc(head + plen + 2);
	if (!out)
		return s;
	memcpy(out, s, head);
	if (kind == 2)
		out[head++] = '~';
	memcpy(out + head, prev, plen);
	out[head + plen] = '\0';
	free(s);
	return out;
}

/*
 * A conversion operator in libiberty's d ("A::operator int",
 * "A::operator B*[abi:cxx11]"): the offset of its "operator" and, in
 * *tag, the ABI tag after its type ("" if none); -1 if d has none.
 * uftrace writes them all "operator(cast)".
 */
long uft_cast_operator(const char *d, const char **tag)
{
	size_t n = strlen(d), i, depth = 0;

	for (i = 0; i + 9 <= n; i++) {
		char c = d[i];

		if (c == '<' || c == '(')
			depth++;
		else if ((c == '>' || c == ')') && depth)
			depth--;
		if (depth || strncmp(d + i, "operator ", 9) ||
		    (i && !(i >= 2 && d[i - 1] == ':' && d[i - 2] == ':')))
			continue;
		if (!strncmp(d + i + 9, "new", 3) ||
		    !strncmp(d + i + 9, "delete", 6) ||
		    !strncmp(d + i + 9, "\"\"", 2))
			continue;
		*tag = "";
		if (n && d[n - 1] == ']') {
			const char *t = strstr(d + i, "[abi:");

			while (t && strstr(t + 1, "[abi:"))
				t = strstr(t + 1, "[abi:");
			if (t)
				*tag = t;
		}
		return (long)i;
	}
	return -1;
}
