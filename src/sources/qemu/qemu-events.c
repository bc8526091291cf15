// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace-events dictionary (qemu.h), read as QEMU's scripts/tracetool
 * reads it: blank lines and lines starting with '#' (after blanks) are
 * skipped; every other line is [PROPS] NAME(ARGS) ["FORMAT"].
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "qemu.h"

/* A dictionary bigger than this is no trace-events file (7.2's: 400 KiB) */
#define QEMU_EVENTS_MAX	(64u << 20)

static bool qemu_word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static bool qemu_space(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

static char *qemu_strip(char *s, char **end)
{
	char *e = *end;

	while (s < e && qemu_space(*s))
		s++;
	while (e > s && qemu_space(e[-1]))
		e--;
	*end = e;
	return s;
}

static uint64_t qemu_hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (len--) {
		h ^= (unsigned char)*s++;
		h *= 0x100000001b3ull;
	}
	return h;
}

/* Is the C type (const dropped) one of the signed integer types? */
static enum qemu_arg_kind qemu_type_kind(const char *type, size_t len)
{
	static const char *const sgn[] = {
		"int", "long", "short", "char", "signed", "int8_t", "int16_t",
		"int32_t", "int64_t", "ssize_t", "ptrdiff_t",
	};
	static const char *const str[] = {
		"const char*", "char*", "const char *", "char *",
	};
	const char *p = type, *end = type + len;
	bool is_signed = false;
	size_t i;

	for (i = 0; i < sizeof(str) / sizeof(str[0]); i++)
		if (len >= strlen(str[i]) &&
		    !strncmp(type, str[i], strlen(str[i])))
			return QEMU_ARG_STR;
	if (memchr(type, '*', len))
		return QEMU_ARG_U64;
	while (p < end) {
		const char *w;

		while (p < end && !qemu_word_char(*p))
			p++;
		w = p;
		while (p < end && qemu_word_char(*p))
			p++;
		if (p == w)
			break;
		if ((size_t)(p - w) == 8 && !strncmp(w, "unsigned", 8))
			return QEMU_ARG_U64;
		for (i = 0; i < sizeof(sgn) / sizeof(sgn[0]); i++)
			if (strlen(sgn[i]) == (size_t)(p - w) &&
			    !strncmp(w, sgn[i], (size_t)(p - w)))
				is_signed = true;
	}
	return is_signed ? QEMU_ARG_S64 : QEMU_ARG_U64;
}

static bool qemu_is_cpu_name(const char *name)
{
	return !strcmp(name, "cpu_index") || !strcmp(name, "cpu") ||
	       !strcmp(name, "vcpu") || !strcmp(name, "cpu_idx") ||
	       !strcmp(name, "vcpu_index");
}

/* One argument "TYPE NAME" in [s, e), cut in place. */
static int qemu_parse_arg(struct qemu_event *ev, char *s, char *e,
			  const char **why, const char **at)
{
	struct qemu_arg *a;
	char *star, *sp;

	*at = s;
	s = qemu_strip(s, &e);
	if (s == e) {
		*why = "empty argument (did you forget to use 'void'?)";
		return -EINVAL;
	}
	*at = s;
	if (e - s == 4 && !strncmp(s, "void", 4))
		return 0;
	if (ev->nargs == QEMU_MAX_ARGS) {
		*why = "more than 10 arguments";
		return -EINVAL;
	}
	a = &ev->args[ev->nargs];
	star = NULL;
	for (sp = s; sp < e; sp++)
		if (*sp == '*')
			star = sp;
	if (star) {
		char *n = star + 1, *ne = e;

		n = qemu_strip(n, &ne);
		*ne = '\0';
		a->name = n;
		a->type_len = (size_t)(star + 1 - s);
	} else {
		sp = e;
		while (sp > s && !qemu_space(sp[-1]))
			sp--;
		if (sp == s) {
			*at = sp;
			*why = "an argument without a type";
			return -EINVAL;
		}
		a->name = sp;
		*e = '\0';
		while (sp > s && qemu_space(sp[-1]))
			sp--;
		a->type_len = (size_t)(sp - s);
	}
	if (!*a->name) {
		*why = "an argument without a name";
		return -EINVAL;
	}
	a->type = s;
	a->kind = qemu_type_kind(s, a->type_len);
	if (ev->cpu_arg < 0 && a->kind != QEMU_ARG_STR &&
	    !memchr(a->type, '*', a->type_len) && qemu_is_cpu_name(a->name))
		ev->cpu_arg = (int)ev->nargs;
	ev->nargs++;
	return 0;
}

