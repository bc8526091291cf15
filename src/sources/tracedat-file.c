// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The parts of a trace.dat kvmtrace_format reads itself (layouts as in
 * trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5)):
 *
 *  - the trace clock. Version 6 keeps the text of tracefs' trace_clock
 *    ("local global [x86-tsc]") after the table of CPU data when the
 *    options hold TRACECLOCK; version 7 keeps it in the TRACECLOCK option,
 *    and each BUFFER option names its instance's clock (the top instance's
 *    counts when TRACECLOCK says nothing). Options sections of version 7
 *    may be compressed (zstd: libzstd);
 *  - the TSC2NSEC option (libtracecmd then converts x86-tsc to ns);
 *  - a guest's TIME_SHIFT option (tracedat-shift.c), the last one read
 *    as libtracecmd keeps the last;
 *  - the version 6 layout up to each CPU's data: libtracecmd 1.3.1 finds a
 *    file whose CPU data runs past its end in tracecmd_init_data(), says so
 *    on standard output and then crashes in tracecmd_close(); and when it
 *    cannot read the headers it does not say where. We say both.
 *
 * All reads are bounded by the file's size; nothing is trusted.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include "tracedat-file.h"

#define TD_MAGIC	"\x17\x08\x44tracing"
#define TD_MAGIC_LEN	10

/* option ids (trace-cmd.dat.v7(5)) */
enum {
	TD_OPT_DONE = 0,
	TD_OPT_BUFFER = 3,
	TD_OPT_TRACECLOCK = 4,
	TD_OPT_CPUCOUNT = 8,
	TD_OPT_TIME_SHIFT = 12,
	TD_OPT_GUEST = 13,
	TD_OPT_TSC2NSEC = 14,
};

#define TD_SEC_COMPRESSED	1
/* an options section is a few KiB; refuse to inflate absurd ones */
#define TD_OPTIONS_MAX		(64u << 20)
/* options sections chained by their DONE options */
#define TD_SECTIONS_MAX		4096

struct td_reader {
	const char *name;
	int fd;
	uint64_t pos;
	uint64_t size;
	bool big;
};

static int td_read(struct td_reader *r, void *buf, size_t n)
{
	ssize_t got;

	if (n > r->size || r->pos > r->size - n)
		return -1;
	got = pread(r->fd, buf, n, (off_t)r->pos);
	if (got != (ssize_t)n)
		return -1;
	r->pos += n;
	return 0;
}

static uint64_t td_get(const unsigned char *b, size_t n, bool big)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)b[big ? i : n - 1 - i] << (8 * (n - 1 - i));
	return v;
}

static int td_num(struct td_reader *r, size_t n, uint64_t *v)
{
	unsigned char b[8];

	if (td_read(r, b, n) < 0)
		return -1;
	*v = td_get(b, n, r->big);
	return 0;
}

/* Read a NUL-terminated string into buf (cut to len - 1), or skip it. */
static int td_str(struct td_reader *r, char *buf, size_t len)
{
	size_t i = 0;
	char c;

	do {
		if (td_read(r, &c, 1) < 0)
			return -1;
		if (buf && i + 1 < len)
			buf[i++] = c;
	} while (c);
	if (buf && len)
		buf[i < len ? i : len - 1] = '\0';
	return 0;
}

/* Skip an n-byte size, then that many bytes. */
static int td_blob(struct td_reader *r, size_t n)
{
	uint64_t len;

	if (td_num(r, n, &len) < 0 || len > r->size - r->pos)
		return -1;
	r->pos += len;
	return 0;
}

char *tracedat_parse_clock(const char *text, size_t len)
{
	size_t i = 0, start;

	/* the first word that starts with '[' (libtracecmd splits at ' ') */
	while (i < len && text[i]) {
		if (text[i] == '[' && (i == 0 || text[i - 1] == ' ')) {
			while (i < len && text[i] == '[')
				i++;
			start = i;
			while (i < len && text[i] && text[i] != ']' &&
			       text[i] != '[' && text[i] != ' ' &&
			       text[i] != '\n' && text[i] != '\t')
				i++;
			return i > start ? strndup(text + start, i - start)
					 : NULL;
		}
		i++;
	}
	return NULL;
}

static void td_set_clock(struct tracedat_file *f, char *clock)
{
	free(f->clock);
	f->clock = clock;
	f->clock_option = true;
}

/*
 * A GUEST option as libtracecmd's trace_guest_load() reads it: name, u64
 * trace id, u32 vCPU count, per vCPU {u32 vcpu, u32 host pid}; one it
 * would refuse is left out.
 */
static void td_guest_option(struct tracedat_file *f, const unsigned char *p,
			    size_t len, bool big)
{
	const unsigned char *nul = memchr(p, '\0', len);
	struct tracedat_guest g = { 0 }, *v;
	size_t pos;
	uint32_t i, cpu;

	if (!nul)
		return;
	pos = (size_t)(nul - p) + 1;
	if (len - pos < 12)
		return;
	g.traceid = td_get(p + pos, 8, big);
	g.nvcpus = (uint32_t)td_get(p + pos + 8, 4, big);
	pos += 12;
	if (g.nvcpus > (len - pos) / 8)
		return;
	g.pids = calloc(g.nvcpus ? g.nvcpus : 1, sizeof(*g.pids));
	g.name = strndup((const char *)p, (size_t)(nul - p));
	v = realloc(f->guests, (f->nguests + 1) * sizeof(*v));
	if (v)
		f->guests = v;
	if (!g.pids || !g.name || !v)
		goto drop;
	for (i = 0; i < g.nvcpus; i++, pos += 8) {
		cpu = (uint32_t)td_get(p + pos, 4, big);
		if (cpu >= g.nvcpus)
			goto drop;
		g.pids[cpu] = (int32_t)td_get(p + pos + 4, 4, big);
	}
	f->guests[f->nguests++] = g;
	return;
drop:
	free(g.pids);
	free(g.name);
}

