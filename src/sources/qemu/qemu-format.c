// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading a log line back through its event's format (qemu.h): the
 * trace-events format (C string literals and PRIx64-style macros) is
 * compiled once into literal pieces and conversions, and a line is
 * matched against them. %s takes what lies between the literals around
 * it; when more than one reading fits, the line is ambiguous and is not
 * read.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "qemu.h"

/*
 * The work a match may do before it gives up (nested %s, long lines):
 * steps, and bytes looked at, QF_WORK_PER_BYTE per byte of the line (a
 * 1 MiB line through "%s,%s;x" looked at every split of the first %s and
 * scanned the rest for ";x" each time: 10 to 15 s a line). A line that
 * needs more is not read back: it stays a line of text.
 */
#define QF_STEPS		20000
#define QF_WORK_PER_BYTE	16
#define QF_WORK_MIN		65536

static void qf_lit(struct qemu_fmt *f, const char *s, size_t len)
{
	struct qemu_piece *p;

	if (!len)
		return;
	if (f->n && f->v[f->n - 1].conv == 0 &&
	    f->v[f->n - 1].lit + f->v[f->n - 1].len == s) {
		f->v[f->n - 1].len += len;
		return;
	}
	p = &f->v[f->n++];
	memset(p, 0, sizeof(*p));
	p->lit = s;
	p->len = len;
}

/* The C format string (text, tlen) into pieces; false: cannot be read. */
static bool qf_pieces(struct qemu_fmt *f, const char *t, size_t tlen)
{
	size_t i = 0;

	while (i < tlen) {
		const char *start;

		if (f->n + 2 > QEMU_MAX_PIECES)
			return false;
		if (t[i] != '%') {
			start = t + i;
			while (i < tlen && t[i] != '%')
				i++;
			qf_lit(f, start, (size_t)(t + i - start));
			continue;
		}
		start = t + i++;
		if (i < tlen && t[i] == '%') {
			qf_lit(f, t + i, 1);
			i++;
			continue;
		}
		{
			struct qemu_piece *p = &f->v[f->n];

			memset(p, 0, sizeof(*p));
			while (i < tlen && strchr("#0- +'", t[i])) {
				p->alt |= t[i] == '#';
				i++;
			}
			while (i < tlen && ((t[i] >= '0' && t[i] <= '9') ||
					    t[i] == '.'))
				i++;
			if (i < tlen && t[i] == '*')
				return false;	/* a width from an argument */
			while (i < tlen && strchr("hlLqjzt", t[i])) {
				p->wide |= t[i] == 'l' || t[i] == 'j' ||
					   t[i] == 'z' || t[i] == 't' ||
					   t[i] == 'q' || t[i] == 'L';
				i++;
			}
			if (i >= tlen || !strchr("diouxXcsp", t[i]))
				return false;
			p->conv = t[i++];
			p->lit = start;
			p->len = (size_t)(t + i - start);
			f->n++;
			f->nconv++;
		}
	}
	return true;
}

/* PRIx64 and friends: the conversion they expand to. */
static const char *qf_macro(const char *s, size_t len)
{
	static const struct {
		const char *name;
		const char *text;
	} m[] = {
		{ "PRId64", "lld" }, { "PRIi64", "lli" }, { "PRIu64", "llu" },
		{ "PRIx64", "llx" }, { "PRIX64", "llX" }, { "PRIo64", "llo" },
		{ "PRId32", "d" }, { "PRIi32", "i" }, { "PRIu32", "u" },
		{ "PRIx32", "x" }, { "PRIX32", "X" }, { "PRIo32", "o" },
		{ "PRId16", "d" }, { "PRIu16", "u" }, { "PRIx16", "x" },
		{ "PRId8", "d" }, { "PRIu8", "u" }, { "PRIx8", "x" },
		{ "PRIxPTR", "lx" }, { "PRIuPTR", "lu" }, { "PRIdPTR", "ld" },
		{ "PRIXPTR", "lX" }, { "PRIx", "x" },
	};
	size_t i;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (strlen(m[i].name) == len && !strncmp(m[i].name, s, len))
			return m[i].text;
	return NULL;
}

