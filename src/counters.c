// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf stat -I output (counters.h). Lines:
 *
 *   rdtsc 123456789                       (first line, optional: merge.py)
 *   # started on Wed Nov 25 15:40:01 2026 (perf stat -o)
 *   #           time             counts unit events   (human headers)
 *        1.001277035          1,234,567      cycles:G   (50.12%)
 *        1.001277035      <not counted>      kvm:kvm_exit
 *        1.001277035             100.52 msec task-clock  #  1.005 CPUs utilized
 *   1.001277035#114116639##cycles:G#107341775#100.00##   (-x#)
 *   1.001277035,<not supported>,,cycles:G,0,100.00,,     (-x,)
 *
 * With -x the fields are time, count, unit, event, running time, running
 * percentage, then metrics; the separator is the first character after
 * the time. Human lines are split at blanks: time, count, [unit,] event,
 * then a "# metric" comment and "(NN.NN%)" when the counter ran part of
 * the time.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "diag.h"

/* Seconds with up to nine decimals, as an exact count of ns. */
static bool counters_time(const char *s, size_t n, uint64_t *out)
{
	uint64_t sec = 0, ns = 0;
	size_t i = 0, digits = 0;

	while (i < n && isdigit((unsigned char)s[i])) {
		if (sec > UINT64_MAX / 10 / 1000000000u)
			return false;
		sec = sec * 10 + (uint64_t)(s[i++] - '0');
	}
	if (!i)
		return false;
	if (i < n && s[i] == '.') {
		for (i++; i < n && isdigit((unsigned char)s[i]); i++)
			if (digits < 9) {
				ns = ns * 10 + (uint64_t)(s[i] - '0');
				digits++;
			}
		for (; digits < 9; digits++)
			ns *= 10;
	}
	if (i != n)
		return false;
	*out = sec * 1000000000u + ns;
	return true;
}

/* A count: digits with "," grouping (human) and maybe a fraction. */
static bool counters_count(const char *s, size_t n, double *out)
{
	char buf[64], *end;
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == ',')
			continue;
		if (k + 1 >= sizeof(buf))
			return false;
		buf[k++] = s[i];
	}
	buf[k] = '\0';
	if (!k || !(isdigit((unsigned char)buf[0]) || buf[0] == '.'))
		return false;
	*out = strtod(buf, &end);
	return *end == '\0';
}

static int counters_series(struct counters *c, const char *name, size_t n,
			   uint32_t *idx)
{
	char **names;
	size_t i;

	for (i = 0; i < c->nnames; i++)
		if (strlen(c->names[i]) == n && !memcmp(c->names[i], name, n)) {
			*idx = (uint32_t)i;
			return 0;
		}
	names = realloc(c->names, (c->nnames + 1) * sizeof(*names));
	if (!names)
		return -ENOMEM;
	c->names = names;
	names[c->nnames] = strndup(name, n);
	if (!names[c->nnames])
		return -ENOMEM;
	*idx = (uint32_t)c->nnames++;
	return 0;
}

