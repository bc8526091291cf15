// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kvmtrace reader on streams built byte by byte: both byte orders,
 * with and without the magic word, records without TSC, seven data words,
 * and truncation at every byte.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "source.h"
#include "tap.h"

struct stream {
	unsigned char b[4096];
	size_t len;
	bool be;
};

static void put32(struct stream *s, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		s->b[s->len + i] = (unsigned char)(s->be ? v >> (24 - 8 * i)
							 : v >> (8 * i));
	s->len += 4;
}

static void put64(struct stream *s, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		s->b[s->len + i] = (unsigned char)(s->be ? v >> (56 - 8 * i)
							 : v >> (8 * i));
	s->len += 8;
}

static void rec(struct stream *s, uint32_t id, uint32_t pid, uint32_t vcpu,
		bool tsc, uint64_t ts, unsigned n, const uint32_t *d)
{
	unsigned i;

	put32(s, id | (uint32_t)n << 28 | (tsc ? 1u << 31 : 0));
	put32(s, pid);
	put32(s, vcpu);
	if (tsc)
		put64(s, ts);
	for (i = 0; i < n; i++)
		put32(s, d[i]);
}

/* Records of the sample stream, and their sizes. */
static const uint32_t words[7] = { 1, 0xffffffff, 3, 4, 5, 6, 0x80000007 };

static void sample(struct stream *s, bool be, bool magic)
{
	memset(s, 0, sizeof(*s));
	s->be = be;
	if (magic)
		put32(s, 0x12345678);
	rec(s, 0x00010002, 42, 1, true, 1000, 3, words);	/* 32 bytes */
	rec(s, 0x00020011, 42, 1, false, 0, 0, NULL);		/* 12 */
	rec(s, 0x00020005, 7, 0, true, 0xfffffffffffffff0ull, 7, words); /* 48 */
	rec(s, 0x0fffffff, 0xffffffff, 0xffffffff, true, 2000, 0, NULL); /* 20 */
}

static struct source *open_stream(const struct stream *s, char *path)
{
	struct source *src;
	struct diag d;
	int fd;

	strcpy(path, "/tmp/ktf-test-kvmtrace.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, s->b, s->len) != (ssize_t)s->len)
		abort();
	close(fd);
	/*
	 * The reader itself, not detection: a stream cut inside its magic
	 * word ("xV4") is text, which detection rightly calls a rule file.
	 */
	src = source_create(&source_kvmtrace_ops, path, 0);
	if (!src || source_open(src, &d) < 0)
		abort();
	return src;
}

static bool field_is(struct source *src, const struct event *ev,
		     const char *key, uint64_t want)
{
	struct value v;
	int idx = src->ops->bind(src, ev->type, key);

	return idx >= 0 && src->ops->field(src, ev, idx, &v) == 0 &&
	       v.kind == VALUE_INT && !v.neg && v.u == want;
}

static void check_sample(struct tap *t, bool be, bool magic)
{
	char path[64];
	struct stream s;
	struct source *src;
	struct event ev = { 0 };
	struct diag d;
	bool ok = true;

	sample(&s, be, magic);
	src = open_stream(&s, path);
	ok &= src->ops->next(src, &ev, &d) == 1 && ev.type->id == 0x00010002 &&
	      ev.has_ts && ev.raw_ts == 1000 && ev.pid == 42 &&
	      field_is(src, &ev, "vcpu", 1) && field_is(src, &ev, "1", 1) &&
	      field_is(src, &ev, "2", 0xffffffff) &&
	      field_is(src, &ev, "3", 3) && field_is(src, &ev, "4", 0) &&
	      field_is(src, &ev, "event", 0x00010002);
	ok &= src->ops->next(src, &ev, &d) == 1 && ev.type->id == 0x00020011 &&
	      !ev.has_ts && ev.ts == 1000 && field_is(src, &ev, "1", 0);
	ok &= src->ops->next(src, &ev, &d) == 1 &&
	      ev.raw_ts == 0xfffffffffffffff0ull &&
	      field_is(src, &ev, "7", 0x80000007) &&
	      field_is(src, &ev, "6", 6);
	ok &= src->ops->next(src, &ev, &d) == 1 && ev.type->id == 0x0fffffff &&
	      ev.pid == 0xffffffff && field_is(src, &ev, "vcpu", 0xffffffff);
	ok &= src->ops->next(src, &ev, &d) == 0;
	tap_ok(t, ok, "%s-endian, %s magic: four records decoded",
	       be ? "big" : "little", magic ? "with" : "without");
	source_destroy(src);
	unlink(path);
}

/* Cut the stream at every byte: the complete records come, then an error. */
static void check_truncation(struct tap *t, bool be, bool magic)
{
	static const size_t sizes[] = { 32, 12, 48, 20 };
	struct stream full;
	size_t cut, bad = 0;

	sample(&full, be, magic);
	for (cut = 0; cut < full.len; cut++) {
		size_t start = magic ? 4 : 0, ngood = 0, off = start, i;
		struct stream s = full;
		struct source *src;
		struct event ev;
		struct diag d;
		char path[64], want[128];
		int ret;

		s.len = cut;
		for (i = 0; i < 4 && off + sizes[i] <= cut; i++) {
			off += sizes[i];
			ngood++;
		}
		src = open_stream(&s, path);
		for (i = 0; (ret = src->ops->next(src, &ev, &d)) == 1; i++)
			;
		if (cut < start && cut > 0) {
			/* too short for the magic word: a short record */
			snprintf(want, sizeof(want),
				 "offset 0x0: truncated record (12 bytes needed, %zu left)",
				 cut);
		} else if (off == cut || cut == 0) {
			want[0] = '\0';
		} else {
			size_t left = cut - off;
			size_t need = left < 12 ? 12 : sizes[ngood];

			snprintf(want, sizeof(want),
				 "offset 0x%zx: truncated record (%zu bytes needed, %zu left)",
				 off, need, left);
		}
		if (cut == 0)
			ngood = 0;
		if (i != ngood || (want[0] ? ret >= 0 || !strstr(d.msg, want)
					   : ret != 0)) {
			if (!bad)
				tap_diag("cut at %zu: %zu events, ret %d, '%s', want '%s'",
					 cut, i, ret, ret < 0 ? d.msg : "", want);
			bad++;
		}
		source_destroy(src);
		unlink(path);
	}
	tap_ok(t, bad == 0, "%s-endian, %s magic: cut at each of %zu bytes",
	       be ? "big" : "little", magic ? "with" : "without", full.len);
}

int main(void)
{
	struct tap t = { 0 };

	tap_plan(7);
	check_sample(&t, false, false);
	check_sample(&t, false, true);
	check_sample(&t, true, true);
	check_truncation(&t, false, false);
	check_truncation(&t, false, true);
	check_truncation(&t, true, true);
	{
		/* big-endian without magic is read as little-endian */
		struct stream s;
		struct source *src;
		struct event ev;
		struct diag d;
		char path[64];

		memset(&s, 0, sizeof(s));
		s.be = true;
		rec(&s, 0x00010001, 1, 0, false, 0, 0, NULL);
		src = open_stream(&s, path);
		tap_ok(&t, src->ops->next(src, &ev, &d) == 1 &&
			   ev.type->id == 0x01000100 && ev.pid == 0x01000000,
		       "no magic: little-endian");
		source_destroy(src);
		unlink(path);
	}
	return 0;
}
