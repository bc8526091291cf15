// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tracedat-file.c on trace.dat files made here, byte by byte after
 * trace-cmd.dat.v7(5) and v6(5): the trace clock from TRACECLOCK and from
 * the top instance's BUFFER option (in libtracecmd's precedence), options
 * sections uncompressed, zstd- and zlib-compressed and chained, TSC2NSEC,
 * and every way the options can be broken, each with its message. The real
 * recordings are checked against libtracecmd's own idea of the clock in
 * tests/cli/tracedat (default-*: byte-identical to trace-cmd report).
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include "tap.h"
#include "tracedat/tracedat-file.h"

struct buf {
	unsigned char b[8192];
	size_t n;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->n + n > sizeof(b->b))
		abort();
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static void put_le(struct buf *b, uint64_t v, size_t n)
{
	unsigned char c[8];
	size_t i;

	for (i = 0; i < n; i++)
		c[i] = (unsigned char)(v >> (8 * i));
	put(b, c, n);
}

static void set_le(struct buf *b, size_t at, uint64_t v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		b->b[at + i] = (unsigned char)(v >> (8 * i));
}

static void opt(struct buf *o, unsigned id, const void *data, size_t n)
{
	put_le(o, id, 2);
	put_le(o, n, 4);
	put(o, data, n);
}

static void opt_str(struct buf *o, unsigned id, const char *s)
{
	opt(o, id, s, strlen(s) + 1);
}

/* BUFFER (version 7): offset, name, clock, page size, no CPUs */
static void opt_buffer(struct buf *o, const char *name, const char *clock)
{
	struct buf b = { .n = 0 };

	put_le(&b, 0x1000, 8);
	put(&b, name, strlen(name) + 1);
	put(&b, clock, strlen(clock) + 1);
	put_le(&b, 4096, 4);
	put_le(&b, 0, 4);
	opt(o, 3, b.b, b.n);
}

static void opt_done(struct buf *o, uint64_t next)
{
	put_le(o, 0, 2);
	put_le(o, 8, 4);
	put_le(o, next, 8);
}

/* The version 7 header; returns where the options offset is. */
static size_t v7_head(struct buf *f, const char *comp)
{
	size_t at;

	put(f, "\x17\x08\x44tracing", 10);
	put(f, "7", 2);
	put_le(f, 0, 1);	/* little endian */
	put_le(f, 8, 1);	/* long size */
	put_le(f, 4096, 4);
	put(f, comp, strlen(comp) + 1);
	put(f, "1.0", 4);
	at = f->n;
	put_le(f, 0, 8);
	return at;
}

/* Append an options section holding o; how depends on comp. */
static size_t v7_section(struct buf *f, const struct buf *o, const char *comp)
{
	size_t at = f->n;
	unsigned char z[4096];
	size_t zn = 0;

	put_le(f, 0, 2);	/* id: options */
	if (!strcmp(comp, "none")) {
		put_le(f, 0, 2);
		put_le(f, 0, 4);
		put_le(f, o->n, 8);
		put(f, o->b, o->n);
		return at;
	}
#ifdef HAVE_ZSTD
	if (!strcmp(comp, "zstd"))
		zn = ZSTD_compress(z, sizeof(z), o->b, o->n, 3);
#endif
#ifdef HAVE_ZLIB
	if (!strcmp(comp, "zlib")) {
		uLongf n = sizeof(z);

		if (compress(z, &n, o->b, o->n) == Z_OK)
			zn = n;
	}
#endif
	if (!zn)
		abort();
	put_le(f, 1, 2);	/* compressed */
	put_le(f, 0, 4);
	put_le(f, zn + 8, 8);
	put_le(f, zn, 4);
	put_le(f, o->n, 4);
	put(f, z, zn);
	return at;
}

static char dir[] = "/tmp/test-tracedat-file-XXXXXX";