/* TIME_SHIFT, GUEST and TSC2NSEC, as libtracecmd reads them. */
static void td_host_option(struct tracedat_file *f, unsigned id,
			   const unsigned char *p, size_t len, bool big)
{
	if (id == TD_OPT_TSC2NSEC && len >= 16) {
		f->tsc2nsec_mult = (uint32_t)td_get(p, 4, big);
		f->tsc2nsec_shift = (uint32_t)td_get(p + 4, 4, big);
		f->tsc2nsec = f->tsc2nsec_mult != 0;
	} else if (id == TD_OPT_TIME_SHIFT && len >= 16) {
		tracedat_shift_free(f->shift);
		f->shift = tracedat_shift_parse(p, len, big);
	} else if (id == TD_OPT_GUEST) {
		td_guest_option(f, p, len, big);
	}
}

/* ----------------------------------------------------------- version 6 */

static int td_v6(struct td_reader *r, struct tracedat_file *f,
		 struct diag *d)
{
	uint64_t n = 0, m, i, j, cpus = 0, id, len, off;
	const char *what = "header_page and header_event formats";
	bool traceclock = false;
	char tag[10];

	if (td_str(r, NULL, 0) < 0 || td_blob(r, 8) < 0 ||
	    td_str(r, NULL, 0) < 0 || td_blob(r, 8) < 0)
		goto truncated;
	what = "ftrace event formats";
	if (td_num(r, 4, &n) < 0)
		goto truncated;
	for (i = 0; i < n; i++)
		if (td_blob(r, 8) < 0)
			goto truncated;
	what = "event formats";
	if (td_num(r, 4, &n) < 0)
		goto truncated;
	for (i = 0; i < n; i++) {
		if (td_str(r, NULL, 0) < 0 || td_num(r, 4, &m) < 0)
			goto truncated;
		for (j = 0; j < m; j++)
			if (td_blob(r, 8) < 0)
				goto truncated;
	}
	what = "kallsyms";
	if (td_blob(r, 4) < 0)
		goto truncated;
	what = "printk formats";
	if (td_blob(r, 4) < 0)
		goto truncated;
	what = "saved command lines";
	if (td_blob(r, 8) < 0)
		goto truncated;
	what = "CPU count and options";
	if (td_num(r, 4, &cpus) < 0 || td_read(r, tag, sizeof(tag)) < 0)
		goto truncated;
	if (!memcmp(tag, "options  ", 10)) {
		for (;;) {
			if (td_num(r, 2, &id) < 0)
				goto truncated;
			if (id == TD_OPT_DONE)
				break;
			if (td_num(r, 4, &len) < 0 || len > r->size - r->pos)
				goto truncated;
			if (id == TD_OPT_TRACECLOCK) {
				traceclock = true;
			} else if (id == TD_OPT_CPUCOUNT && len == 4) {
				/* libtracecmd lays out this many CPUs */
				if (td_num(r, 4, &cpus) < 0)
					goto truncated;
				continue;
			} else if ((id == TD_OPT_TSC2NSEC || id == TD_OPT_GUEST ||
				    id == TD_OPT_TIME_SHIFT) && len >= 12 &&
				   len <= TD_OPTIONS_MAX) {
				unsigned char *buf = malloc(len);

				if (!buf)
					return -ENOMEM;
				if (td_read(r, buf, len) < 0) {
					free(buf);
					goto truncated;
				}
				td_host_option(f, (unsigned)id, buf, len, r->big);
				free(buf);
				continue;
			}
			r->pos += len;
		}
		if (td_read(r, tag, sizeof(tag)) < 0)
			goto truncated;
	}
	if (!memcmp(tag, "latency  ", 10))
		return 0;
	if (memcmp(tag, "flyrecord", 10)) {
		diag_set(d, "%s: corrupt trace.dat (version 6): offset 0x%" PRIx64 ": expected \"flyrecord\" or \"latency\" after the options",
			 r->name, r->pos - 10);
		return -EIO;
	}
	what = "table of CPU data";
	for (i = 0; i < cpus; i++) {
		if (td_num(r, 8, &off) < 0 || td_num(r, 8, &len) < 0)
			goto truncated;
		if (len && (off > r->size || len > r->size - off)) {
			diag_set(d, "%s: truncated trace.dat (version 6): the data of CPU %" PRIu64 " ends at byte %" PRIu64 ", but the file has %" PRIu64 " bytes",
				 r->name, i, off + len, r->size);
			return -EIO;
		}
	}
	if (traceclock) {
		char buf[4096];
		size_t take;

		/*
		 * The trace_clock text; libtracecmd takes "local" when it
		 * cannot read it (an old trace-cmd could write it corrupt).
		 */
		if (td_num(r, 8, &len) < 0 || len > r->size - r->pos) {
			td_set_clock(f, strdup("local"));
			return 0;
		}
		take = len < sizeof(buf) ? (size_t)len : sizeof(buf);
		if (td_read(r, buf, take) < 0) {
			td_set_clock(f, strdup("local"));
			return 0;
		}
		td_set_clock(f, tracedat_parse_clock(buf, take));
	}
	return 0;
truncated:
	diag_set(d, "%s: truncated trace.dat (version 6): the file (%" PRIu64 " bytes) ends within its %s",
		 r->name, r->size, what);
	return -EIO;
}

