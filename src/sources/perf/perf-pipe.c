// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The header records a pipe file (perf record -o -) starts with: after
 * the 16-byte header, HEADER_ATTR (an attr and its ids), HEADER_FEATURE
 * (EVENT_DESC, CLOCKID), EVENT_UPDATE (a name) and HEADER_TRACING_DATA
 * (the event formats, as a payload after the record), until the first
 * record of the kernel's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf-int.h"

/* Read n bytes of the stream into a new buffer (a pipe's tracing data). */
static int perf_in_take(struct perf *p, size_t n, unsigned char **out,
			struct diag *d)
{
	unsigned char *b = malloc(n ? n : 1);
	size_t got = 0;
	int ret;

	if (!b) {
		diag_set(d, "%s: out of memory", p->name);
		return -ENOMEM;
	}
	while (got < n) {
		size_t k;

		ret = perf_in_fill(p, 1, d);
		if (ret < 0) {
			free(b);
			return ret;
		}
		k = p->in.len - p->in.pos;
		if (!k) {
			diag_set(d, "%s: offset 0x%" PRIx64 ": truncated perf.data: the tracing data ends early (%zu bytes of %zu)",
				 p->name, perf_in_tell(&p->in), got, n);
			free(b);
			return -EIO;
		}
		if (k > n - got)
			k = n - got;
		memcpy(b + got, p->in.buf + p->in.pos, k);
		p->in.pos += k;
		got += k;
	}
	*out = b;
	return 0;
}

/*
 * A pipe's records that name events by their ids (EVENT_UPDATE,
 * HEADER_FEATURE's EVENT_DESC) may come between its HEADER_ATTR records:
 * they are kept and read once every attr is in, so that the ids are
 * sorted once, not at every one of them (48 000 of each took 40 s).
 */
struct perf_named {
	uint32_t type;		/* PERF_R_EVENT_UPDATE, PERF_R_HEADER_FEATURE */
	uint32_t snap;		/* the attrs known when it came */
	size_t len;
	unsigned char b[];	/* its payload after the record's header */
};

struct perf_nameds {
	struct perf_named **v;	/* owned, and each of them */
	size_t n, cap;
};