int qemu_fmt_compile(struct qemu_fmt *f, const char *prefix,
		     const char *fmt, size_t len)
{
	size_t i = 0, n = 0, cap = strlen(prefix) + len + 16;

	memset(f, 0, sizeof(*f));
	f->text = malloc(cap);
	if (!f->text)
		return -ENOMEM;
	memcpy(f->text, prefix, strlen(prefix));
	n = strlen(prefix);
	while (i < len) {
		char c = fmt[i];

		if (c == ' ' || c == '\t') {
			i++;
		} else if (c == '"') {
			for (i++; i < len && fmt[i] != '"'; i++) {
				if (n + 8 > cap)
					goto bad;
				if (fmt[i] != '\\') {
					f->text[n++] = fmt[i];
					continue;
				}
				if (++i >= len)
					goto bad;
				switch (fmt[i]) {
				case 'n': f->text[n++] = '\n'; break;
				case 't': f->text[n++] = '\t'; break;
				case 'r': f->text[n++] = '\r'; break;
				case '\\': case '"': case '\'': case '?':
					f->text[n++] = fmt[i];
					break;
				default:
					goto bad;
				}
			}
			if (i >= len)
				goto bad;
			i++;
		} else if ((c >= 'A' && c <= 'Z') || c == '_') {
			size_t s = i;
			const char *x;

			while (i < len && ((fmt[i] >= 'A' && fmt[i] <= 'Z') ||
					   (fmt[i] >= '0' && fmt[i] <= '9') ||
					   fmt[i] == '_' ||
					   (fmt[i] >= 'a' && fmt[i] <= 'z')))
				i++;
			x = qf_macro(fmt + s, i - s);
			if (!x || n + strlen(x) > cap)
				goto bad;
			memcpy(f->text + n, x, strlen(x));
			n += strlen(x);
		} else {
			goto bad;
		}
	}
	f->len = n;
	if (!qf_pieces(f, f->text, n))
		goto bad;
	f->ok = true;
	return 0;
bad:
	f->ok = false;
	f->n = 0;
	return 0;
}

void qemu_fmt_free(struct qemu_fmt *f)
{
	free(f->text);
	f->text = NULL;
}

static bool qf_digit(char c, int base, bool upper)
{
	if (c >= '0' && c <= '9')
		return c - '0' < base;
	if (base != 16)
		return false;
	return upper ? (c >= 'A' && c <= 'F') : (c >= 'a' && c <= 'f');
}

/*
 * The text one numeric conversion takes at s[0..len): its length, or 0
 * when none. Leading blanks (a width) are taken.
 */
static size_t qf_number(const struct qemu_piece *p, const char *s,
			size_t len, size_t *seen)
{
	size_t i = 0, d;
	int base = 10;
	bool upper = p->conv == 'X';

	while (i < len && s[i] == ' ')
		i++;
	*seen = i + 1;
	if (p->conv == 'c')
		return i < len ? i + 1 : 0;
	if (p->conv == 'p') {
		if (len - i >= 5 && !memcmp(s + i, "(nil)", 5))
			return i + 5;
		if (len - i < 3 || s[i] != '0' || s[i + 1] != 'x')
			return 0;
		i += 2;
		base = 16;
	} else if (p->conv == 'x' || p->conv == 'X') {
		base = 16;
		if (p->alt && len - i >= 2 && s[i] == '0' &&
		    (s[i + 1] == 'x' || s[i + 1] == 'X'))
			i += 2;
	} else if (p->conv == 'o') {
		base = 8;
	} else if ((p->conv == 'd' || p->conv == 'i') && i < len &&
		   (s[i] == '-' || s[i] == '+')) {
		i++;
	}
	for (d = i; i < len && qf_digit(s[i], base, upper); i++)
		;
	*seen = i + 1;
	return i > d ? i : 0;
}

struct qf_state {
	const struct qemu_fmt *f;
	const char *s;
	size_t len;
	size_t pos[QEMU_MAX_PIECES];	/* where each piece starts */
	size_t first[QEMU_MAX_PIECES + 1];	/* of the first reading */
	unsigned found;
	unsigned steps;
	bool gave_up;
	uint64_t work, budget;	/* bytes looked at, and the most */
	/* the last search for each literal: from, and where it was found */
	size_t from[QEMU_MAX_PIECES], hit[QEMU_MAX_PIECES];
};

static bool qf_spent(struct qf_state *st, size_t bytes)
{
	st->work += bytes;
	if (st->work > st->budget || st->steps > QF_STEPS)
		st->gave_up = true;
	return st->gave_up;
}

/*
 * Where piece k (a literal) is next found at or after e; st->len when it
 * is not. The last search is kept: what lies between its start and its
 * hit is not looked at again.
 */
static size_t qf_find(struct qf_state *st, uint32_t k, size_t e)
{
	const struct qemu_piece *q = &st->f->v[k];
	const char *hit;

	if (st->from[k] <= e && e <= st->hit[k])
		return st->hit[k];
	hit = memmem(st->s + e, st->len - e, q->lit, q->len);
	st->from[k] = e;
	st->hit[k] = hit ? (size_t)(hit - st->s) : st->len;
	qf_spent(st, (hit ? (size_t)(hit - st->s) + q->len : st->len) - e);
	return st->hit[k];
}