/* ----------------------------------------------------------- version 7 */

typedef int (*td_option_fn)(void *arg, unsigned id, unsigned char *data,
			    size_t len);

/*
 * Each option of an options section (its content p[0..n), found at offset
 * at of the file), up to and with DONE, to fn. Returns 0, what fn
 * returned when negative, or -EIO with d set.
 */
static int td_options_each(const struct td_reader *r, unsigned char *p,
			   size_t n, uint64_t at, td_option_fn fn, void *arg,
			   struct diag *d)
{
	size_t pos = 0;

	for (;;) {
		uint64_t id, len;
		int ret;

		if (n - pos < 6) {
			diag_set(d, "%s: corrupt trace.dat (version 7): the options section at offset 0x%" PRIx64 " ends without its DONE option",
				 r->name, at);
			return -EIO;
		}
		id = td_get(p + pos, 2, r->big);
		len = td_get(p + pos + 2, 4, r->big);
		pos += 6;
		if (len > n - pos) {
			diag_set(d, "%s: corrupt trace.dat (version 7): option %" PRIu64 " of the options section at offset 0x%" PRIx64 " claims %" PRIu64 " bytes; %zu are left",
				 r->name, id, at, len, n - pos);
			return -EIO;
		}
		ret = fn(arg, (unsigned)id, p + pos, (size_t)len);
		if (ret < 0)
			return ret;
		if (id == TD_OPT_DONE)
			return 0;
		pos += (size_t)len;
	}
}

/*
 * A BUFFER option (version 7): u64 offset, name, clock, then page size,
 * CPU count and table. Where its clock and what follows it start; false
 * when the strings do not end inside it.
 */
static bool td_buffer_strings(const unsigned char *p, size_t len,
			      size_t *clock, size_t *after)
{
	const unsigned char *nul;

	if (len < 9)
		return false;
	nul = memchr(p + 8, '\0', len - 8);			/* name */
	if (!nul)
		return false;
	*clock = (size_t)(nul - p) + 1;
	nul = memchr(p + *clock, '\0', len - *clock);		/* clock */
	if (!nul)
		return false;
	*after = (size_t)(nul - p) + 1;
	return true;
}

struct td_clock_walk {
	const struct td_reader *r;
	struct tracedat_file *f;
	uint64_t next;			/* the DONE option's next section */
};

/* What the clock reading takes from each option. */
static int td_clock_option(void *arg, unsigned id, unsigned char *p,
			   size_t len)
{
	struct td_clock_walk *w = arg;
	size_t clock, after;

	switch (id) {
	case TD_OPT_DONE:
		w->next = len >= 8 ? td_get(p, 8, w->r->big) : 0;
		break;
	case TD_OPT_TRACECLOCK:
		td_set_clock(w->f, tracedat_parse_clock((const char *)p, len));
		break;
	case TD_OPT_BUFFER:
		/* the top instance ("") names the clock if TRACECLOCK did not */
		if (!w->f->clock && td_buffer_strings(p, len, &clock, &after) &&
		    !p[8] && after - clock > 1)
			w->f->clock = strndup((const char *)p + clock,
					      after - clock - 1);
		break;
	case TD_OPT_TSC2NSEC:
	case TD_OPT_TIME_SHIFT:
	case TD_OPT_GUEST:
		td_host_option(w->f, id, p, len, w->r->big);
		break;
	}
	return 0;
}

/*
 * Decompress a compressed section's n bytes at src into its usize bytes at
 * dst, with the algorithm the header names (trace-cmd's compress-zstd.c and
 * compress-zlib.c: one zstd frame, or one zlib stream).
 */
static int td_inflate(struct td_reader *r, struct tracedat_file *f,
		      const char *what, uint64_t at,
		      const unsigned char *src, size_t n,
		      unsigned char *dst, size_t usize, struct diag *d)
{
	const char *why = NULL;

	if (!strcmp(f->compression, "zstd")) {
#ifdef HAVE_ZSTD
		size_t got = ZSTD_decompress(dst, usize, src, n);

		if (ZSTD_isError(got))
			why = ZSTD_getErrorName(got);
		else if (got != usize)
			why = "short";
		else
			return 0;
#else
		goto unsupported;
#endif
	} else if (!strcmp(f->compression, "zlib")) {
#ifdef HAVE_ZLIB
		uLongf got = (uLongf)usize;
		int zret = uncompress(dst, &got, src, (uLong)n);

		if (zret != Z_OK)
			why = zError(zret);
		else if (got != usize)
			why = "short";
		else
			return 0;
#else
		goto unsupported;
#endif
	} else {
		goto unsupported;
	}
	diag_set(d, "%s: corrupt trace.dat (version 7): the %s-compressed %s at offset 0x%" PRIx64 " does not decompress to its %zu bytes (%s)",
		 r->name, f->compression, what, at, usize, why);
	return -EIO;
unsupported:
	diag_set(d, "%s: trace.dat (version 7) with options compressed by '%s': this kvmtrace_format reads %s",
		 r->name, f->compression,
#if defined(HAVE_ZSTD) && defined(HAVE_ZLIB)
		 "zstd and zlib"
#elif defined(HAVE_ZSTD)
		 "zstd only (built without zlib)"
#elif defined(HAVE_ZLIB)
		 "zlib only (built without libzstd)"
#else
		 "no compression (built without libzstd and zlib)"
#endif
		 );
	return -ENOTSUP;
}