static int counters_add(struct counters *c, uint64_t t, const char *name,
			size_t nlen, bool counted, double count, double pct)
{
	struct counters_point *p;
	uint32_t idx;
	int ret;

	ret = counters_series(c, name, nlen, &idx);
	if (ret < 0)
		return ret;
	if (c->npoints == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 256;

		p = realloc(c->points, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		c->points = p;
		c->cap = cap;
	}
	p = &c->points[c->npoints++];
	p->t_ns = t;
	p->series = idx;
	p->counted = counted;
	p->count = counted ? count : 0;
	/* merge.py's upscaling by the time the counter ran */
	p->value = counted && pct > 0 ? count / (pct / 100.0) : p->count;
	return 0;
}

/* Up to max fields of line split at sep; returns how many. */
static size_t counters_split(const char *s, size_t n, char sep,
			     const char **f, size_t *len, size_t max)
{
	size_t k = 0, i, at = 0;

	for (i = 0; i <= n && k < max; i++) {
		if (i == n || s[i] == sep) {
			f[k] = s + at;
			len[k++] = i - at;
			at = i + 1;
		}
	}
	return k;
}

/* Fields split at runs of blanks. */
static size_t counters_words(const char *s, size_t n, const char **f,
			     size_t *len, size_t max)
{
	size_t k = 0, i = 0;

	while (i < n && k < max) {
		while (i < n && isspace((unsigned char)s[i]))
			i++;
		if (i == n)
			break;
		f[k] = s + i;
		while (i < n && !isspace((unsigned char)s[i]))
			i++;
		len[k] = (size_t)(s + i - f[k]);
		k++;
	}
	return k;
}

static bool counters_is(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && !memcmp(s, lit, n);
}

static int counters_line(struct counters *c, const char *s, size_t n,
			 unsigned lineno, struct diag *d)
{
	const char *f[16];
	size_t len[16], k, t_end = 0;
	double count = 0, pct = 100;
	bool counted = true;
	uint64_t t;

	while (t_end < n && (isdigit((unsigned char)s[t_end]) || s[t_end] == '.'))
		t_end++;
	if (!counters_time(s, t_end, &t)) {
		diag_set(d, "%s:%u: not perf stat -I output (a line starts with the time in seconds): %.*s",
			 c->path, lineno, (int)(n > 60 ? 60 : n), s);
		return -EINVAL;
	}
	if (t_end < n && !isspace((unsigned char)s[t_end])) {
		/* -x SEP */
		k = counters_split(s, n, s[t_end], f, len, 16);
		if (k < 4) {
			diag_set(d, "%s:%u: a perf stat -x line with %zu fields (time, count, unit, event … expected)",
				 c->path, lineno, k);
			return -EINVAL;
		}
		if (len[1] && f[1][0] == '<')
			counted = false;
		else if (!counters_count(f[1], len[1], &count))
			goto bad_count;
		if (k > 5 && len[5] && !counters_count(f[5], len[5], &pct))
			pct = 100;
		return counters_add(c, t, f[3], len[3], counted, count, pct);
	}
	k = counters_words(s, n, f, len, 16);
	if (k < 3)
		goto short_line;
	if (f[1][0] == '<') {
		/* <not counted> / <not supported>: two words */
		if (k < 4)
			goto short_line;
		return counters_add(c, t, f[3], len[3], false, 0, 0);
	}
	if (!counters_count(f[1], len[1], &count))
		goto bad_count;
	/* a unit before the event: "msec task-clock" */
	if (k >= 4 && f[3][0] != '#' && f[3][0] != '(') {
		f[2] = f[3];
		len[2] = len[3];
	}
	/* "(50.12%)": the share of the interval the counter ran */
	if (f[k - 1][0] == '(' && len[k - 1] > 3 && f[k - 1][len[k - 1] - 1] == ')' &&
	    f[k - 1][len[k - 1] - 2] == '%' &&
	    !counters_count(f[k - 1] + 1, len[k - 1] - 3, &pct))
		pct = 100;
	if (counters_is(f[2], len[2], "#"))
		goto short_line;
	return counters_add(c, t, f[2], len[2], counted, count, pct);
short_line:
	diag_set(d, "%s:%u: a perf stat -I line without an event name", c->path,
		 lineno);
	return -EINVAL;
bad_count:
	diag_set(d, "%s:%u: not a count: %.*s", c->path, lineno,
		 (int)(len[1] > 40 ? 40 : len[1]), f[1]);
	return -EINVAL;
}

int counters_load(struct counters *c, const char *path, struct diag *d)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	ssize_t n;
	FILE *f;
	int ret = 0;

	c->path = strdup(path);
	if (!c->path)
		return -ENOMEM;
	f = fopen(path, "re");
	if (!f) {
		diag_set(d, "--counters: %s: cannot open: %s", path,
			 strerror(errno));
		return -ENOENT;
	}
	while ((n = getline(&line, &cap, f)) >= 0) {
		const char *s = line;
		size_t len = (size_t)n;

		lineno++;
		while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
			len--;
		while (len && isspace((unsigned char)*s)) {
			s++;
			len--;
		}
		if (!len || *s == '#')
			continue;
		if (lineno == 1 && len > 6 && !memcmp(s, "rdtsc ", 6)) {
			char *end;

			c->rdtsc = strtoull(s + 6, &end, 0);
			c->has_rdtsc = true;
			continue;
		}
		ret = counters_line(c, s, len, lineno, d);
		if (ret < 0)
			break;
	}
	if (!ret && ferror(f)) {
		diag_set(d, "--counters: %s: cannot read: %s", path,
			 strerror(errno));
		ret = -EINVAL;
	}
	free(line);
	fclose(f);
	if (!ret && !c->npoints) {
		diag_set(d, "%s: no perf stat -I counts in it", path);
		ret = -EINVAL;
	}
	return ret == -ENOMEM ? ret : ret < 0 ? -EINVAL : 0;
}

void counters_fini(struct counters *c)
{
	size_t i;

	for (i = 0; i < c->nnames; i++)
		free(c->names[i]);
	free(c->names);
	free(c->points);
	free(c->path);
	memset(c, 0, sizeof(*c));
}
