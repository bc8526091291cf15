// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bytes of a perf.data file: a buffered reader of the data section
 * (or of the whole stream, for a pipe file), the 104-byte header of a
 * normal file with its attrs, ids and feature sections, and the header
 * records (HEADER_ATTR, HEADER_TRACING_DATA, HEADER_FEATURE) a pipe file
 * starts with.
 *
 * Normal file:  header | attrs (attr, ids section)… | ids | data |
 *               feature table (offset, size per feature bit) | features
 * Pipe file:    magic, u64 16 | records, the header ones first
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf-int.h"

/* The most a sane header section may hold (attrs, names, formats). */
#define PERF_SECTION_MAX	(256u << 20)
#define PERF_ATTRS_MAX		65536u

int perf_in_fill(struct perf *p, size_t n, struct diag *d)
{
	struct perf_in *in = &p->in;

	while (in->len - in->pos < n && !in->eof) {
		size_t room;
		uint64_t at;
		ssize_t got;

		if (in->pos) {
			memmove(in->buf, in->buf + in->pos, in->len - in->pos);
			in->off += in->pos;
			in->len -= in->pos;
			in->pos = 0;
		}
		if (n > in->cap) {
			unsigned char *b = realloc(in->buf, n);

			if (!b) {
				diag_set(d, "%s: out of memory", p->name);
				return -ENOMEM;
			}
			in->buf = b;
			in->cap = n;
		}
		room = in->cap - in->len;
		at = in->off + in->len;
		if (in->end != UINT64_MAX) {
			if (at >= in->end) {
				in->eof = true;
				break;
			}
			if (room > in->end - at)
				room = (size_t)(in->end - at);
		}
		got = read(in->fd, in->buf + in->len, room);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			diag_set(d, "%s: offset 0x%" PRIx64 ": cannot read: %s",
				 p->name, at, strerror(errno));
			return -errno;
		}
		if (got == 0)
			in->eof = true;
		in->len += (size_t)got;
	}
	return 0;
}

int perf_pread(struct perf *p, void *buf, size_t n, uint64_t off,
	       struct diag *d)
{
	size_t got = 0;

	while (got < n) {
		ssize_t k = pread(p->in.fd, (char *)buf + got, n - got,
				  (off_t)(off + got));

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			diag_set(d, "%s: offset 0x%" PRIx64 ": cannot read: %s",
				 p->name, off + got, strerror(errno));
			return -errno;
		}
		if (k == 0) {
			diag_set(d, "%s: offset 0x%" PRIx64 ": truncated perf.data: the file ends within a header section (%zu bytes needed, %zu left)",
				 p->name, off, n, got);
			return -EIO;
		}
		got += (size_t)k;
	}
	return 0;
}

int perf_add_attr(struct perf *p, const unsigned char *a, size_t len,
		  const unsigned char *ids, size_t nids, struct diag *d)
{
	struct perf_attr *at;
	uint64_t flags;
	size_t i;

	if (len < 48) {
		diag_set(d, "%s: an event attr of %zu bytes (at least 48 expected)",
			 p->name, len);
		return -EIO;
	}
	if (p->nattrs >= PERF_ATTRS_MAX) {
		diag_set(d, "%s: more than %u events", p->name, PERF_ATTRS_MAX);
		return -EIO;
	}
	if (p->nattrs == p->capattrs) {
		size_t cap = p->capattrs ? 2 * p->capattrs : 8;

		at = realloc(p->attrs, cap * sizeof(*at));
		if (!at)
			goto nomem;
		p->attrs = at;
		p->capattrs = (uint32_t)cap;
	}
	at = &p->attrs[p->nattrs];
	memset(at, 0, sizeof(*at));
	at->type = perf_u32(p, a);
	at->config = perf_u64(p, a + 8);
	at->sample_type = perf_u64(p, a + 24);
	at->read_format = perf_u64(p, a + 32);
	flags = perf_u64(p, a + 40);
	/*
	 * The bit fields after read_format: sample_id_all is bit 18 from
	 * the low end on a little-endian writer, from the high end on a
	 * big-endian one.
	 */
	at->sample_id_all = p->file_be ? (flags >> (63 - 18)) & 1
				       : (flags >> 18) & 1;
	/* perf record -k: use_clockid (bit 25), the clock id at byte 92 */
	if (len >= 96 && (p->file_be ? (flags >> (63 - 25)) & 1
				     : (flags >> 25) & 1))
		p->clockid = (int32_t)perf_u32(p, a + 92);
	at->t.index = p->nattrs;
	if (p->nids + nids > p->capids) {
		size_t cap = p->capids ? 2 * p->capids : 64;
		struct perf_id *n;

		while (cap < p->nids + nids)
			cap *= 2;
		n = realloc(p->ids, cap * sizeof(*n));
		if (!n)
			goto nomem;
		p->ids = n;
		p->capids = cap;
	}
	for (i = 0; i < nids; i++)
		p->ids[p->nids++] = (struct perf_id){ perf_u64(p, ids + 8 * i),
						      p->nattrs };
	p->nattrs++;
	p->ids_sorted = false;
	return 0;
nomem:
	diag_set(d, "%s: out of memory", p->name);
	return -ENOMEM;
}