/*
 * The content of the section at offset at, inflated when it is compressed
 * (caller frees *out). want: the id it must have, or -1; what names it in
 * messages; limit bounds its size, compressed and not.
 */
static int td_section_read(struct td_reader *r, struct tracedat_file *f,
			   uint64_t at, int want, const char *what,
			   uint64_t limit, unsigned char **out, size_t *len,
			   struct diag *d)
{
	unsigned char head[16], *raw = NULL, *buf = NULL;
	uint64_t id, flags, size, csize = 0, usize = 0;
	int ret = -EIO;

	*out = NULL;
	r->pos = at;
	if (td_read(r, head, sizeof(head)) < 0) {
		diag_set(d, "%s: truncated trace.dat (version 7): no section header at offset 0x%" PRIx64 " (the file has %" PRIu64 " bytes)",
			 r->name, at, r->size);
		return -EIO;
	}
	id = td_get(head, 2, r->big);
	flags = td_get(head + 2, 2, r->big);
	size = td_get(head + 8, 8, r->big);
	if (want >= 0 && id != (uint64_t)want) {
		diag_set(d, "%s: corrupt trace.dat (version 7): offset 0x%" PRIx64 ": expected an %s (id %d), found a section of id %" PRIu64,
			 r->name, at, what, want, id);
		return -EIO;
	}
	if (flags & TD_SEC_COMPRESSED) {
		if (size < 8 || td_num(r, 4, &csize) < 0 ||
		    td_num(r, 4, &usize) < 0 || csize > size - 8)
			goto truncated;
		size = csize;
	}
	if (size > r->size - r->pos)
		goto truncated;
	if (size > limit || usize > limit) {
		diag_set(d, "%s: corrupt trace.dat (version 7): the %s at offset 0x%" PRIx64 " claims %" PRIu64 " bytes (more than %" PRIu64 ")",
			 r->name, what, at, size > usize ? size : usize, limit);
		return -EIO;
	}
	raw = malloc(size ? (size_t)size : 1);
	if (!raw)
		goto nomem;
	if (td_read(r, raw, (size_t)size) < 0)
		goto truncated;
	if (!(flags & TD_SEC_COMPRESSED)) {
		*out = raw;
		*len = (size_t)size;
		return 0;
	}
	buf = malloc(usize ? (size_t)usize : 1);
	if (!buf)
		goto nomem;
	ret = td_inflate(r, f, what, at, raw, (size_t)size, buf,
			 (size_t)usize, d);
	if (ret == 0) {
		*out = buf;
		*len = (size_t)usize;
		buf = NULL;
	}
	goto out;
truncated:
	diag_set(d, "%s: truncated trace.dat (version 7): the file (%" PRIu64 " bytes) ends within the %s at offset 0x%" PRIx64,
		 r->name, r->size, what, at);
	ret = -EIO;
	goto out;
nomem:
	diag_set(d, "%s: out of memory", r->name);
	ret = -ENOMEM;
out:
	free(raw);
	free(buf);
	return ret;
}

static int td_v7_section(struct td_reader *r, struct tracedat_file *f,
			 uint64_t at, uint64_t *next, struct diag *d)
{
	unsigned char *buf;
	size_t len;
	int ret;

	ret = td_section_read(r, f, at, TD_OPT_DONE, "options section",
			      TD_OPTIONS_MAX, &buf, &len, d);
	if (ret < 0)
		return ret;
	{
		struct td_clock_walk w = { .r = r, .f = f };

		ret = td_options_each(r, buf, len, at, td_clock_option, &w, d);
		*next = w.next;
	}
	free(buf);
	return ret;
}

static int td_v7(struct td_reader *r, struct tracedat_file *f,
		 struct diag *d)
{
	uint64_t at, next = 0;
	unsigned i;
	int ret;

	/* after the page size: compression name and version, options offset */
	if (td_str(r, f->compression, sizeof(f->compression)) < 0 ||
	    td_str(r, NULL, 0) < 0 || td_num(r, 8, &at) < 0) {
		diag_set(d, "%s: truncated trace.dat (version 7): the file (%" PRIu64 " bytes) ends within its header",
			 r->name, r->size);
		return -EIO;
	}
	for (i = 0; at && i < TD_SECTIONS_MAX; i++) {
		ret = td_v7_section(r, f, at, &next, d);
		if (ret < 0)
			return ret;
		at = next;
	}
	if (at) {
		/* libtracecmd would follow the loop until its stack ends */
		diag_set(d, "%s: corrupt trace.dat (version 7): the chain of options sections does not end (more than %u; a loop?)",
			 r->name, TD_SECTIONS_MAX);
		return -EIO;
	}
	return 0;
}

int tracedat_file_read(const char *name, const char *path,
		       struct tracedat_file *f, struct diag *d)
{
	struct td_reader r = { .name = name };
	unsigned char head[TD_MAGIC_LEN + 2 + 2 + 4];
	struct stat st;
	int ret = 0;

	memset(f, 0, sizeof(*f));
	r.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r.fd < 0) {
		ret = -errno;
		diag_set(d, "%s: cannot open: %s", name, strerror(errno));
		return ret;
	}
	if (fstat(r.fd, &st) < 0) {
		ret = -errno;
		diag_set(d, "%s: cannot read: %s", name, strerror(errno));
		goto out;
	}
	r.size = (uint64_t)st.st_size;
	/* magic, "6\0" or "7\0", endianness, long size, page size */
	if (td_read(&r, head, sizeof(head)) < 0 ||
	    memcmp(head, TD_MAGIC, TD_MAGIC_LEN) || head[TD_MAGIC_LEN + 1])
		goto out;
	r.big = head[TD_MAGIC_LEN + 2] != 0;
	if (head[TD_MAGIC_LEN] == '6') {
		f->version = 6;
		ret = td_v6(&r, f, d);
	} else if (head[TD_MAGIC_LEN] == '7') {
		f->version = 7;
		ret = td_v7(&r, f, d);
	}
