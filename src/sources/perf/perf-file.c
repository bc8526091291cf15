// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bytes of a perf.data file: a buffered reader of the data section
 * (or of the whole stream, for a pipe file), and the 104-byte header of a
 * normal file with its attrs, ids and feature sections (a pipe file's
 * header records: perf-pipe.c).
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

/*
 * perf_feature_read() of a section the samples can be read without (the
 * events' names, the kernel's build-id, the clock's resolution, the host
 * name): one that lies past the end of a file cut short is left out, as
 * perf leaves it (a cut there loses none of the samples, which come
 * before it), and said at the end of the input (p->cut, perf_end());
 * -ENOENT then, as for a section the file does not have.
 */
static int perf_feature_optional(struct perf *p, unsigned bit,
				 uint64_t fsize, unsigned char **out,
				 size_t *len, uint64_t *at, struct diag *d)
{
	int ret = perf_feature_read(p, bit, fsize, out, len, at, d);

	if (ret != -EIO)
		return ret;
	if (!p->ncut)
		p->cut_d = *d;
	if (p->ncut < sizeof(p->cut) / sizeof(p->cut[0]))
		p->cut[p->ncut++] = bit;
	free(*out);
	*out = NULL;
	diag_init(d);
	return -ENOENT;
}

/*
 * HEADER_BUILD_ID: records of u32 type, u16 misc, u16 size, s32 pid,
 * 24 bytes of build-id (its size at byte 20 when misc has bit 15), the
 * file name; the host kernel's is "[kernel.kallsyms]", misc KERNEL (1).
 */
static void perf_kernel_build_id(struct perf *p, const unsigned char *b,
				 size_t len)
{
	size_t at = 0;

	while (len - at >= 36) {
		uint16_t misc = perf_u16(p, b + at + 4);
		uint16_t size = perf_u16(p, b + at + 6);
		const char *name = (const char *)b + at + 36;
		size_t n = 20, i;

		if (size < 36 || size > len - at)
			break;
		if ((misc & 7) == 1 &&
		    size - 36u >= sizeof("[kernel.kallsyms]") &&
		    !memcmp(name, "[kernel.kallsyms]", sizeof("[kernel.kallsyms]"))) {
			if (misc & (1u << 15) && b[at + 12 + 20] <= 20)
				n = b[at + 12 + 20];
			for (i = 0; i < n; i++)
				snprintf(p->kbid + 2 * i, 3, "%02x",
					 b[at + 12 + i]);
			p->kbid[2 * n] = '\0';
			return;
		}
		at += size;
	}
}

int perf_open_file(struct perf *p, struct diag *d)
{
	unsigned char h[PERF_HEADER_SIZE], *buf = NULL;
	uint64_t attr_size, attrs_off, attrs_size, fsize, at, i;
	uint64_t ids_total = 0;
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
	/* a header of 72 bytes (perf before 2.6.35) has no feature bits */
	for (i = 0; perf_u64(p, h + 8) == PERF_HEADER_SIZE &&
		    i < PERF_F_BITS / 64; i++) {
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
	/* perf record writes the size (and the formats after it) last */
	if (!p->data_size) {
		diag_set(d, "%s: the data size field is 0: was perf record properly terminated? (killed, it leaves the data without a size and without the event formats that follow it; perf cannot read it either)",
			 p->name);
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
		/*
		 * perf writes each event's ids once, one section after the
		 * other: sections that overlap would make the ids (and the
		 * memory they take) grow past the file's size
		 */
		ids_total += ids_size;
		if (ids_total > fsize) {
			diag_set(d, "%s: offset 0x%" PRIx64 ": corrupt perf.data: the id sections of the events add up to more than the file's %" PRIu64 " bytes (they overlap)",
				 p->name, at, fsize);
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
	ret = perf_feature_optional(p, PERF_F_EVENT_DESC, fsize, &buf, &len,
				    &at, d);
	if (ret == 0)
		ret = perf_event_desc(p, buf, len, d);
	if (ret < 0 && ret != -ENOENT)
		goto end;
	/* the kernel's build-id, for its symbols (perf-ksyms.c) */
	free(buf);
	buf = NULL;
	ret = perf_feature_optional(p, PERF_F_BUILD_ID, fsize, &buf, &len,
				    &at, d);
	if (ret == 0)
		perf_kernel_build_id(p, buf, len);
	if (ret < 0 && ret != -ENOENT)
		goto end;
	/* perf record -k CLOCK: the clock of the time stamps */
	free(buf);
	buf = NULL;
	ret = perf_feature_optional(p, PERF_F_CLOCKID, fsize, &buf, &len,
				    &at, d);
	/* it holds the clock's resolution, not its id: the attrs' says */
	if (ret == 0 && len >= 8 && p->clockid < 0)
		p->clockid = PERF_CLOCKID_UNKNOWN;
	if (ret < 0 && ret != -ENOENT)
		goto end;
	/* the machine's name (--exits' host column) */
	free(buf);
	buf = NULL;
	ret = perf_feature_optional(p, PERF_F_HOSTNAME, fsize, &buf, &len,
				    &at, d);
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