static int run(const struct buf *f, struct tracedat_file *t, struct diag *d)
{
	char path[64];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/t.dat", dir);
	fp = fopen(path, "wb");
	if (!fp || fwrite(f->b, 1, f->n, fp) != f->n || fclose(fp))
		abort();
	diag_init(d);
	return tracedat_file_read("t.dat", path, t, d);
}

static void expect_clock(struct tap *tap, const struct buf *f,
			 const char *want, const char *what)
{
	struct tracedat_file t;
	struct diag d;
	int ret = run(f, &t, &d);

	if (!tap_ok(tap, ret == 0 && (want ? t.clock && !strcmp(t.clock, want)
					   : !t.clock),
		    "%s: clock %s", what, want ? want : "(none)"))
		tap_diag("ret %d, clock %s, %s", ret,
			 t.clock ? t.clock : "(none)", d.msg);
	tracedat_file_free(&t);
}

static void expect_error(struct tap *tap, const struct buf *f,
			 const char *want, const char *what)
{
	struct tracedat_file t;
	struct diag d;
	int ret = run(f, &t, &d);

	if (!tap_ok(tap, ret < 0 && strstr(d.msg, want) &&
			 !strncmp(d.msg, "t.dat: ", 7),
		    "%s: refused with \"%s\"", what, want))
		tap_diag("ret %d: %s", ret, d.msg);
	if (ret == 0)
		tracedat_file_free(&t);
}

static const char trace_clock[] =
	"local global counter uptime perf [mono] mono_raw boot x86-tsc\n";

/* A v7 file with one options section holding o. */
static void v7_one(struct buf *f, const struct buf *o, const char *comp)
{
	size_t off;

	f->n = 0;
	off = v7_head(f, comp);
	set_le(f, off, v7_section(f, o, comp), 8);
}