out:
	close(r.fd);
	if (ret < 0)
		tracedat_file_free(f);
	return ret;
}

void tracedat_file_free(struct tracedat_file *f)
{
	free(f->clock);
	f->clock = NULL;
	tracedat_shift_free(f->shift);
	f->shift = NULL;
	while (f->nguests) {
		f->nguests--;
		free(f->guests[f->nguests].name);
		free(f->guests[f->nguests].pids);
	}
	free(f->guests);
	f->guests = NULL;
}

/* ------------------------------------------------- inflating version 7 */

#define TD_SEC_MAX	4096	/* sections in a file */
#define TD_CPU_MAX	65536	/* CPUs in one BUFFER option */
#define TD_CHUNK_MAX	(64u << 20)

enum {
	TD_SEC_OPTIONS = 0,
	TD_SEC_FLYRECORD = 3,
	TD_SEC_KALLSYMS = 19,
	TD_SEC_LATENCY = 22,
};

struct td_cpu {
	uint64_t off, size;	/* as the file has them (compressed) */
	uint64_t noff, nsize;	/* in the copy */
};

struct td_sec {
	uint64_t off, size;	/* of the section header; size after it */
	uint16_t id, flags;
	uint32_t strid;
	uint64_t noff, nsize;
	unsigned char *opts;	/* options sections: their options, inflated */
	size_t nopts;
	struct td_cpu *cpus;	/* flyrecord sections: their BUFFER's CPUs */
	size_t ncpus;
};

struct td_copy {
	struct td_reader r;
	struct tracedat_file f;	/* compression name */
	struct td_sec *secs;
	size_t nsecs;
	uint32_t page;
	int out;
	struct diag *d;
	char **kallsyms;	/* non-NULL: take kallsyms out (see below) */
};

