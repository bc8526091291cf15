// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kvmtrace reader on streams built byte by byte: both byte orders,
 * with and without the magic word, records without TSC, seven data words,
 * and truncation at every byte; next_batch() against next() on long
 * random streams.
 */
#include <stdint.h>
#include <stdio.h>
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
/* the words of a record cut at its end */
static const uint32_t d_cut[7] = { 9, 8, 7, 6, 5, 4, 3 };

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

/* What an event says, through the fields a template reads */
struct snap {
	uint64_t id, ts, raw_ts, seq, pid, cpu;
	bool has_ts;
	uint64_t f[9];
};

static void snap_of(struct source *src, const struct event *ev,
		    struct snap *sn)
{
	static const char *const keys[9] = { "event", "vcpu", "1", "2", "3",
					     "4", "5", "6", "7" };
	size_t i;

	memset(sn, 0, sizeof(*sn));
	sn->id = ev->type->id;
	sn->ts = ev->ts;
	sn->raw_ts = ev->raw_ts;
	sn->seq = ev->seq;
	sn->pid = (uint64_t)ev->pid;
	sn->cpu = ev->cpu;
	sn->has_ts = ev->has_ts;
	for (i = 0; i < 9; i++) {
		struct value v = { 0 };
		int idx = src->ops->bind(src, ev->type, keys[i]);

		if (idx >= 0 && src->ops->field(src, ev, idx, &v) == 0)
			sn->f[i] = v.u;
		else
			sn->f[i] = 0xdead;
	}
}

/*
 * A random stream of n records (and a cut one after them when cut) to a
 * file: ids, n_data, TSC or not, words from a fixed seed.
 */
static void random_stream(const char *path, size_t n, bool be, bool magic,
			  bool cut, unsigned seed)
{
	struct stream s;
	FILE *f = fopen(path, "wb");
	uint64_t ts = 1000;
	size_t i;

	if (!f)
		abort();
	srand(seed);
	memset(&s, 0, sizeof(s));
	s.be = be;
	if (magic)
		put32(&s, 0x12345678);
	for (i = 0; i < n; i++) {
		uint32_t d[7];
		unsigned k, nd = (unsigned)rand() % 8;

		for (k = 0; k < 7; k++)
			d[k] = (uint32_t)rand() * 2654435761u;
		ts += (uint64_t)rand() % 5000;
		rec(&s, (uint32_t)rand() & 0x0fffffff, (uint32_t)rand(),
		    (uint32_t)rand() % 8, rand() % 10 != 0, ts, nd, d);
		if (s.len > sizeof(s.b) - 64) {
			if (fwrite(s.b, 1, s.len, f) != s.len)
				abort();
			s.len = 0;
		}
	}
	if (cut)
		rec(&s, 0x00010002, 1, 1, true, ts, 7, d_cut);
	if (fwrite(s.b, 1, s.len - (cut ? 5 : 0), f) != s.len - (cut ? 5 : 0))
		abort();
	fclose(f);
}

/*
 * The same stream through next() and through next_batch() of max at a
 * time: the same events, then the same end (0, or the same error).
 */
static void check_batch(struct tap *t, bool be, bool magic, bool cut,
			size_t max)
{
	char path[] = "/tmp/ktf-test-kvmtrace-batch.XXXXXX";
	struct event *evs = calloc(max, sizeof(*evs));
	struct snap *want = NULL;
	size_t n = 0, cap = 0, i = 0, bad = 0;
	struct source *a, *b;
	struct diag da, db;
	struct event ev;
	int fd = mkstemp(path), ra, rb;

	if (fd < 0 || !evs)
		abort();
	close(fd);
	random_stream(path, 30000, be, magic, cut, (unsigned)max * 7 + be);
	a = source_create(&source_kvmtrace_ops, path, 0);
	b = source_create(&source_kvmtrace_ops, path, 0);
	if (!a || !b || source_open(a, &da) < 0 || source_open(b, &db) < 0)
		abort();
	diag_init(&da);
	diag_init(&db);
	memset(&ev, 0, sizeof(ev));
	while ((ra = a->ops->next(a, &ev, &da)) == 1) {
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			want = realloc(want, cap * sizeof(*want));
			if (!want)
				abort();
		}
		snap_of(a, &ev, &want[n++]);
	}
	while ((rb = b->ops->next_batch(b, evs, max, &db)) > 0) {
		for (size_t k = 0; k < (size_t)rb; k++, i++) {
			struct snap got;

			snap_of(b, &evs[k], &got);
			if (i >= n || memcmp(&got, &want[i], sizeof(got))) {
				if (!bad)
					tap_diag("event %zu differs", i);
				bad++;
			}
		}
	}
	if (i != n || rb != ra || strcmp(da.msg, db.msg)) {
		tap_diag("%zu events against %zu, end %d against %d: '%s' '%s'",
			 i, n, rb, ra, db.msg, da.msg);
		bad++;
	}
	tap_ok(t, bad == 0 && n >= 30000,
	       "next_batch(%zu) as next(): %s-endian, %s magic%s: %zu events",
	       max, be ? "big" : "little", magic ? "with" : "without",
	       cut ? ", a cut record" : "", n);
	source_destroy(a);
	source_destroy(b);
	free(want);
	free(evs);
	unlink(path);
}

int main(void)
{
	struct tap t = { 0 };

	tap_plan(13);
	check_batch(&t, false, false, false, 32);
	check_batch(&t, false, true, true, 32);
	check_batch(&t, false, false, true, 1);
	check_batch(&t, false, false, false, 7);
	check_batch(&t, false, false, true, 100);
	check_batch(&t, true, true, true, 32);
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
