// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON reader of saved statistics (stats-json.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "stats-json.h"

void sj_init(struct sj *j, const char *name, const char *text, size_t len,
	     struct diag *d)
{
	j->name = name;
	j->start = j->p = text;
	j->end = text + len;
	j->d = d;
}

int sj_error(struct sj *j, const char *fmt, ...)
{
	const char *q, *line = j->start;
	unsigned long no = 1;
	char msg[512];
	va_list ap;

	for (q = j->start; q < j->p; q++) {
		if (*q == '\n') {
			no++;
			line = q + 1;
		}
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_set(j->d, "%s:%lu:%lu: %s", j->name, no,
		 (unsigned long)(j->p - line) + 1, msg);
	return -EINVAL;
}

char sj_peek(struct sj *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
				 *j->p == '\n' || *j->p == '\r'))
		j->p++;
	return j->p < j->end ? *j->p : 0;
}

int sj_expect(struct sj *j, char c)
{
	if (sj_peek(j) != c)
		return j->p < j->end ? sj_error(j, "expected '%c'", c)
				     : sj_error(j, "expected '%c', found the end (cut?)", c);
	j->p++;
	return 0;
}

int sj_more(struct sj *j, char close, bool *first)
{
	char c = sj_peek(j);

	if (c == close) {
		j->p++;
		return 0;
	}
	if (!*first) {
		if (c != ',')
			return sj_error(j, "expected ',' or '%c'", close);
		j->p++;
	}
	*first = false;
	return 1;
}

static int sj_hex4(struct sj *j, unsigned *u)
{
	int i;

	*u = 0;
	for (i = 0; i < 4; i++, j->p++) {
		char c = j->p < j->end ? *j->p : 0;

		if (c >= '0' && c <= '9')
			*u = *u << 4 | (unsigned)(c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			*u = *u << 4 | (unsigned)((c | 0x20) - 'a' + 10);
		else
			return sj_error(j, "\\u needs four hex digits");
	}
	return 0;
}

/* Code point u as UTF-8 into buf at *n, if it fits. */
static void sj_utf8(char *buf, size_t size, size_t *n, unsigned u)
{
	char t[4];
	size_t k = 0;

	if (u < 0x80) {
		t[k++] = (char)u;
	} else if (u < 0x800) {
		t[k++] = (char)(0xc0 | u >> 6);
		t[k++] = (char)(0x80 | (u & 0x3f));
	} else if (u < 0x10000) {
		t[k++] = (char)(0xe0 | u >> 12);
		t[k++] = (char)(0x80 | (u >> 6 & 0x3f));
		t[k++] = (char)(0x80 | (u & 0x3f));
	} else {
		t[k++] = (char)(0xf0 | u >> 18);
		t[k++] = (char)(0x80 | (u >> 12 & 0x3f));
		t[k++] = (char)(0x80 | (u >> 6 & 0x3f));
		t[k++] = (char)(0x80 | (u & 0x3f));
	}
	if (*n + k < size) {
		memcpy(buf + *n, t, k);
		*n += k;
	}
}

int sj_string(struct sj *j, char *buf, size_t size)
{
	static const char esc[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
	size_t n = 0;
	unsigned u, lo;
	const char *e;

	if (sj_expect(j, '"') < 0)
		return -EINVAL;
	for (;;) {
		char c;

		if (j->p == j->end)
			return sj_error(j, "a string runs to the end (cut?)");
		c = *j->p++;
		if (c == '"')
			break;
		if ((unsigned char)c < 0x20) {
			j->p--;
			return sj_error(j, "a control byte in a string");
		}
		if (c != '\\') {
			if (n + 1 < size)
				buf[n++] = c;
			continue;
		}
		if (j->p == j->end)
			return sj_error(j, "a string runs to the end (cut?)");
		c = *j->p++;
		if (c == 'u') {
			if (sj_hex4(j, &u) < 0)
				return -EINVAL;
			if (u >= 0xd800 && u < 0xdc00 && j->end - j->p >= 6 &&
			    j->p[0] == '\\' && j->p[1] == 'u') {
				j->p += 2;
				if (sj_hex4(j, &lo) < 0)
					return -EINVAL;
				u = lo >= 0xdc00 && lo < 0xe000
					    ? 0x10000 + ((u - 0xd800) << 10) +
						      (lo - 0xdc00)
					    : 0xfffd;
			} else if (u >= 0xd800 && u < 0xe000) {
				u = 0xfffd;
			}
			sj_utf8(buf, size, &n, u);
			continue;
		}
		for (e = esc; *e && *e != c; e += 2)
			;
		if (!*e) {
			j->p--;
			return sj_error(j, "'\\%c' is no JSON escape", c);
		}
		if (n + 1 < size)
			buf[n++] = e[1];
	}
	if (size)
		buf[n] = '\0';
	return 0;
}

static bool sj_lit(struct sj *j, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, lit, n))
		return false;
	j->p += n;
	return true;
}