static void test_v7(struct tap *tap)
{
	static const char *const comps[] = { "none",
#ifdef HAVE_ZSTD
		"zstd",
#endif
#ifdef HAVE_ZLIB
		"zlib",
#endif
	};
	struct buf f, o, o2;
	size_t i, off, first;
	char what[64];

	for (i = 0; i < sizeof(comps) / sizeof(comps[0]); i++) {
		o.n = 0;
		opt_str(&o, 5, "Linux test");		/* UNAME */
		opt_str(&o, 4, trace_clock);
		opt_buffer(&o, "", "x86-tsc");		/* TRACECLOCK wins */
		opt_done(&o, 0);
		v7_one(&f, &o, comps[i]);
		snprintf(what, sizeof(what), "v7 %s, TRACECLOCK then BUFFER",
			 comps[i]);
		expect_clock(tap, &f, "mono", what);
	}

	o.n = 0;
	opt_buffer(&o, "inst", "local");	/* not the top instance */
	opt_buffer(&o, "", "x86-tsc");
	opt_done(&o, 0);
	v7_one(&f, &o, "none");
	expect_clock(tap, &f, "x86-tsc", "v7, top instance's BUFFER only");

	o.n = 0;
	opt_buffer(&o, "", "x86-tsc");
	opt_str(&o, 4, "[global] local");	/* parsed after: replaces */
	opt_done(&o, 0);
	v7_one(&f, &o, "none");
	expect_clock(tap, &f, "global", "v7, BUFFER then TRACECLOCK");

	o.n = 0;
	opt_str(&o, 4, "local global");		/* no current clock marked */
	opt_done(&o, 0);
	v7_one(&f, &o, "none");
	expect_clock(tap, &f, NULL, "v7, TRACECLOCK without brackets");

	/* two sections: the second, chained by DONE, names the clock */
	f.n = 0;
	off = v7_head(&f, "none");
	o2.n = 0;
	opt_str(&o2, 5, "Linux test");
	opt_done(&o2, 0);
	first = v7_section(&f, &o2, "none");
	set_le(&f, off, first, 8);
	o.n = 0;
	opt_str(&o, 4, "[boot]");
	opt_done(&o, 0);
	/* point the first section's DONE at the second */
	set_le(&f, f.n - 8, f.n, 8);
	v7_section(&f, &o, "none");
	expect_clock(tap, &f, "boot", "v7, clock in a chained second section");

	/* TSC2NSEC */
	{
		struct tracedat_file t;
		struct diag d;
		unsigned char tsc[16] = { 1, 0, 0, 0, 10, 0, 0, 0 };

		o.n = 0;
		opt_str(&o, 4, "[x86-tsc]");
		opt(&o, 14, tsc, sizeof(tsc));
		opt_done(&o, 0);
		v7_one(&f, &o, "none");
		tap_ok(tap, run(&f, &t, &d) == 0 && t.tsc2nsec &&
			    t.clock && !strcmp(t.clock, "x86-tsc"),
		       "v7, TSC2NSEC noted");
		tracedat_file_free(&t);
	}

	/* broken ones */
	o.n = 0;
	opt_str(&o, 4, "[mono]");
	opt_done(&o, 0);
	v7_one(&f, &o, "none");
	set_le(&f, off = 10 + 2 + 1 + 1 + 4 + 5 + 4, 100000, 8);
	expect_error(tap, &f, "no section header at offset 0x186a0",
		     "v7, options offset past the end");

	v7_one(&f, &o, "none");
	first = 10 + 2 + 1 + 1 + 4 + 5 + 4 + 8;
	set_le(&f, first, 7, 2);
	expect_error(tap, &f, "expected an options section (id 0), found a section of id 7",
		     "v7, options offset at another section");

	v7_one(&f, &o, "none");
	set_le(&f, first + 8, 1 << 20, 8);
	expect_error(tap, &f, "ends within the options section",
		     "v7, options section longer than the file");

	v7_one(&f, &o, "none");
	f.n -= 5;
	expect_error(tap, &f, "ends within the options section",
		     "v7, file cut inside the options");

	v7_one(&f, &o, "none");
	set_le(&f, first + 16 + 2, 0x7fffffff, 4);
	expect_error(tap, &f, "claims 2147483647 bytes",
		     "v7, option size past its section");

	o2.n = 0;
	opt_str(&o2, 4, "[mono]");
	v7_one(&f, &o2, "none");
	expect_error(tap, &f, "ends without its DONE option",
		     "v7, no DONE option");

	v7_one(&f, &o, "none");
	set_le(&f, f.n - 8, first, 8);		/* DONE points to itself */
	expect_error(tap, &f, "does not end (more than 4096; a loop?)",
		     "v7, options sections in a loop");

	v7_one(&f, &o, "none");
	f.n = 30;
	expect_error(tap, &f, "ends within its header", "v7, cut header");

#ifdef HAVE_ZSTD
	v7_one(&f, &o, "zstd");
	f.b[first + 24] ^= 0x55;	/* the frame's magic */
	expect_error(tap, &f, "zstd-compressed options section at offset",
		     "v7 zstd, damaged frame");
	v7_one(&f, &o, "zstd");
	set_le(&f, first + 16 + 4, 1u << 30, 4);
	expect_error(tap, &f, "(more than 16777216)",
		     "v7 zstd, absurd uncompressed size");
#endif
#ifdef HAVE_ZLIB
	v7_one(&f, &o, "zlib");
	f.b[first + 24] ^= 0x55;	/* the stream's header */
	expect_error(tap, &f, "zlib-compressed options section at offset",
		     "v7 zlib, damaged stream");
#endif
	/* a compressed section under an algorithm we do not know */
	f.n = 0;
	set_le(&f, v7_head(&f, "abcd"), first, 8);
	put_le(&f, 0, 2);
	put_le(&f, 1, 2);
	put_le(&f, 0, 4);
	put_le(&f, 12, 8);
	put_le(&f, 4, 4);
	put_le(&f, 14, 4);
	put(&f, "\x01\x02\x03\x04", 4);
	expect_error(tap, &f, "compressed by 'abcd'", "v7, unknown compression");
}

