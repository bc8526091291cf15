// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * HEADER_TRACING_DATA: the event formats of a perf.data, in the layout
 * trace-cmd's tracing data has (trace-cmd.dat(5)), into a libtraceevent
 * handle without plugins (as Debian's perf prints):
 *
 *   "\027\010\104tracing", version "0.6\0", u8 big-endian, u8 long size,
 *   u32 page size, "header_page\0" u64 size + text, "header_event\0" u64
 *   size + text, u32 n + n × (u64 size + ftrace format), u32 systems + per
 *   system: name "\0", u32 n + n × (u64 size + format), u32 size +
 *   kallsyms, u32 size + printk formats[, u64 size + saved cmdlines].
 *
 * perf skips the kallsyms (it resolves kernel addresses from its own
 * symbols); so do we: an address libtraceevent cannot name prints as the
 * number.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "perf-int.h"

struct perf_tr {
	struct perf *p;
	const unsigned char *b, *at, *end;
	bool be;
	uint64_t off;		/* the section's offset in the file */
	struct diag *d;
};

static int perf_tr_short(struct perf_tr *t, const char *what)
{
	diag_set(t->d, "%s: offset 0x%" PRIx64 ": truncated tracing data: the %s runs past its end",
		 t->p->name, t->off + (uint64_t)(t->at - t->b), what);
	return -EIO;
}

static uint64_t perf_tr_num(struct perf_tr *t, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)t->at[t->be ? n - 1 - i : i] << (8 * i);
	t->at += n;
	return v;
}

/* A size-prefixed block: *out, *len; -EIO when it does not fit. */
static int perf_tr_block(struct perf_tr *t, size_t nsize, const char *what,
			 const unsigned char **out, size_t *len)
{
	uint64_t n;

	if ((size_t)(t->end - t->at) < nsize)
		return perf_tr_short(t, what);
	n = perf_tr_num(t, nsize);
	if (n > (uint64_t)(t->end - t->at))
		return perf_tr_short(t, what);
	*out = t->at;
	*len = (size_t)n;
	t->at += n;
	return 0;
}

/* A block libtraceevent wants NUL-terminated. */
static char *perf_tr_dup(const unsigned char *b, size_t n)
{
	char *s = malloc(n + 1);

	if (s) {
		memcpy(s, b, n);
		s[n] = '\0';
	}
	return s;
}

static int perf_tr_formats(struct perf_tr *t, const char *sys)
{
	const unsigned char *f;
	uint32_t n, i;
	size_t len;
	int ret;

	if (t->end - t->at < 4)
		return perf_tr_short(t, "list of formats");
	n = (uint32_t)perf_tr_num(t, 4);
	for (i = 0; i < n; i++) {
		ret = perf_tr_block(t, 8, "event format", &f, &len);
		if (ret < 0)
			return ret;
		/* a format libtraceevent cannot parse prints as perf's does */
		tep_parse_event(t->p->tep, (const char *)f, len, sys);
	}
	return 0;
}

int perf_tracing_parse(struct perf *p, const unsigned char *b, size_t len,
		       uint64_t off, struct diag *d)
{
	static const unsigned char magic[10] = { 0x17, 0x08, 0x44, 't', 'r',
						 'a', 'c', 'i', 'n', 'g' };
	struct perf_tr t = { p, b, b, b + len, false, off, d };
	const unsigned char *blk, *z;
	uint32_t nsys, i;
	size_t n;
	char *s;
	int ret, long_size, page;

	if (p->tep) {
		/* a second copy (perf inject): the first one stands */
		return 0;
	}
	if (len < sizeof(magic) || memcmp(b, magic, sizeof(magic))) {
		diag_set(d, "%s: offset 0x%" PRIx64 ": the tracing data does not start with trace-cmd's magic (\\027\\010\\104tracing)",
			 p->name, off);
		return -EIO;
	}
	t.at += sizeof(magic);
	z = memchr(t.at, '\0', (size_t)(t.end - t.at));
	if (!z || t.end - z < 1 + 1 + 1 + 4)
		return perf_tr_short(&t, "header");
	t.at = z + 1;
	t.be = *t.at++ != 0;
	long_size = *t.at++;
	page = (int)perf_tr_num(&t, 4);
	p->tep = tep_alloc();
	if (!p->tep) {
		diag_set(d, "%s: out of memory", p->name);
		return -ENOMEM;
	}
	tep_set_file_bigendian(p->tep, t.be ? TEP_BIG_ENDIAN
					    : TEP_LITTLE_ENDIAN);
#ifdef WORDS_BIGENDIAN
	tep_set_local_bigendian(p->tep, TEP_BIG_ENDIAN);
#else
	tep_set_local_bigendian(p->tep, TEP_LITTLE_ENDIAN);
#endif
	tep_set_long_size(p->tep, long_size);
	tep_set_page_size(p->tep, page);
	/* "header_page\0" and its text */
	if (t.end - t.at < 12 || memcmp(t.at, "header_page", 12)) {
		diag_set(d, "%s: offset 0x%" PRIx64 ": corrupt tracing data: no header_page",
			 p->name, off + (uint64_t)(t.at - b));
		return -EIO;
	}
	t.at += 12;
	ret = perf_tr_block(&t, 8, "header_page", &blk, &n);
	if (ret < 0)
		return ret;
	s = perf_tr_dup(blk, n);
	if (!s)
		goto nomem;
	tep_parse_header_page(p->tep, s, n, long_size);
	free(s);
	if (t.end - t.at < 13 || memcmp(t.at, "header_event", 13)) {
		diag_set(d, "%s: offset 0x%" PRIx64 ": corrupt tracing data: no header_event",
			 p->name, off + (uint64_t)(t.at - b));
		return -EIO;
	}
	t.at += 13;
	ret = perf_tr_block(&t, 8, "header_event", &blk, &n);
	if (ret < 0)
		return ret;
	ret = perf_tr_formats(&t, "ftrace");
	if (ret < 0)
		return ret;
	if (t.end - t.at < 4)
		return perf_tr_short(&t, "list of systems");
	nsys = (uint32_t)perf_tr_num(&t, 4);
	for (i = 0; i < nsys; i++) {
		char sys[256];

		z = memchr(t.at, '\0', (size_t)(t.end - t.at));
		if (!z)
			return perf_tr_short(&t, "system name");
		snprintf(sys, sizeof(sys), "%.*s", (int)(z - t.at),
			 (const char *)t.at);
		t.at = z + 1;
		ret = perf_tr_formats(&t, sys);
		if (ret < 0)
			return ret;
	}
	/* kallsyms: skipped, as perf does */
	ret = perf_tr_block(&t, 4, "kallsyms", &blk, &n);
	if (ret < 0)
		return ret;
	ret = perf_tr_block(&t, 4, "printk formats", &blk, &n);
	if (ret < 0)
		return ret;
	if (n) {
		s = perf_tr_dup(blk, n);
		if (!s)
			goto nomem;
		tep_parse_printk_formats(p->tep, s);
		free(s);
	}
	p->have_tracing = true;
	return 0;
nomem:
	diag_set(d, "%s: out of memory", p->name);
	return -ENOMEM;
}