static int perf_named_keep(struct perf *p, struct perf_nameds *k,
			   uint32_t type, const unsigned char *b, size_t len)
{
	struct perf_named *e;

	if (k->n == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 16;
		struct perf_named **v = realloc(k->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		k->v = v;
		k->cap = cap;
	}
	e = malloc(sizeof(*e) + len);
	if (!e)
		return -ENOMEM;
	e->type = type;
	e->snap = p->nattrs;
	e->len = len;
	memcpy(e->b, b, len);
	k->v[k->n++] = e;
	return 0;
}

/* The kept records, in their order; they are freed. */
static int perf_named_apply(struct perf *p, struct perf_nameds *k)
{
	int ret = 0;
	size_t i;

	for (i = 0; i < k->n; i++) {
		struct perf_named *e = k->v[i];
		struct perf_attr *at;

		if (ret == 0 && e->type == PERF_R_HEADER_FEATURE) {
			ret = perf_event_desc_among(p, e->b, e->len, e->snap);
		} else if (ret == 0 && e->snap) {
			/* EVENT_UPDATE: u64 type, u64 id, the name */
			at = perf_attr_among(p, perf_u64(p, e->b + 8), e->snap);
			if (at && !at->name) {
				at->name = strndup((const char *)e->b + 16,
						   e->len - 16);
				if (!at->name)
					ret = -ENOMEM;
			}
		}
		free(e);
	}
	free(k->v);
	k->v = NULL;
	k->n = k->cap = 0;
	return ret;
}

int perf_open_pipe(struct perf *p, struct diag *d)
{
	struct perf_nameds named = { NULL, 0, 0 };
	int ret;

	p->in.end = UINT64_MAX;
	for (;;) {
		const unsigned char *r;
		uint64_t off = perf_in_tell(&p->in);
		uint32_t type;
		uint16_t size;

		ret = perf_in_fill(p, 8, d);
		if (ret < 0)
			goto end;
		if (p->in.len - p->in.pos < 8)
			break;
		r = p->in.buf + p->in.pos;
		type = perf_u32(p, r);
		size = perf_u16(p, r + 6);
		/* perf's own records until the first of the kernel's */
		if (type < PERF_R_USER || type == PERF_R_FINISHED_ROUND ||
		    type == PERF_R_COMPRESSED || type == PERF_R_AUXTRACE)
			break;
		if (size < 8) {
			diag_set(d, "%s: offset 0x%" PRIx64 ": corrupt perf.data: a record of %u bytes",
				 p->name, off, size);
			ret = -EIO;
			goto end;
		}
		ret = perf_in_fill(p, size, d);
		if (ret < 0)
			goto end;
		if (p->in.len - p->in.pos < size) {
			diag_set(d, "%s: offset 0x%" PRIx64 ": truncated perf.data: the file ends within a header record",
				 p->name, off);
			ret = -EIO;
			goto end;
		}
		r = p->in.buf + p->in.pos;
		if (type == PERF_R_HEADER_ATTR) {
			uint32_t asize = perf_u32(p, r + 12);

			if (asize < 48 || asize > (uint32_t)size - 8) {
				diag_set(d, "%s: offset 0x%" PRIx64 ": corrupt perf.data: an event attr of %u bytes in a record of %u",
					 p->name, off, asize, size);
				ret = -EIO;
				goto end;
			}
			ret = perf_add_attr(p, r + 8, asize, r + 8 + asize,
					    (size - 8 - asize) / 8, d);
		} else if (type == PERF_R_HEADER_FEATURE && size >= 16 &&
			   perf_u64(p, r + 8) == PERF_F_EVENT_DESC) {
			ret = perf_named_keep(p, &named, type, r + 16,
					      size - 16u);
		} else if (type == PERF_R_HEADER_FEATURE && size >= 24 &&
			   perf_u64(p, r + 8) == PERF_F_CLOCKID) {
			if (p->clockid < 0)
				p->clockid = PERF_CLOCKID_UNKNOWN;
		} else if (type == PERF_R_HEADER_FEATURE && size >= 16 &&
			   perf_u64(p, r + 8) == PERF_F_HOSTNAME) {
			ret = perf_hostname(p, r + 16, size - 16u);
		} else if (type == PERF_R_EVENT_UPDATE && size > 24 &&
			   perf_u64(p, r + 8) == PERF_EVENT_UPDATE_NAME) {
			ret = perf_named_keep(p, &named, type, r + 8,
					      size - 8u);
		} else if (type == PERF_R_HEADER_TRACING_DATA) {
			uint32_t tsize = size >= 12 ? perf_u32(p, r + 8) : 0;
			unsigned char *b;

			p->in.pos += size;
			if (tsize > PERF_SECTION_MAX) {
				diag_set(d, "%s: offset 0x%" PRIx64 ": corrupt perf.data: tracing data of %u bytes",
					 p->name, off, tsize);
				ret = -EIO;
				goto end;
			}
			ret = perf_in_take(p, tsize, &b, d);
			if (ret < 0)
				goto end;
			ret = perf_tracing_parse(p, b, tsize, off + size, d);
			free(b);
			if (ret < 0)
				goto end;
			continue;
		}
		if (ret == -ENOMEM)
			diag_set(d, "%s: out of memory", p->name);
		if (ret < 0)
			goto end;
		p->in.pos += size;
	}
	if (p->nattrs > 1)
		perf_attr_of(p, 0);	/* the ids sorted, once */
	ret = perf_named_apply(p, &named);
	if (ret < 0) {
		diag_set(d, "%s: out of memory", p->name);
		return ret;
	}
	return perf_attrs_done(p, d);
end:
	perf_named_apply(p, &named);
	return ret;
}