/* Version 6, up to the CPU data table and the trace_clock text. */
static void v6_file(struct buf *f, bool traceclock, const char *text,
		    uint64_t cpu1_end)
{
	f->n = 0;
	put(f, "\x17\x08\x44tracing", 10);
	put(f, "6", 2);
	put_le(f, 0, 1);
	put_le(f, 8, 1);
	put_le(f, 4096, 4);
	put(f, "header_page", 12);
	put_le(f, 0, 8);
	put(f, "header_event", 13);
	put_le(f, 0, 8);
	put_le(f, 0, 4);	/* ftrace formats */
	put_le(f, 0, 4);	/* event systems */
	put_le(f, 0, 4);	/* kallsyms */
	put_le(f, 0, 4);	/* printk */
	put_le(f, 0, 8);	/* cmdlines */
	put_le(f, 2, 4);	/* CPUs */
	put(f, "options  ", 10);
	if (traceclock)
		opt(f, 4, "", 0);
	put_le(f, 0, 2);
	put(f, "flyrecord", 10);
	put_le(f, 0, 8);	/* CPU 0: empty */
	put_le(f, 0, 8);
	put_le(f, 0, 8);	/* CPU 1 */
	put_le(f, cpu1_end, 8);
	if (text) {
		put_le(f, strlen(text), 8);
		put(f, text, strlen(text));
	}
}

static void test_v6(struct tap *tap)
{
	struct buf f;

	v6_file(&f, true, trace_clock, 0);
	expect_clock(tap, &f, "mono", "v6, trace_clock after the CPU table");
	v6_file(&f, false, NULL, 0);
	expect_clock(tap, &f, NULL, "v6 without TRACECLOCK");
	v6_file(&f, true, NULL, 0);
	expect_clock(tap, &f, "local",
		     "v6, TRACECLOCK but no text: local (as libtracecmd)");
	v6_file(&f, true, trace_clock, 1 << 20);
	expect_error(tap, &f, "the data of CPU 1 ends at byte 1048576",
		     "v6, CPU data past the end");
	v6_file(&f, true, trace_clock, 0);
	f.n = 40;
	expect_error(tap, &f, "ends within its header_page and header_event formats",
		     "v6, cut in the headers");
	v6_file(&f, true, trace_clock, 0);
	memcpy(f.b + f.n - strlen(trace_clock) - 8 - 32 - 10, "flyrecorX", 9);
	expect_error(tap, &f, "expected \"flyrecord\" or \"latency\"",
		     "v6, neither flyrecord nor latency");
}

