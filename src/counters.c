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
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
	/* 1e400 is no count perf prints: it would be inf */
	return *end == '\0' && isfinite(*out);
}

/*
 * A name's slot: FNV-1a over its bytes from a seed of this run, every bit
 * mixed (murmur3's finalizer). Names were found by a scan of all before
 * them: 80 000 names took 40 s.
 */
static size_t counters_slot(const struct counters *c, const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull ^ c->seed;

	while (n--) {
		h ^= (unsigned char)*s++;
		h *= 0x100000001b3ull;
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return (size_t)h & (c->nslots - 1);
}

static void counters_slot_put(struct counters *c, size_t i)
{
	size_t k = counters_slot(c, c->names[i], strlen(c->names[i]));

	while (c->slots[k])
		k = (k + 1) & (c->nslots - 1);
	c->slots[k] = (uint32_t)i + 1;
}

static int counters_series(struct counters *c, const char *name, size_t n,
			   uint32_t *idx)
{
	char **names;
	size_t i;

	if (c->nslots) {
		for (i = counters_slot(c, name, n); c->slots[i];
		     i = (i + 1) & (c->nslots - 1)) {
			const char *s = c->names[c->slots[i] - 1];

			if (!strncmp(s, name, n) && !s[n]) {
				*idx = c->slots[i] - 1;
				return 0;
			}
		}
	}
	if ((c->nnames + 1) * 2 > c->nslots) {
		size_t cap = c->nslots ? c->nslots * 2 : 64;
		uint32_t *v = calloc(cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		free(c->slots);
		c->slots = v;
		c->nslots = cap;
		for (i = 0; i < c->nnames; i++)
			counters_slot_put(c, i);
	}
	if (!(c->nnames & (c->nnames - 1))) {
		/* 1, 2, 4 … names: room doubled */
		names = realloc(c->names, (c->nnames ? 2 * c->nnames : 1) *
						  sizeof(*names));
		if (!names)
			return -ENOMEM;
		c->names = names;
	}
	c->names[c->nnames] = strndup(name, n);
	if (!c->names[c->nnames])
		return -ENOMEM;
	counters_slot_put(c, c->nnames);
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

/* One line (n bytes, its new line dropped); 0 or -errno with d set. */
static int counters_text(struct counters *c, const char *s, size_t n,
			 unsigned lineno, struct diag *d)
{
	const char *nul = memchr(s, '\0', n);

	if (nul) {
		diag_set(d, "%s:%u:%zu: a NUL byte in a line of perf stat output: the file is damaged",
			 c->path, lineno, (size_t)(nul - s) + 1);
		return -EINVAL;
	}
	while (n && s[n - 1] == '\r')
		n--;
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	if (!n || *s == '#')
		return 0;
	if (lineno == 1 && n > 6 && !memcmp(s, "rdtsc ", 6)) {
		char buf[32], *end;

		snprintf(buf, sizeof(buf), "%.*s", (int)(n - 6 < 31 ? n - 6 : 31),
			 s + 6);
		c->rdtsc = strtoull(buf, &end, 0);
		c->has_rdtsc = true;
		return 0;
	}
	return counters_line(c, s, n, lineno, d);
}

/* The file's lines, each at most COUNTERS_LINE_MAX bytes. */
static int counters_lines(struct counters *c, int fd, struct diag *d)
{
	size_t cap = 2 * COUNTERS_LINE_MAX, len = 0, pos = 0;
	char *buf = malloc(cap);
	unsigned lineno = 0;
	bool eof = false;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	while (!ret) {
		char *nl = memchr(buf + pos, '\n', len - pos);
		ssize_t got;

		if (nl || (eof && pos < len)) {
			size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;

			if (++lineno == 0)
				lineno--;
			ret = counters_text(c, buf + pos, n, lineno, d);
			pos += n + (nl != NULL);
			continue;
		}
		if (eof)
			break;
		if (len - pos > COUNTERS_LINE_MAX) {
			diag_set(d, "%s:%u: a line longer than %u bytes: not perf stat output",
				 c->path, lineno + 1, COUNTERS_LINE_MAX);
			ret = -EINVAL;
			break;
		}
		memmove(buf, buf + pos, len - pos);
		len -= pos;
		pos = 0;
		do
			got = read(fd, buf + len, cap - len);
		while (got < 0 && errno == EINTR);
		if (got < 0) {
			diag_set(d, "--counters: %s: cannot read: %s", c->path,
				 strerror(errno));
			ret = -EINVAL;
		}
		eof = got == 0;
		len += got > 0 ? (size_t)got : 0;
	}
	free(buf);
	return ret;
}

int counters_load(struct counters *c, const char *path, struct diag *d)
{
	struct stat st;
	int fd, ret;

	c->path = strdup(path);
	if (!c->path)
		return -ENOMEM;
	if (getrandom(&c->seed, sizeof(c->seed), GRND_NONBLOCK) !=
	    (ssize_t)sizeof(c->seed))
		c->seed = (uint64_t)time(NULL) ^ (uint64_t)(uintptr_t)c;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		diag_set(d, "--counters: %s: cannot open: %s", path,
			 strerror(errno));
		return -ENOENT;
	}
	/* a device (/dev/zero) or a socket would be read for ever */
	if (fstat(fd, &st) < 0) {
		diag_set(d, "--counters: %s: cannot read: %s", path,
			 strerror(errno));
		close(fd);
		return -ENOENT;
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		diag_set(d, "--counters: %s: %s, not a file of perf stat -I output (a regular file or a pipe)",
			 path, S_ISCHR(st.st_mode) ? "a character device" :
			 S_ISBLK(st.st_mode) ? "a block device" :
			 S_ISDIR(st.st_mode) ? "a directory" :
			 S_ISSOCK(st.st_mode) ? "a socket" : "not a regular file");
		close(fd);
		return -ENOENT;
	}
	ret = counters_lines(c, fd, d);
	close(fd);
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
	free(c->slots);
	free(c->points);
	free(c->path);
	memset(c, 0, sizeof(*c));
}

size_t counters_overflows(const struct counters *c, struct diag *d)
{
	double *sum = calloc(c->nnames ? c->nnames : 1, sizeof(*sum));
	size_t i, n = 0;

	if (!sum)
		return 0;
	for (i = 0; i < c->npoints; i++)
		if (c->points[i].counted)
			sum[c->points[i].series] += c->points[i].value;
	for (i = 0; i < c->nnames; i++) {
		if (isfinite(sum[i]))
			continue;
		if (!n++)
			diag_set(d, "%s: the total of '%s'", c->path,
				 c->names[i]);
		else if (n <= 4)
			diag_add(d, ", '%s'", c->names[i]);
	}
	if (n > 4)
		diag_add(d, " and %zu more", n - 4);
	if (n)
		diag_add(d, " is past the range of a double (%g): shown as none (null in JSON)",
			 1.7976931348623157e308);
	free(sum);
	return n;
}