static void td_put(unsigned char *p, uint64_t v, size_t n, bool big)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[big ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

static struct td_sec *td_sec_at(struct td_copy *c, uint64_t off)
{
	size_t i;

	for (i = 0; i < c->nsecs; i++)
		if (c->secs[i].off == off)
			return &c->secs[i];
	return NULL;
}

/* The copy's view of the options of section o: fn may edit their data. */
struct td_copy_walk {
	struct td_copy *c;
	struct td_sec *o;
};

static int td_opts_each(struct td_copy *c, struct td_sec *o, td_option_fn fn)
{
	struct td_copy_walk w = { .c = c, .o = o };

	return td_options_each(&c->r, o->opts, o->nopts, o->off, fn, &w, c->d);
}

/* Where the CPU count of a BUFFER option is, or 0. */
static size_t td_buffer_cpus(const unsigned char *p, size_t len)
{
	size_t clock, after;

	if (!td_buffer_strings(p, len, &clock, &after))
		return 0;
	return len - after >= 8 ? after + 4 : 0;	/* page size, count */
}

/* Pass 1: note each BUFFER's CPUs on its flyrecord section. */
static int td_note_buffer(void *arg, unsigned id, unsigned char *p,
			  size_t len)
{
	struct td_copy_walk *w = arg;
	struct td_copy *c = w->c;
	struct td_sec *o = w->o, *fly;
	size_t at, i;
	uint64_t n;

	if (id == TD_SEC_LATENCY && len >= 8) {
		fly = td_sec_at(c, td_get(p, 8, c->r.big));
		if (fly && (fly->flags & TD_SEC_COMPRESSED)) {
			diag_set(c->d, "%s: a compressed latency trace: kvmtrace_format reads flyrecord traces",
				 c->r.name);
			return -ENOTSUP;
		}
		return 0;
	}
	if (id != TD_OPT_BUFFER)
		return 0;
	at = td_buffer_cpus(p, len);
	fly = len >= 8 ? td_sec_at(c, td_get(p, 8, c->r.big)) : NULL;
	if (!at || !fly || fly->id != TD_SEC_FLYRECORD) {
		diag_set(c->d, "%s: corrupt trace.dat (version 7): a BUFFER option of the options section at offset 0x%" PRIx64 " does not point to a flyrecord section",
			 c->r.name, o->off);
		return -EIO;
	}
	n = td_get(p + at, 4, c->r.big);
	at += 4;
	if (n > TD_CPU_MAX || n * 20 > len - at || fly->cpus) {
		diag_set(c->d, "%s: corrupt trace.dat (version 7): bad CPU table in a BUFFER option of the options section at offset 0x%" PRIx64,
			 c->r.name, o->off);
		return -EIO;
	}
	fly->cpus = calloc(n ? (size_t)n : 1, sizeof(*fly->cpus));
	if (!fly->cpus)
		return -ENOMEM;
	fly->ncpus = (size_t)n;
	for (i = 0; i < n; i++) {
		fly->cpus[i].off = td_get(p + at + 20 * i + 4, 8, c->r.big);
		fly->cpus[i].size = td_get(p + at + 20 * i + 12, 8, c->r.big);
		/* compressed: a u32 chunk count, then size bytes of chunks */
		uint64_t need = fly->cpus[i].size +
				(fly->flags & TD_SEC_COMPRESSED ? 4 : 0);
		uint64_t limit = fly->off + 16 + fly->size;

		if (fly->cpus[i].size &&
		    (fly->cpus[i].off < fly->off + 16 ||
		     fly->cpus[i].off > limit ||
		     need > limit - fly->cpus[i].off)) {
			diag_set(c->d, "%s: corrupt trace.dat (version 7): the data of CPU %zu lies outside its flyrecord section at offset 0x%" PRIx64,
				 c->r.name, i, fly->off);
			return -EIO;
		}
	}
	return 0;
}

/* The inflated size of one CPU's chunks: u32 count, then (csize, usize, data). */
static int td_cpu_size(struct td_copy *c, const struct td_sec *s,
		       struct td_cpu *cpu)
{
	/* the size counts the chunks, not the count before them */
	uint64_t n, i, csize, usize, end = cpu->off + 4 + cpu->size;

	cpu->nsize = 0;
	if (!cpu->size)
		return 0;
	if (!(s->flags & TD_SEC_COMPRESSED)) {
		cpu->nsize = cpu->size;
		return 0;
	}
	c->r.pos = cpu->off;
	if (td_num(&c->r, 4, &n) < 0)
		goto bad;
	for (i = 0; i < n; i++) {
		if (td_num(&c->r, 4, &csize) < 0 || td_num(&c->r, 4, &usize) < 0 ||
		    csize > end - c->r.pos || usize > TD_CHUNK_MAX)
			goto bad;
		c->r.pos += csize;
		cpu->nsize += usize;
	}
	return 0;
bad:
	diag_set(c->d, "%s: corrupt trace.dat (version 7): bad compressed chunk near offset 0x%" PRIx64 " of the CPU data at 0x%" PRIx64,
		 c->r.name, c->r.pos, cpu->off);
	return -EIO;
}

/* Pass 3: rewrite the offsets an option holds for the copy. */
static int td_map_option(void *arg, unsigned id, unsigned char *p,
			 size_t len)
{
	struct td_copy_walk *w = arg;
	struct td_copy *c = w->c;
	struct td_sec *o = w->o, *s;
	uint64_t off;
	size_t at, i;

	switch (id) {
	case TD_OPT_DONE:
	case 16: case 17: case 18: case 19: case 20: case 21:
	case TD_OPT_BUFFER:
	case TD_SEC_LATENCY:
		break;
	default:
		return 0;
	}
	if (len < 8)
		return 0;
	off = td_get(p, 8, c->r.big);
	if (id == TD_OPT_DONE && !off)
		return 0;
	s = td_sec_at(c, off);
	if (!s) {
		diag_set(c->d, "%s: corrupt trace.dat (version 7): option %u of the options section at offset 0x%" PRIx64 " points to offset 0x%" PRIx64 ", where no section starts",
			 c->r.name, id, o->off, off);
		return -EIO;
	}
	td_put(p, s->noff, 8, c->r.big);
	if (id != TD_OPT_BUFFER)
		return 0;
	at = td_buffer_cpus(p, len) + 4;
	for (i = 0; i < s->ncpus; i++) {
		td_put(p + at + 20 * i + 4, s->cpus[i].noff, 8, c->r.big);
		td_put(p + at + 20 * i + 12, s->cpus[i].nsize, 8, c->r.big);
	}
	return 0;
}

static int td_write(struct td_copy *c, const void *p, size_t n, uint64_t at)
{
	const unsigned char *b = p;

	while (n) {
		ssize_t w = pwrite(c->out, b, n, (off_t)at);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			diag_set(c->d, "%s: cannot write its uncompressed copy: %s",
				 c->r.name, w < 0 ? strerror(errno) : "no space");
			return -EIO;
		}
		b += w;
		n -= (size_t)w;
		at += (uint64_t)w;
	}
	return 0;
}

/* One CPU's data into the copy, chunk by chunk. */
static int td_copy_cpu(struct td_copy *c, const struct td_sec *s,
		       const struct td_cpu *cpu)
{
	uint64_t n, i, csize, usize, at = cpu->noff;
	unsigned char *raw = NULL, *buf = NULL;
	int ret = -EIO;

	if (!(s->flags & TD_SEC_COMPRESSED)) {
		/* copied in 1 MiB pieces */
		uint64_t left = cpu->size;

		buf = malloc(1 << 20);
		if (!buf)
			return -ENOMEM;
		c->r.pos = cpu->off;
		while (left) {
			size_t k = left < (1 << 20) ? (size_t)left : 1 << 20;

			if (td_read(&c->r, buf, k) < 0 ||
			    td_write(c, buf, k, at) < 0)
				goto out;
			left -= k;
			at += k;
		}
		ret = 0;
		goto out;
	}
	c->r.pos = cpu->off;
	if (td_num(&c->r, 4, &n) < 0)
		goto out;
	for (i = 0; i < n; i++) {
		void *nr, *nb;

		if (td_num(&c->r, 4, &csize) < 0 || td_num(&c->r, 4, &usize) < 0)
			goto out;
		nr = realloc(raw, csize ? (size_t)csize : 1);
		nb = nr ? realloc(buf, usize ? (size_t)usize : 1) : NULL;
		if (nr)
			raw = nr;
		if (nb)
			buf = nb;
		if (!nr || !nb) {
			ret = -ENOMEM;
			goto out;
		}
		if (td_read(&c->r, raw, (size_t)csize) < 0)
			goto out;
		ret = td_inflate(&c->r, &c->f, "chunk of CPU data",
				 c->r.pos - csize - 8, raw, (size_t)csize, buf,
				 (size_t)usize, c->d);
		if (ret < 0)
			goto out;
		ret = td_write(c, buf, (size_t)usize, at);
		if (ret < 0)
			goto out;
		at += usize;
	}
	ret = 0;
out:
	free(raw);
	free(buf);
	return ret;
}