static void test_parse(struct tap *tap)
{
	static const struct {
		const char *text, *want;
	} t[] = {
		{ "[local] global", "local" },
		{ "local global [x86-tsc]\t", "x86-tsc" },
		{ "local [mono_raw] boot", "mono_raw" },
		{ "local global", NULL },
		{ "[]", NULL },
		{ "local x[boot]", NULL },	/* not a word starting '[' */
		{ "", NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char *got = tracedat_parse_clock(t[i].text, strlen(t[i].text));

		tap_ok(tap, t[i].want ? got && !strcmp(got, t[i].want) : !got,
		       "trace_clock \"%s\" -> %s", t[i].text,
		       t[i].want ? t[i].want : "(none)");
		free(got);
	}
}

#ifdef HAVE_ZLIB
/*
 * tracedat_inflate() on a zlib file of one options section (a BUFFER
 * option with ncpus CPUs, then DONE) and a flyrecord section of one
 * chunk, a page of 'x' claimed as usize bytes. Each CPU's offset is the
 * chunk's; its size as 3.1 (the chunks) or 3.2 (and the count) write it,
 * plus skew. Returns what tracedat_inflate() returned, d its message.
 */
static int inflate_one(unsigned ncpus, bool v32, int skew, uint32_t usize,
		       struct diag *d)
{
	unsigned char page[4096], z[4096];
	struct buf f = { .n = 0 }, o = { .n = 0 }, b = { .n = 0 };
	uLongf zn = sizeof(z);
	size_t off_at, opts, fly, i;
	char path[64], out[64];
	FILE *fp;
	int fd, ret;

	memset(page, 'x', sizeof(page));
	if (compress(z, &zn, page, sizeof(page)) != Z_OK)
		abort();
	off_at = v7_head(&f, "zlib");
	opts = f.n;
	/* the options: BUFFER with ncpus CPUs, DONE */
	put_le(&b, 0, 8);		/* the flyrecord's offset, set below */
	put(&b, "", 1);
	put(&b, "local", 6);
	put_le(&b, 4096, 4);
	put_le(&b, ncpus, 4);
	for (i = 0; i < ncpus; i++) {
		put_le(&b, i, 4);
		put_le(&b, 0, 8);	/* offset, set below */
		put_le(&b, 4 + 8 + zn - (v32 ? 0 : 4) + (int64_t)skew, 8);
	}
	opt(&o, 3, b.b, b.n);
	opt_done(&o, 0);
	v7_section(&f, &o, "none");
	fly = f.n;
	put_le(&f, 3, 2);
	put_le(&f, 1, 2);		/* compressed */
	put_le(&f, 0, 4);
	put_le(&f, 4 + 8 + zn, 8);
	put_le(&f, 1, 4);		/* one chunk */
	put_le(&f, zn, 4);
	put_le(&f, usize, 4);
	put(&f, z, zn);
	set_le(&f, off_at, opts, 8);
	/* the options section's header is 16 bytes, the option's 6 */
	set_le(&f, opts + 16 + 6, fly, 8);
	for (i = 0; i < ncpus; i++)
		set_le(&f, opts + 16 + 6 + 8 + 1 + 6 + 8 + 20 * i + 4,
		       fly + 16, 8);
	snprintf(path, sizeof(path), "%s/t.dat", dir);
	snprintf(out, sizeof(out), "%s/copy.dat", dir);
	fp = fopen(path, "wb");
	if (!fp || fwrite(f.b, 1, f.n, fp) != f.n || fclose(fp))
		abort();
	fd = open(out, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		abort();
	diag_init(d);
	ret = tracedat_inflate("t.dat", path, fd, d);
	close(fd);
	unlink(out);
	return ret;
}

static void expect_inflate(struct tap *tap, unsigned ncpus, bool v32,
			   int skew, uint32_t usize, const char *want,
			   const char *what)
{
	struct diag d;
	int ret = inflate_one(ncpus, v32, skew, usize, &d);

	if (!tap_ok(tap, want ? ret < 0 && strstr(d.msg, want) : ret == 0,
		    "copy: %s: %s%s", what, want ? "refused with " : "made",
		    want ? want : ""))
		tap_diag("ret %d: %s", ret, d.msg);
}

static void test_inflate(struct tap *tap)
{
	expect_inflate(tap, 1, false, 0, 4096, NULL,
		       "a CPU's size without the chunk count (trace-cmd 3.1)");
	expect_inflate(tap, 1, true, 0, 4096, NULL,
		       "a CPU's size with the chunk count (trace-cmd 3.2)");
	expect_inflate(tap, 1, true, -1, 4096, "but its size says",
		       "a size 1 byte short of 3.2's");
	expect_inflate(tap, 1, false, 2, 4096, "but its size says",
		       "a size 2 bytes past 3.1's");
	expect_inflate(tap, 2, true, 0, 4096,
		       "the data of CPUs 0 and 1 overlap",
		       "two CPUs on one chunk");
	expect_inflate(tap, 1, true, 0, 1u << 20, "more than zlib can give",
		       "a chunk claiming 1 MiB from a few dozen bytes");
}
#endif

int main(void)
{
	struct tap tap = { 0, 0 };
	char path[64];

	if (!mkdtemp(dir))
		return 99;
	test_parse(&tap);
	test_v7(&tap);
	test_v6(&tap);
#ifdef HAVE_ZLIB
	test_inflate(&tap);
#endif
	printf("1..%d\n", tap.n);
	snprintf(path, sizeof(path), "%s/t.dat", dir);
	unlink(path);
	rmdir(dir);
	return 0;
}