static int perf_id_cmp(const void *a, const void *b)
{
	const struct perf_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

struct perf_attr *perf_attr_of(struct perf *p, uint64_t id)
{
	size_t lo = 0, hi = p->nids;

	if (p->nattrs == 1)
		return &p->attrs[0];
	if (!p->ids_sorted) {
		if (p->nids)
			qsort(p->ids, p->nids, sizeof(*p->ids), perf_id_cmp);
		p->ids_sorted = true;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->ids[mid].id == id)
			return &p->attrs[p->ids[mid].attr];
		if (p->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* perf's string: u32 length (with the NUL and padding), then the bytes */
static const unsigned char *perf_string(struct perf *p, const unsigned char *b,
					const unsigned char *end, char **out)
{
	uint32_t n;

	if (end - b < 4)
		return NULL;
	n = perf_u32(p, b);
	b += 4;
	if ((size_t)(end - b) < n)
		return NULL;
	*out = strndup((const char *)b, n);
	return *out ? b + n : NULL;
}

int perf_event_desc(struct perf *p, const unsigned char *b, size_t len,
		    struct diag *d)
{
	const unsigned char *end = b + len;
	uint32_t nr, asize, i, k, nid;

	if (len < 8)
		return 0;
	nr = perf_u32(p, b);
	asize = perf_u32(p, b + 4);
	b += 8;
	for (i = 0; i < nr; i++) {
		struct perf_attr *at = NULL;
		char *name = NULL;

		if ((size_t)(end - b) < (size_t)asize + 4)
			break;
		b += asize;
		nid = perf_u32(p, b);
		b += 4;
		b = perf_string(p, b, end, &name);
		if (!b)
			break;
		if ((size_t)(end - b) / 8 < nid) {
			free(name);
			break;
		}
		for (k = 0; k < nid && !at; k++)
			at = p->nattrs > 1 ? perf_attr_of(p, perf_u64(p, b + 8 * k))
					   : NULL;
		if (!at && i < p->nattrs)
			at = &p->attrs[i];
		b += 8 * (size_t)nid;
		if (at && !at->name && name && *name) {
			at->name = name;
			name = NULL;
		}
		free(name);
	}
	(void)d;
	return 0;
}

/* The name perf gives an event its file does not name. */
static int perf_default_name(struct perf_attr *at)
{
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses",
		"branches", "branch-misses", "bus-cycles",
		"stalled-cycles-frontend", "stalled-cycles-backend",
		"ref-cycles",
	};
	static const char *const sw[] = {
		"cpu-clock", "task-clock", "page-faults", "context-switches",
		"cpu-migrations", "minor-faults", "major-faults",
		"alignment-faults", "emulation-faults", "dummy", "bpf-output",
		"cgroup-switches",
	};
	char buf[300];

	if (at->tp)
		snprintf(buf, sizeof(buf), "%s:%s", at->tp->system,
			 at->tp->name);
	else if (at->type == PERF_T_TRACEPOINT)
		snprintf(buf, sizeof(buf), "unknown tracepoint");
	else if (at->type == PERF_T_HARDWARE && at->config < 10)
		snprintf(buf, sizeof(buf), "%s", hw[at->config]);
	else if (at->type == PERF_T_SOFTWARE && at->config < 12)
		snprintf(buf, sizeof(buf), "%s", sw[at->config]);
	else
		snprintf(buf, sizeof(buf), "raw 0x%" PRIx64, at->config);
	at->name = strdup(buf);
	if (!at->name)
		return -ENOMEM;
	return 0;
}

int perf_attrs_done(struct perf *p, struct diag *d)
{
	uint32_t i;

	if (!p->ids_sorted) {
		if (p->nids)
			qsort(p->ids, p->nids, sizeof(*p->ids), perf_id_cmp);
		p->ids_sorted = true;
	}
	p->name_width = 0;
	p->ntp = false;
	for (i = 0; i < p->nattrs; i++) {
		struct perf_attr *at = &p->attrs[i];
		int w;

		if (at->type == PERF_T_TRACEPOINT && p->tep && !at->tp)
			at->tp = tep_find_event(p->tep, (int)at->config);
		if (at->tp) {
			at->t.id = (uint64_t)at->tp->id;
			at->t.system = at->tp->system;
			at->t.name = at->tp->name;
		}
		if (at->type == PERF_T_TRACEPOINT)
			p->ntp = true;
		if (!at->name && perf_default_name(at) < 0) {
			diag_set(d, "%s: out of memory", p->name);
			return -ENOMEM;
		}
		w = (int)strlen(at->name);
		if (w > p->name_width)
			p->name_width = w;
	}
	if (p->nattrs)
		p->id_type = p->attrs[0].sample_type;
	p->id_pos = -1;
	if (p->id_type & PERF_S_IDENTIFIER)
		p->id_pos = 0;
	else if (p->id_type & PERF_S_ID)
		p->id_pos = 8 * __builtin_popcountll(
				    p->id_type & (PERF_S_IP | PERF_S_TID |
						  PERF_S_TIME | PERF_S_ADDR));
	for (i = 0; i < p->nattrs; i++) {
		struct perf_attr *at = &p->attrs[i];
		uint64_t st = at->sample_type;
		uint16_t o = 0;

		o += st & PERF_S_IDENTIFIER ? 8 : 0;
		o += st & PERF_S_IP ? 8 : 0;
		at->off_tid = o;
		o += st & PERF_S_TID ? 8 : 0;
		at->off_time = o;
		o += st & PERF_S_TIME ? 8 : 0;
		o += st & PERF_S_ADDR ? 8 : 0;
		o += st & PERF_S_ID ? 8 : 0;
		o += st & PERF_S_STREAM_ID ? 8 : 0;
		at->off_cpu = o;
		o += st & PERF_S_CPU ? 8 : 0;
		o += st & PERF_S_PERIOD ? 8 : 0;
		at->off_read = o;
	}
	return 0;
}

/*
 * HOSTNAME's perf_header_string (u32 length, then the name, NUL-padded)
 * of n bytes at b: the name, if it is one. 0 or -ENOMEM.
 */
static int perf_hostname(struct perf *p, const unsigned char *b, size_t n)
{
	size_t len, i;

	if (n < 4 || p->hostname)
		return 0;
	len = perf_u32(p, b);
	if (len > n - 4 || len > 256)
		return 0;
	for (i = 0; i < len && b[4 + i]; i++)
		if (b[4 + i] < 0x20 || b[4 + i] == 0x7f)
			return 0;
	if (!i)
		return 0;
	p->hostname = strndup((const char *)b + 4, i);
	return p->hostname ? 0 : -ENOMEM;
}

/* A feature section of a normal file: its offset and size; -ENOENT. */
static int perf_feature(struct perf *p, unsigned bit, uint64_t *off,
			uint64_t *size, struct diag *d)
{
	unsigned char sec[16];
	unsigned i, nth = 0;
	int ret;

	if (!(p->features[bit / 8] & (1u << (bit % 8))))
		return -ENOENT;
	for (i = 0; i < bit; i++)
		if (p->features[i / 8] & (1u << (i % 8)))
			nth++;
	ret = perf_pread(p, sec, 16, p->feat_off + 16 * (uint64_t)nth, d);
	if (ret < 0)
		return ret;
	*off = perf_u64(p, sec);
	*size = perf_u64(p, sec + 8);
	return 0;
}

/* A feature section's bytes (malloc'd), checked against the file size. */
static int perf_feature_read(struct perf *p, unsigned bit, uint64_t fsize,
			     unsigned char **out, size_t *len, uint64_t *at,
			     struct diag *d)
{
	uint64_t off, size;
	int ret;

	*out = NULL;
	ret = perf_feature(p, bit, &off, &size, d);
	if (ret < 0)
		return ret;
	if (off > fsize || size > fsize - off || size > PERF_SECTION_MAX) {
		diag_set(d, "%s: offset 0x%" PRIx64 ": truncated perf.data: a header section (feature %u, %" PRIu64 " bytes) lies past the end of the file (%" PRIu64 " bytes)",
			 p->name, off, bit, size, fsize);
		return -EIO;
	}
	*out = malloc(size ? (size_t)size : 1);
	if (!*out) {
		diag_set(d, "%s: out of memory", p->name);
		return -ENOMEM;
	}
	*len = (size_t)size;
	*at = off;
	return perf_pread(p, *out, (size_t)size, off, d);
}

int perf_open_file(struct perf *p, struct diag *d)
{
	unsigned char h[PERF_HEADER_SIZE], *buf = NULL;
	uint64_t attr_size, attrs_off, attrs_size, fsize, at, i;
	size_t len;
	struct stat st;
	int ret;

	ret = perf_pread(p, h, sizeof(h), 0, d);
	if (ret < 0)
		return ret;
	if (fstat(p->in.fd, &st) < 0) {
		diag_set(d, "%s: cannot read: %s", p->name, strerror(errno));
		return -errno;
	}
	fsize = (uint64_t)st.st_size;
	attr_size = perf_u64(p, h + 16);
	attrs_off = perf_u64(p, h + 24);
	attrs_size = perf_u64(p, h + 32);
	p->data_off = perf_u64(p, h + 40);
	p->data_size = perf_u64(p, h + 48);
	for (i = 0; i < PERF_F_BITS / 64; i++) {
		uint64_t w = perf_u64(p, h + 72 + 8 * i);
		unsigned b;

		for (b = 0; b < 64; b++)
			if (w >> b & 1)
				p->features[(64 * i + b) / 8] |=
					(unsigned char)(1u << (b % 8));
	}
	if (attr_size < 16 + 48 || attr_size > 4096 ||
	    attrs_size % attr_size || attrs_size / attr_size > PERF_ATTRS_MAX ||
	    attrs_off > fsize || attrs_size > fsize - attrs_off) {
		diag_set(d, "%s: offset 0x18: corrupt perf.data header: attrs of %" PRIu64 " bytes at 0x%" PRIx64 " (%" PRIu64 " bytes), file of %" PRIu64 " bytes",
			 p->name, attr_size, attrs_off, attrs_size, fsize);
		return -EIO;
	}
	if (p->data_off > fsize || p->data_size > fsize - p->data_off) {
		diag_set(d, "%s: truncated perf.data: the data section ends at 0x%" PRIx64 ", the file at 0x%" PRIx64 "; the event formats are written after the data, so nothing can be read (perf cannot read it either)",
			 p->name, p->data_off + p->data_size, fsize);
		return -EIO;
	}
	p->feat_off = p->data_off + p->data_size;
	/* attrs and their ids */
	buf = malloc((size_t)attr_size);
	if (!buf)
		goto nomem;
	for (at = attrs_off; at < attrs_off + attrs_size; at += attr_size) {
		unsigned char *ids = NULL;
		uint64_t ids_off, ids_size;

		ret = perf_pread(p, buf, (size_t)attr_size, at, d);
		if (ret < 0)
			goto end;
		ids_off = perf_u64(p, buf + attr_size - 16);
		ids_size = perf_u64(p, buf + attr_size - 8);
		if (ids_off > fsize || ids_size > fsize - ids_off ||
		    ids_size > PERF_SECTION_MAX) {
			diag_set(d, "%s: offset 0x%" PRIx64 ": corrupt perf.data: the ids of an event lie past the end of the file",
				 p->name, at);
			ret = -EIO;
			goto end;
		}
		if (ids_size) {
			ids = malloc((size_t)ids_size);
			if (!ids)
				goto nomem;
			ret = perf_pread(p, ids, (size_t)ids_size, ids_off, d);
			if (ret == 0)
				ret = perf_add_attr(p, buf, (size_t)attr_size - 16,
						    ids, (size_t)ids_size / 8, d);
			free(ids);
		} else {
			ret = perf_add_attr(p, buf, (size_t)attr_size - 16,
					    NULL, 0, d);
		}
		if (ret < 0)
			goto end;
	}
	free(buf);
	buf = NULL;
	/* the event formats and the events' names */
	ret = perf_feature_read(p, PERF_F_TRACING_DATA, fsize, &buf, &len, &at,
				d);
	if (ret == 0)
		ret = perf_tracing_parse(p, buf, len, at, d);
	if (ret < 0 && ret != -ENOENT)
		goto end;
	free(buf);
	buf = NULL;
	ret = perf_feature_read(p, PERF_F_EVENT_DESC, fsize, &buf, &len, &at,
				d);
	if (ret == 0)
		ret = perf_event_desc(p, buf, len, d);
	if (ret < 0 && ret != -ENOENT)
		goto end;
	/* perf record -k CLOCK: the clock of the time stamps */
	free(buf);
	buf = NULL;
	ret = perf_feature_read(p, PERF_F_CLOCKID, fsize, &buf, &len, &at, d);
	/* it holds the clock's resolution, not its id: the attrs' says */
	if (ret == 0 && len >= 8 && p->clockid < 0)
		p->clockid = PERF_CLOCKID_UNKNOWN;
	if (ret < 0 && ret != -ENOENT)
		goto end;
	/* the machine's name (--exits' host column) */
	free(buf);
	buf = NULL;
	ret = perf_feature_read(p, PERF_F_HOSTNAME, fsize, &buf, &len, &at, d);
	if (ret == 0)
		ret = perf_hostname(p, buf, len);
	if (ret < 0 && ret != -ENOENT)
		goto end;
	ret = perf_attrs_done(p, d);
	if (ret < 0)
		goto end;
	p->in.off = p->data_off;
	p->in.end = p->data_off + p->data_size;
	if (lseek(p->in.fd, (off_t)p->data_off, SEEK_SET) < 0) {
		ret = -errno;
		diag_set(d, "%s: cannot seek: %s", p->name, strerror(errno));
		goto end;
	}
	ret = 0;
end:
	free(buf);
	return ret;
nomem:
	free(buf);
	diag_set(d, "%s: out of memory", p->name);
	return -ENOMEM;
}

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

int perf_open_pipe(struct perf *p, struct diag *d)
{
	int ret;

	p->in.end = UINT64_MAX;
	for (;;) {
		const unsigned char *r;
		uint64_t off = perf_in_tell(&p->in);
		uint32_t type;
		uint16_t size;

		ret = perf_in_fill(p, 8, d);
		if (ret < 0)
			return ret;
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
			return -EIO;
		}
		ret = perf_in_fill(p, size, d);
		if (ret < 0)
			return ret;
		if (p->in.len - p->in.pos < size) {
			diag_set(d, "%s: offset 0x%" PRIx64 ": truncated perf.data: the file ends within a header record",
				 p->name, off);
			return -EIO;
		}
		r = p->in.buf + p->in.pos;
		if (type == PERF_R_HEADER_ATTR) {
			uint32_t asize = perf_u32(p, r + 12);

			if (asize < 48 || asize > (uint32_t)size - 8) {
				diag_set(d, "%s: offset 0x%" PRIx64 ": corrupt perf.data: an event attr of %u bytes in a record of %u",
					 p->name, off, asize, size);
				return -EIO;
			}
			ret = perf_add_attr(p, r + 8, asize, r + 8 + asize,
					    (size - 8 - asize) / 8, d);
		} else if (type == PERF_R_HEADER_FEATURE && size >= 16 &&
			   perf_u64(p, r + 8) == PERF_F_EVENT_DESC) {
			ret = perf_event_desc(p, r + 16, size - 16u, d);
		} else if (type == PERF_R_HEADER_FEATURE && size >= 24 &&
			   perf_u64(p, r + 8) == PERF_F_CLOCKID) {
			if (p->clockid < 0)
				p->clockid = PERF_CLOCKID_UNKNOWN;
		} else if (type == PERF_R_HEADER_FEATURE && size >= 16 &&
			   perf_u64(p, r + 8) == PERF_F_HOSTNAME) {
			ret = perf_hostname(p, r + 16, size - 16u);
		} else if (type == PERF_R_EVENT_UPDATE && size > 24 &&
			   perf_u64(p, r + 8) == PERF_EVENT_UPDATE_NAME) {
			struct perf_attr *at = p->nattrs > 1
				? perf_attr_of(p, perf_u64(p, r + 16))
				: p->nattrs ? &p->attrs[0] : NULL;

			if (at && !at->name) {
				at->name = strndup((const char *)r + 24,
						   size - 24u);
				if (!at->name) {
					diag_set(d, "%s: out of memory", p->name);
					return -ENOMEM;
				}
			}
		} else if (type == PERF_R_HEADER_TRACING_DATA) {
			uint32_t tsize = size >= 12 ? perf_u32(p, r + 8) : 0;
			unsigned char *b;

			p->in.pos += size;
			if (tsize > PERF_SECTION_MAX) {
				diag_set(d, "%s: offset 0x%" PRIx64 ": corrupt perf.data: tracing data of %u bytes",
					 p->name, off, tsize);
				return -EIO;
			}
			ret = perf_in_take(p, tsize, &b, d);
			if (ret < 0)
				return ret;
			ret = perf_tracing_parse(p, b, tsize, off + size, d);
			free(b);
			if (ret < 0)
				return ret;
			continue;
		}
		if (ret < 0)
			return ret;
		p->in.pos += size;
	}
	return perf_attrs_done(p, d);
}