static int td_cpu_cmp(const void *a, const void *b)
{
	const struct td_cpu *x = *(struct td_cpu *const *)a;
	const struct td_cpu *y = *(struct td_cpu *const *)b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* Where everything goes in the copy: sections in their order, CPU data
 * of each flyrecord section page-aligned after its header. */
static int td_layout(struct td_copy *c, uint64_t pos)
{
	struct td_cpu **order;
	size_t i, j;
	int ret;

	for (i = 0; i < c->nsecs; i++) {
		struct td_sec *s = &c->secs[i];

		s->noff = pos;
		if (s->id == TD_SEC_OPTIONS) {
			s->nsize = s->nopts;
		} else if (s->id == TD_SEC_FLYRECORD) {
			uint64_t at = (pos + 16 + c->page - 1) / c->page * c->page;

			order = calloc(s->ncpus ? s->ncpus : 1, sizeof(*order));
			if (!order)
				return -ENOMEM;
			for (j = 0; j < s->ncpus; j++)
				order[j] = &s->cpus[j];
			qsort(order, s->ncpus, sizeof(*order), td_cpu_cmp);
			for (j = 0; j < s->ncpus; j++) {
				ret = td_cpu_size(c, s, order[j]);
				if (ret < 0) {
					free(order);
					return ret;
				}
				order[j]->noff = order[j]->nsize ? at : 0;
				at += (order[j]->nsize + c->page - 1) / c->page * c->page;
			}
			free(order);
			s->nsize = at - (pos + 16);
		} else if (s->id == TD_SEC_KALLSYMS && c->kallsyms) {
			s->nsize = 4;	/* an empty table */
		} else if (s->flags & TD_SEC_COMPRESSED) {
			uint64_t usize;

			c->r.pos = s->off + 20;
			if (td_num(&c->r, 4, &usize) < 0) {
				diag_set(c->d, "%s: truncated trace.dat (version 7): the section at offset 0x%" PRIx64 " runs past the end of the file",
					 c->r.name, s->off);
				return -EIO;
			}
			s->nsize = usize;
		} else {
			s->nsize = s->size;
		}
		pos = s->noff + 16 + s->nsize;
	}
	return 0;
}

/*
 * The kallsyms section's table (u32 size, then the text) to *c->kallsyms,
 * NUL-terminated; an empty table in the copy.
 */
static int td_take_kallsyms(struct td_copy *c, const struct td_sec *s)
{
	static const unsigned char none[4];
	unsigned char *buf = NULL;
	uint64_t n = 0;
	size_t len;
	int ret;

	ret = td_section_read(&c->r, &c->f, s->off, -1, "kallsyms section",
			      TD_OPTIONS_MAX * 4ull, &buf, &len, c->d);
	if (ret < 0)
		return ret;
	if (len >= 4)
		n = td_get(buf, 4, c->r.big);
	if (n > len - 4 || len < 4) {
		diag_set(c->d, "%s: corrupt trace.dat (version 7): the kallsyms section at offset 0x%" PRIx64 " claims %" PRIu64 " bytes of %zu",
			 c->r.name, s->off, n, len < 4 ? 0 : len - 4);
		free(buf);
		return -EIO;
	}
	/* the text moves to the front, NUL-terminated, as libtracecmd has it */
	memmove(buf, buf + 4, (size_t)n);
	buf[n] = '\0';
	*c->kallsyms = (char *)buf;
	return td_write(c, none, sizeof(none), s->noff + 16);
}

static int td_inflate_copy(const char *name, const char *path, int out,
			   char **kallsyms, struct diag *d);

int tracedat_inflate(const char *name, const char *path, int out,
		     struct diag *d)
{
	return td_inflate_copy(name, path, out, NULL, d);
}

int tracedat_inflate_lean(const char *name, const char *path, int out,
			  char **kallsyms, struct diag *d)
{
	int ret;

	*kallsyms = NULL;
	ret = td_inflate_copy(name, path, out, kallsyms, d);
	if (ret < 0) {
		free(*kallsyms);
		*kallsyms = NULL;
	}
	return ret;
}

static int td_inflate_copy(const char *name, const char *path, int out,
			   char **kallsyms, struct diag *d)
{
	struct td_copy c = { .r = { .name = name }, .out = out, .d = d,
			     .kallsyms = kallsyms };
	unsigned char head[TD_MAGIC_LEN + 2 + 2 + 4], sh[16];
	uint64_t pos, opt_off;
	struct stat st;
	size_t i;
	int ret = -EIO;

	c.r.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (c.r.fd < 0) {
		diag_set(d, "%s: cannot open: %s", name, strerror(errno));
		return -errno;
	}
	if (fstat(c.r.fd, &st) < 0)
		goto trunc;
	c.r.size = (uint64_t)st.st_size;
	if (td_read(&c.r, head, sizeof(head)) < 0 ||
	    memcmp(head, TD_MAGIC "7", TD_MAGIC_LEN + 2))
		goto trunc;
	c.r.big = head[TD_MAGIC_LEN + 2] != 0;
	c.page = (uint32_t)td_get(head + TD_MAGIC_LEN + 4, 4, c.r.big);
	if (c.page < 512 || c.page > (1u << 24) || (c.page & (c.page - 1))) {
		diag_set(d, "%s: corrupt trace.dat (version 7): page size %u",
			 name, c.page);
		goto out;
	}
	if (td_str(&c.r, c.f.compression, sizeof(c.f.compression)) < 0 ||
	    td_str(&c.r, NULL, 0) < 0 || td_num(&c.r, 8, &opt_off) < 0)
		goto trunc;
	/* the sections follow one another to the end of the file */
	c.secs = calloc(TD_SEC_MAX, sizeof(*c.secs));
	if (!c.secs)
		goto nomem;
	for (pos = c.r.pos; pos < c.r.size; c.nsecs++) {
		struct td_sec *s = &c.secs[c.nsecs];

		c.r.pos = pos;
		if (c.nsecs == TD_SEC_MAX) {
			diag_set(d, "%s: corrupt trace.dat (version 7): more than %u sections",
				 name, TD_SEC_MAX);
			goto out;
		}
		if (td_read(&c.r, sh, sizeof(sh)) < 0)
			goto trunc;
		s->off = pos;
		s->id = (uint16_t)td_get(sh, 2, c.r.big);
		s->flags = (uint16_t)td_get(sh + 2, 2, c.r.big);
		s->strid = (uint32_t)td_get(sh + 4, 4, c.r.big);
		s->size = td_get(sh + 8, 8, c.r.big);
		if (s->size > c.r.size - c.r.pos)
			goto trunc;
		pos = c.r.pos + s->size;
	}
	if (!td_sec_at(&c, opt_off)) {
		diag_set(d, "%s: corrupt trace.dat (version 7): no section starts at the options offset 0x%" PRIx64,
			 name, opt_off);
		goto out;
	}
	for (i = 0; i < c.nsecs; i++)
		if (c.secs[i].id == TD_SEC_OPTIONS) {
			ret = td_section_read(&c.r, &c.f, c.secs[i].off, -1,
					      "options section", TD_OPTIONS_MAX,
					      &c.secs[i].opts, &c.secs[i].nopts,
					      d);
			if (ret < 0)
				goto out;
		}
	for (i = 0; i < c.nsecs; i++)
		if (c.secs[i].id == TD_SEC_OPTIONS) {
			ret = td_opts_each(&c, &c.secs[i], td_note_buffer);
			if (ret < 0)
				goto out;
		}
	/* the header, "none" for compression, then the sections */
	pos = sizeof(head) + 5 + 1 + 8;
	ret = td_layout(&c, pos);
	if (ret < 0)
		goto out;
	for (i = 0; i < c.nsecs; i++)
		if (c.secs[i].id == TD_SEC_OPTIONS) {
			ret = td_opts_each(&c, &c.secs[i], td_map_option);
			if (ret < 0)
				goto out;
		}
	{
		unsigned char h[sizeof(head) + 5 + 1 + 8];

		memcpy(h, head, sizeof(head));
		memcpy(h + sizeof(head), "none\0", 6);
		td_put(h + sizeof(head) + 6, td_sec_at(&c, opt_off)->noff, 8,
		       c.r.big);
		ret = td_write(&c, h, sizeof(h), 0);
		if (ret < 0)
			goto out;
	}
	for (i = 0; i < c.nsecs; i++) {
		struct td_sec *s = &c.secs[i];
		unsigned char *buf = NULL;
		size_t len, j;

		td_put(sh, s->id, 2, c.r.big);
		td_put(sh + 2, 0, 2, c.r.big);
		td_put(sh + 4, s->strid, 4, c.r.big);
		td_put(sh + 8, s->nsize, 8, c.r.big);
		ret = td_write(&c, sh, sizeof(sh), s->noff);
		if (ret < 0)
			goto out;
		if (s->id == TD_SEC_OPTIONS) {
			ret = td_write(&c, s->opts, s->nopts, s->noff + 16);
		} else if (s->id == TD_SEC_FLYRECORD) {
			for (j = 0; j < s->ncpus && ret == 0; j++)
				ret = td_copy_cpu(&c, s, &s->cpus[j]);
		} else if (s->id == TD_SEC_KALLSYMS && c.kallsyms) {
			ret = td_take_kallsyms(&c, s);
		} else {
			ret = td_section_read(&c.r, &c.f, s->off, -1, "section",
					      TD_OPTIONS_MAX * 4ull, &buf, &len,
					      d);
			if (!ret)
				ret = td_write(&c, buf, len, s->noff + 16);
			free(buf);
		}
		if (ret < 0)
			goto out;
	}
	/* padding at the end (of the last CPU's pages) reads as zeros */
	if (c.nsecs) {
		const struct td_sec *last = &c.secs[c.nsecs - 1];

		if (ftruncate(out, (off_t)(last->noff + 16 + last->nsize)) < 0) {
			diag_set(d, "%s: cannot write its uncompressed copy: %s",
				 name, strerror(errno));
			ret = -EIO;
			goto out;
		}
	}
	ret = 0;
	goto out;
trunc:
	diag_set(d, "%s: truncated trace.dat (version 7): the file (%" PRIu64 " bytes) ends within a section",
		 name, c.r.size);
	ret = -EIO;
	goto out;
nomem:
	diag_set(d, "%s: out of memory", name);
	ret = -ENOMEM;
out:
	for (i = 0; c.secs && i < c.nsecs; i++) {
		free(c.secs[i].opts);
		free(c.secs[i].cpus);
	}
	free(c.secs);
	close(c.r.fd);
	return ret;
}