/* One event line [s, e), NUL-terminated at e; *at: where it is wrong. */
static int qemu_parse_line(struct qemu_event *ev, char *s, char *e,
			   const char **why, const char **at)
{
	char *open = memchr(s, '(', (size_t)(e - s)), *close, *name, *p;

	memset(ev, 0, sizeof(*ev));
	ev->cpu_arg = -1;
	*at = s;
	if (!open) {
		*why = "not NAME(ARGS) \"FORMAT\"";
		return -EINVAL;
	}
	name = open;
	while (name > s && qemu_word_char(name[-1]))
		name--;
	if (name == open) {
		*at = open;
		*why = "no event name before '('";
		return -EINVAL;
	}
	/* the properties: words before the name */
	for (p = s; p < name; p++) {
		if (!qemu_word_char(*p) && !qemu_space(*p)) {
			*at = p;
			*why = "not NAME(ARGS) \"FORMAT\"";
			return -EINVAL;
		}
	}
	if (name > s && !qemu_space(name[-1])) {
		*at = name;
		*why = "not NAME(ARGS) \"FORMAT\"";
		return -EINVAL;
	}
	for (p = s; p < name;) {
		char *w;

		while (p < name && qemu_space(*p))
			p++;
		w = p;
		while (p < name && qemu_word_char(*p))
			p++;
		if (p == w)
			break;
		if (p - w == 4 && !strncmp(w, "vcpu", 4))
			ev->vcpu = true;
		else if (!(p - w == 7 && !strncmp(w, "disable", 7))) {
			*at = w;
			*why = "unknown property (disable and vcpu are known)";
			return -EINVAL;
		}
	}
	close = memchr(open, ')', (size_t)(e - open));
	if (!close) {
		*at = open;
		*why = "no ')' after the arguments";
		return -EINVAL;
	}
	*open = '\0';
	ev->name = name;
	if (ev->vcpu) {
		/* QEMU 7.2's tracetool: the vCPU as an implicit first argument */
		ev->args[0].type = "void *";
		ev->args[0].type_len = 6;
		ev->args[0].name = "__cpu";
		ev->args[0].kind = QEMU_ARG_U64;
		ev->nargs = 1;
	}
	for (p = open + 1; p <= close;) {
		char *comma = memchr(p, ',', (size_t)(close - p));
		char *end = comma ? comma : close;

		if (qemu_parse_arg(ev, p, end, why, at) < 0)
			return -EINVAL;
		p = end + 1;
	}
	p = close + 1;
	while (p < e && qemu_space(*p))
		p++;
	if (p < e && *p != '"') {
		*at = p;
		*why = "text after the arguments that is no \"FORMAT\"";
		return -EINVAL;
	}
	while (e > p && qemu_space(e[-1]))
		e--;
	*e = '\0';
	ev->fmt = p;
	ev->fmt_len = (size_t)(e - p);
	return 0;
}

static int qemu_read_all(const char *path, char **out, size_t *len,
			 struct diag *d)
{
	struct stat st;
	char *buf;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0) {
		err = errno;
		diag_set(d, "%s: cannot open the QEMU event dictionary: %s%s",
			 path, strerror(err),
			 !strcmp(path, QEMU_EVENTS_DEFAULT) ?
				 " (install qemu-system-common, or give --qemu-events=TRACE-EVENTS)" : "");
		return -err;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size > QEMU_EVENTS_MAX) {
		diag_set(d, "%s: not a trace-events file (a regular file of at most %u MiB)",
			 path, QEMU_EVENTS_MAX >> 20);
		close(fd);
		return -EINVAL;
	}
	buf = malloc((size_t)st.st_size + 2);
	if (!buf) {
		close(fd);
		diag_set(d, "%s: out of memory", path);
		return -ENOMEM;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? errno : EIO;
			diag_set(d, "%s: cannot read: %s", path, strerror(err));
			free(buf);
			close(fd);
			return -err;
		}
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\n';
	buf[got + 1] = '\0';
	*out = buf;
	*len = got;
	return 0;
}

