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
 * The options themselves are read in tracedat-options.c. All reads are
 * bounded by the file's size; nothing is trusted.
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

#include "tracedat-int.h"

void td_close(struct td_reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
#ifdef HAVE_ZSTD
	ZSTD_freeDCtx(r->zctx);
#endif
	r->zctx = NULL;
}

uint64_t td_ratio_max(const struct tracedat_file *f, uint64_t n)
{
	uint64_t per;

	if (!strcmp(f->compression, "zstd"))
		per = 32768;
	else if (!strcmp(f->compression, "zlib"))
		per = 1032;
	else
		return UINT64_MAX;
	return n > UINT64_MAX / per ? UINT64_MAX : n * per;
}

int td_read(struct td_reader *r, void *buf, size_t n)
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

uint64_t td_get(const unsigned char *b, size_t n, bool big)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)b[big ? i : n - 1 - i] << (8 * (n - 1 - i));
	return v;
}

int td_num(struct td_reader *r, size_t n, uint64_t *v)
{
	unsigned char b[8];

	if (td_read(r, b, n) < 0)
		return -1;
	*v = td_get(b, n, r->big);
	return 0;
}

/* Read a NUL-terminated string into buf (cut to len - 1), or skip it. */
int td_str(struct td_reader *r, char *buf, size_t len)
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
			} else if (id == TD_OPT_DATE) {
				f->date = true;
			} else if (id == TD_OPT_CPUCOUNT && len == 4) {
				/* libtracecmd lays out this many CPUs */
				if (td_num(r, 4, &cpus) < 0)
					goto truncated;
				continue;
			} else if (((id == TD_OPT_TSC2NSEC || id == TD_OPT_GUEST ||
				     id == TD_OPT_TIME_SHIFT) && len >= 12 &&
				    len <= TD_OPTIONS_MAX) ||
				   (id == TD_OPT_UNAME && len <= 1024)) {
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
	/* every CPU takes 16 bytes of the table */
	if (cpus <= (r->size - r->pos) / 16) {
		f->cpus = calloc(cpus ? cpus : 1, sizeof(*f->cpus));
		if (!f->cpus)
			return -ENOMEM;
	}
	for (i = 0; i < cpus; i++) {
		if (td_num(r, 8, &off) < 0 || td_num(r, 8, &len) < 0)
			goto truncated;
		if (len && (off > r->size || len > r->size - off)) {
			diag_set(d, "%s: truncated trace.dat (version 6): the data of CPU %" PRIu64 " ends at byte %" PRIu64 ", but the file has %" PRIu64 " bytes",
				 r->name, i, off + len, r->size);
			return -EIO;
		}
		if (f->cpus)
			f->cpus[f->ncpus++] = (struct tracedat_cpu){
				(uint32_t)i, off, len };
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
/*
 * Decompress a compressed section's n bytes at src into its usize bytes at
 * dst, with the algorithm the header names (trace-cmd's compress-zstd.c and
 * compress-zlib.c: one zstd frame, or one zlib stream).
 */
int td_inflate(struct td_reader *r, struct tracedat_file *f,
	       const char *what, uint64_t at,
	       const unsigned char *src, size_t n,
	       unsigned char *dst, size_t usize, struct diag *d)
{
	const char *why = NULL;
	size_t got = 0;

	if (!strcmp(f->compression, "zstd")) {
#ifdef HAVE_ZSTD
		if (!r->zctx)
			r->zctx = ZSTD_createDCtx();
		got = r->zctx ? ZSTD_decompressDCtx(r->zctx, dst, usize, src, n)
			      : ZSTD_decompress(dst, usize, src, n);
		if (ZSTD_isError(got))
			why = ZSTD_getErrorName(got);
#else
		goto unsupported;
#endif
	} else if (!strcmp(f->compression, "zlib")) {
#ifdef HAVE_ZLIB
		uLongf zgot = (uLongf)usize;
		int zret = uncompress(dst, &zgot, src, (uLong)n);

		if (zret != Z_OK)
			why = zError(zret);
		got = (size_t)zgot;
#else
		goto unsupported;
#endif
	} else {
		goto unsupported;
	}
	if (!why && got == usize)
		return 0;
	why = why ? why : "short";
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

/* The file ends within the section at at. Returns -EIO, d filled. */
static int td_truncated_in(const struct td_reader *r, const char *what,
			   uint64_t at, struct diag *d)
{
	diag_set(d, "%s: truncated trace.dat (version 7): the file (%" PRIu64 " bytes) ends within the %s at offset 0x%" PRIx64,
		 r->name, r->size, what, at);
	return -EIO;
}

/*
 * The header of the section at offset at, and when it is compressed its
 * two sizes: *flags; *size, the bytes of content that follow (compressed
 * ones); *usize, inflated (0 when not compressed); r->pos at the content.
 * want: the id it must have, or -1; what names it in messages; limit
 * bounds its size, compressed and not, and the inflated size must be one
 * f's algorithm can give (td_ratio_max()). 0 or -EIO with d filled.
 */
static int td_section_head(struct td_reader *r, const struct tracedat_file *f,
			   uint64_t at, int want, const char *what,
			   uint64_t limit, uint64_t *flags, uint64_t *size,
			   uint64_t *usize, struct diag *d)
{
	unsigned char head[16];
	uint64_t id, csize = 0;

	*usize = 0;
	r->pos = at;
	if (td_read(r, head, sizeof(head)) < 0) {
		diag_set(d, "%s: truncated trace.dat (version 7): no section header at offset 0x%" PRIx64 " (the file has %" PRIu64 " bytes)",
			 r->name, at, r->size);
		return -EIO;
	}
	id = td_get(head, 2, r->big);
	*flags = td_get(head + 2, 2, r->big);
	*size = td_get(head + 8, 8, r->big);
	if (want >= 0 && id != (uint64_t)want) {
		diag_set(d, "%s: corrupt trace.dat (version 7): offset 0x%" PRIx64 ": expected an %s (id %d), found a section of id %" PRIu64,
			 r->name, at, what, want, id);
		return -EIO;
	}
	if (*flags & TD_SEC_COMPRESSED) {
		if (*size < 8 || td_num(r, 4, &csize) < 0 ||
		    td_num(r, 4, usize) < 0 || csize > *size - 8)
			goto truncated;
		*size = csize;
	}
	if (*size > r->size - r->pos)
		goto truncated;
	if (*size > limit || *usize > limit) {
		diag_set(d, "%s: corrupt trace.dat (version 7): the %s at offset 0x%" PRIx64 " claims %" PRIu64 " bytes (more than %" PRIu64 ")",
			 r->name, what, at, *size > *usize ? *size : *usize,
			 limit);
		return -EIO;
	}
	if (*usize > td_ratio_max(f, *size)) {
		diag_set(d, "%s: corrupt trace.dat (version 7): the %s at offset 0x%" PRIx64 " claims %" PRIu64 " bytes from %" PRIu64 " %s-compressed ones, more than %s can give (a compression bomb?)",
			 r->name, what, at, *usize, *size, f->compression,
			 f->compression);
		return -EIO;
	}
	return 0;
truncated:
	return td_truncated_in(r, what, at, d);
}

/*
 * The content of the section at offset at, inflated when it is compressed
 * (caller frees *out). want, what and limit as for td_section_head().
 */
int td_section_read(struct td_reader *r, struct tracedat_file *f,
		    uint64_t at, int want, const char *what,
		    uint64_t limit, unsigned char **out, size_t *len,
		    struct diag *d)
{
	unsigned char *raw = NULL, *buf = NULL;
	uint64_t flags, size, usize;
	int ret;

	*out = NULL;
	ret = td_section_head(r, f, at, want, what, limit, &flags, &size,
			      &usize, d);
	if (ret < 0)
		return ret;
	raw = malloc(size ? (size_t)size : 1);
	if (!raw)
		goto nomem;
	if (td_read(r, raw, (size_t)size) < 0) {
		ret = td_truncated_in(r, what, at, d);
		goto out;
	}
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
nomem:
	diag_set(d, "%s: out of memory", r->name);
	ret = -ENOMEM;
out:
	free(raw);
	free(buf);
	return ret;
}

int td_section_peek(struct td_reader *r, struct tracedat_file *f,
		    uint64_t at, const char *what, uint64_t limit,
		    struct diag *d)
{
	uint64_t flags, size, usize;
	int ret;

	ret = td_section_head(r, f, at, -1, what, limit, &flags, &size,
			      &usize, d);
	if (ret < 0 || !(flags & TD_SEC_COMPRESSED))
		return ret;
#ifdef HAVE_ZSTD
	/* a zstd frame says its size in its header (trace-cmd writes it) */
	if (!strcmp(f->compression, "zstd")) {
		unsigned char frame[18];
		size_t n = size < sizeof(frame) ? (size_t)size : sizeof(frame);
		unsigned long long fsize;

		if (td_read(r, frame, n) < 0)
			return td_truncated_in(r, what, at, d);
		fsize = ZSTD_getFrameContentSize(frame, n);
		if (fsize != ZSTD_CONTENTSIZE_UNKNOWN && fsize != usize) {
			diag_set(d, "%s: corrupt trace.dat (version 7): the %s at offset 0x%" PRIx64 " claims %" PRIu64 " bytes, its zstd frame %s",
				 r->name, what, at, usize,
				 fsize == ZSTD_CONTENTSIZE_ERROR ? "is damaged"
								 : "another size");
			return -EIO;
		}
	}
#else
	(void)f;
#endif
	return 0;
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
	f->page_size = (uint32_t)td_get(head + TD_MAGIC_LEN + 4, 4, r.big);
	if (head[TD_MAGIC_LEN] == '6') {
		f->version = 6;
		ret = td_v6(&r, f, d);
	} else if (head[TD_MAGIC_LEN] == '7') {
		f->version = 7;
		ret = td_v7(&r, f, d);
	}
out:
	td_close(&r);
	if (ret < 0)
		tracedat_file_free(f);
	return ret;
}

void tracedat_file_free(struct tracedat_file *f)
{
	free(f->clock);
	f->clock = NULL;
	free(f->hostname);
	f->hostname = NULL;
	tracedat_shift_free(f->shift);
	f->shift = NULL;
	while (f->nguests) {
		f->nguests--;
		free(f->guests[f->nguests].name);
		free(f->guests[f->nguests].pids);
	}
	free(f->guests);
	f->guests = NULL;
	free(f->cpus);
	f->cpus = NULL;
	f->ncpus = 0;
}