int sj_string_or_null(struct sj *j, char *buf, size_t size, bool *null)
{
	*null = sj_peek(j) == 'n' && sj_lit(j, "null");
	if (*null) {
		if (size)
			buf[0] = '\0';
		return 0;
	}
	return sj_string(j, buf, size);
}

int sj_number(struct sj *j, struct sj_num *n)
{
	const char *s;

	n->null = false;
	if (sj_peek(j) == 'n' && sj_lit(j, "null")) {
		n->null = true;
		n->s = NULL;
		n->len = 0;
		return 0;
	}
	s = j->p;
	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	if (j->p == s)
		return sj_error(j, "expected a number (digits, no sign)");
	if (j->p < j->end && *j->p == '.') {
		const char *f = ++j->p;

		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
		if (j->p == f)
			return sj_error(j, "expected digits after '.'");
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E'))
		return sj_error(j, "a number with an exponent: saved statistics write decimals");
	n->s = s;
	n->len = (size_t)(j->p - s);
	return 0;
}

int sj_num_scaled(const struct sj_num *n, bool milli, uint64_t *v)
{
	uint64_t x = 0;
	size_t i, frac = 0;
	bool dot = false;

	for (i = 0; i < n->len; i++) {
		unsigned dig;

		if (n->s[i] == '.') {
			dot = true;
			continue;
		}
		dig = (unsigned)(n->s[i] - '0');
		if (dot && ++frac > (milli ? 3u : 0u)) {
			if (dig)
				return -ERANGE;	/* below the unit */
			continue;
		}
		if (x > (UINT64_MAX - dig) / 10)
			return -ERANGE;
		x = x * 10 + dig;
	}
	for (; milli && frac < 3; frac++) {
		if (x > UINT64_MAX / 10)
			return -ERANGE;
		x *= 10;
	}
	*v = x;
	return 0;
}

int sj_u64(struct sj *j, uint64_t *v)
{
	struct sj_num n;

	if (sj_number(j, &n) < 0)
		return -EINVAL;
	if (n.null)
		return sj_error(j, "expected a number, found null");
	if (memchr(n.s, '.', n.len) || sj_num_scaled(&n, false, v) < 0)
		return sj_error(j, "expected a whole number below 2^64");
	return 0;
}

int sj_skip(struct sj *j)
{
	char open[SJ_DEPTH];
	unsigned depth = 0;
	struct sj_num n;
	bool first;
	char c;

	for (;;) {
		c = sj_peek(j);
		if (c == '{' || c == '[') {
			if (depth == SJ_DEPTH)
				return sj_error(j, "nested more than %d deep", SJ_DEPTH);
			open[depth++] = c == '{' ? '}' : ']';
			j->p++;
			first = true;
		} else {
			if (c == '"') {
				if (sj_string(j, NULL, 0) < 0)
					return -EINVAL;
			} else if (c == 't' || c == 'f') {
				if (!sj_lit(j, "true") && !sj_lit(j, "false"))
					return sj_error(j, "expected a value");
			} else if (sj_number(j, &n) < 0) {
				return -EINVAL;
			}
			if (!depth)
				return 0;
			first = false;
		}
		/* the next member of the innermost open value, or its close */
		for (;;) {
			int more = sj_more(j, open[depth - 1], &first);

			if (more < 0)
				return -EINVAL;
			if (more)
				break;
			if (--depth == 0)
				return 0;
			first = false;
		}
		if (open[depth - 1] == '}') {
			if (sj_string(j, NULL, 0) < 0 || sj_expect(j, ':') < 0)
				return -EINVAL;
		}
	}
}