static int qemu_index(struct qemu_events *e, struct diag *d)
{
	size_t cap = 16, i;

	while (cap < e->n * 2)
		cap *= 2;
	e->hash = calloc(cap, sizeof(*e->hash));
	if (!e->hash) {
		diag_set(d, "%s: out of memory", e->path);
		return -ENOMEM;
	}
	e->hmask = cap - 1;
	for (i = 0; i < e->n; i++) {
		const char *name = e->v[i].name;
		size_t len = strlen(name);
		size_t h = (size_t)qemu_hash(name, len) & e->hmask;

		while (e->hash[h]) {
			/* a name defined again: the last definition wins (tracetool's dict) */
			if (!strcmp(e->v[e->hash[h] - 1].name, name))
				break;
			h = (h + 1) & e->hmask;
		}
		e->hash[h] = (uint32_t)i + 1;
	}
	return 0;
}

struct qemu_events *qemu_events_load(const char *path, struct diag *d)
{
	struct qemu_events *e = calloc(1, sizeof(*e));
	size_t len = 0, cap = 0;
	unsigned lineno = 0;
	char *p, *end;
	int err = ENOMEM, ret;

	if (!e || !(e->path = strdup(path))) {
		free(e);
		diag_set(d, "%s: out of memory", path);
		errno = ENOMEM;
		return NULL;
	}
	ret = qemu_read_all(path, &e->text, &len, d);
	if (ret < 0) {
		err = ret == -ENOMEM ? ENOMEM : EINVAL;
		goto error;
	}
	end = e->text + len;
	for (p = e->text; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p) + 1), *s = p;
		const char *why = NULL, *at = p, *line = p;

		lineno++;
		p = nl + 1;
		while (s < nl && (qemu_space(*s)))
			s++;
		if (s == nl || *s == '#')
			continue;
		if (e->n == cap) {
			struct qemu_event *v;

			cap = cap ? cap * 2 : 1024;
			v = realloc(e->v, cap * sizeof(*v));
			if (!v) {
				diag_set(d, "%s: out of memory", path);
				goto error;
			}
			e->v = v;
		}
		*nl = '\0';
		if (qemu_parse_line(&e->v[e->n], s, nl, &why, &at) < 0) {
			/* the column in bytes, from 1, as a compiler says it */
			diag_set(d, "%s:%u:%zu: %s", path, lineno,
				 (size_t)(at - line) + 1, why);
			err = EINVAL;
			goto error;
		}
		e->v[e->n].lineno = lineno;
		e->n++;
	}
	if (qemu_index(e, d) < 0)
		goto error;
	return e;
error:
	qemu_events_free(e);
	errno = err;
	return NULL;
}

void qemu_events_free(struct qemu_events *e)
{
	if (!e)
		return;
	free(e->hash);
	free(e->v);
	free(e->text);
	free(e->path);
	free(e);
}

const struct qemu_event *qemu_events_find(const struct qemu_events *e,
					  const char *name, size_t len)
{
	size_t h = (size_t)qemu_hash(name, len) & e->hmask;

	while (e->hash[h]) {
		const struct qemu_event *ev = &e->v[e->hash[h] - 1];

		/* name may hold a NUL (a simple trace's mapping record) */
		if (strnlen(ev->name, len + 1) == len &&
		    !memcmp(ev->name, name, len))
			return ev;
		h = (h + 1) & e->hmask;
	}
	return NULL;
}

static char qemu_quote(const unsigned char *s, size_t len)
{
	return memchr(s, '\'', len) && !memchr(s, '"', len) ? '"' : '\'';
}

size_t qemu_bytes_repr_len(const unsigned char *s, size_t len)
{
	size_t n = 3, i;
	char q = qemu_quote(s, len);

	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c == (unsigned char)q || c == '\\' || c == '\t' ||
		    c == '\n' || c == '\r')
			n += 2;
		else if (c < 0x20 || c >= 0x7f)
			n += 4;
		else
			n++;
	}
	return n;
}

char *qemu_bytes_repr(char *p, const unsigned char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	char q = qemu_quote(s, len);
	size_t i;

	*p++ = 'b';
	*p++ = q;
	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c == (unsigned char)q || c == '\\') {
			*p++ = '\\';
			*p++ = (char)c;
		} else if (c == '\t') {
			*p++ = '\\';
			*p++ = 't';
		} else if (c == '\n') {
			*p++ = '\\';
			*p++ = 'n';
		} else if (c == '\r') {
			*p++ = '\\';
			*p++ = 'r';
		} else if (c < 0x20 || c >= 0x7f) {
			*p++ = '\\';
			*p++ = 'x';
			*p++ = hex[c >> 4];
			*p++ = hex[c & 15];
		} else {
			*p++ = (char)c;
		}
	}
	*p++ = q;
	return p;
}