static void qf_match(struct qf_state *st, uint32_t k, size_t at)
{
	const struct qemu_piece *p;
	size_t e, n, seen;

	if (st->found > 1 || st->gave_up)
		return;
	st->steps++;
	if (qf_spent(st, 1))
		return;
	if (k == st->f->n) {
		if (at != st->len)
			return;
		if (!st->found++) {
			memcpy(st->first, st->pos, sizeof(st->pos));
			st->first[k] = at;
		}
		return;
	}
	p = &st->f->v[k];
	st->pos[k] = at;
	if (!p->conv) {
		if (st->len - at >= p->len && !qf_spent(st, p->len) &&
		    !memcmp(st->s + at, p->lit, p->len))
			qf_match(st, k + 1, at + p->len);
		return;
	}
	if (p->conv != 's') {
		n = qf_number(p, st->s + at, st->len - at, &seen);
		if (!qf_spent(st, seen) && n)
			qf_match(st, k + 1, at + n);
		return;
	}
	/* %s: every end after which the rest can follow */
	if (k + 1 == st->f->n) {
		qf_match(st, k + 1, st->len);
		return;
	}
	for (e = at; e <= st->len && st->found < 2 && !st->gave_up; e++) {
		if (!st->f->v[k + 1].conv) {
			e = qf_find(st, k + 1, e);
			if (e == st->len)
				break;
		} else if (qf_spent(st, 1)) {
			break;
		}
		qf_match(st, k + 1, e);
	}
}

static uint64_t qf_value(const struct qemu_piece *p, const char *s,
			 size_t len, bool *neg)
{
	uint64_t v = 0;
	size_t i = 0;
	int base = 10;

	*neg = false;
	while (i < len && s[i] == ' ')
		i++;
	if (p->conv == 'c')
		return (unsigned char)s[i];
	if (p->conv == 'p') {
		if (len - i >= 5 && !memcmp(s + i, "(nil)", 5))
			return 0;
		i += 2;
		base = 16;
	} else if (p->conv == 'x' || p->conv == 'X') {
		base = 16;
		if (len - i >= 2 && s[i] == '0' && (s[i + 1] | 0x20) == 'x')
			i += 2;
	} else if (p->conv == 'o') {
		base = 8;
	} else if (i < len && (s[i] == '-' || s[i] == '+')) {
		*neg = s[i] == '-';
		i++;
	}
	for (; i < len; i++) {
		char c = s[i];
		unsigned d = c <= '9' ? (unsigned)(c - '0')
				      : (unsigned)((c | 0x20) - 'a' + 10);

		v = v * (unsigned)base + d;
	}
	return v;
}

int qemu_fmt_read(const struct qemu_fmt *f, const struct qemu_event *qe,
		  uint32_t first, const char *s, size_t len,
		  struct qemu_values *out)
{
	struct qf_state st = { .f = f, .s = s, .len = len };
	uint32_t k, a = first;

	if (!f->ok || f->nconv != qe->nargs - first)
		return -EINVAL;
	st.budget = (uint64_t)len * QF_WORK_PER_BYTE + QF_WORK_MIN;
	for (k = 0; k < f->n; k++)
		st.from[k] = SIZE_MAX;
	qf_match(&st, 0, 0);
	/* given up: whether a reading is the only one is not known */
	if (st.gave_up)
		return -EINVAL;
	if (st.found != 1)
		return st.found ? -EAGAIN : -EINVAL;
	for (k = 0; k < f->n; k++) {
		const struct qemu_piece *p = &f->v[k];
		const char *v = s + st.first[k];
		size_t vlen = st.first[k + 1] - st.first[k];
		bool neg;

		if (!p->conv)
			continue;
		if (p->conv == 's') {
			out->s[a] = v;
			out->slen[a] = vlen;
			out->u[a] = 0;
		} else {
			uint64_t u = qf_value(p, v, vlen, &neg);

			if (neg)
				u = -u;
			/* an int printed with %x: its 32 bits, sign-extended */
			else if (qe->args[a].kind == QEMU_ARG_S64 && !p->wide &&
				 p->conv != 'd' && p->conv != 'i' &&
				 p->conv != 'p' && u <= UINT32_MAX)
				u = (uint64_t)(int64_t)(int32_t)(uint32_t)u;
			out->u[a] = u;
			out->s[a] = NULL;
			out->slen[a] = 0;
		}
		a++;
	}
	return 0;
}
