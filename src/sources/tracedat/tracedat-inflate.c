// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An uncompressed copy of a compressed version 7 trace.dat (layout as in
 * trace-cmd.dat.v7(5)), for a libtracecmd that lacks the algorithm or keeps
 * every decompressed chunk (see tracedat-file.h). All reads are bounded by
 * the file's size; nothing is trusted.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracedat-int.h"

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
	uint64_t extent;	/* the bytes from off its data takes: size, or
				 * size and the chunk count (trace-cmd 3.1) */
	uint64_t noff, nsize;	/* in the copy */
	size_t idx;		/* its place in the BUFFER option */
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
	struct tracedat_kallsyms *ks;	/* non-NULL: leave kallsyms out */
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
		fly->cpus[i].idx = i;
		/*
		 * compressed, the size may lack the chunk count before the
		 * chunks (trace-cmd 3.1): td_cpu_size() walks them
		 */
		uint64_t limit = fly->off + 16 + fly->size;

		if (fly->cpus[i].size &&
		    (fly->cpus[i].off < fly->off + 16 ||
		     fly->cpus[i].off > limit ||
		     fly->cpus[i].size > limit - fly->cpus[i].off)) {
			diag_set(c->d, "%s: corrupt trace.dat (version 7): the data of CPU %zu lies outside its flyrecord section at offset 0x%" PRIx64,
				 c->r.name, i, fly->off);
			return -EIO;
		}
	}
	return 0;
}

/*
 * The inflated size of one CPU's chunks: u32 count, then (csize, usize,
 * data), inside the flyrecord section s. trace-cmd 3.1 wrote the size of
 * the chunks, 3.2 and later count the u32 before them too: the chunks
 * themselves say which, and what matches neither is damage. Each chunk's
 * claim must be one its compressed bytes can give (td_ratio_max()).
 */
static int td_cpu_size(struct td_copy *c, const struct td_sec *s,
		       struct td_cpu *cpu)
{
	uint64_t n, i, csize, usize, end = s->off + 16 + s->size;

	cpu->nsize = 0;
	cpu->extent = cpu->size;
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
		if (c->r.pos > end || end - c->r.pos < 8 ||
		    td_num(&c->r, 4, &csize) < 0 || td_num(&c->r, 4, &usize) < 0 ||
		    csize > end - c->r.pos || usize > TD_CHUNK_MAX)
			goto bad;
		if (usize > td_ratio_max(&c->f, csize)) {
			diag_set(c->d, "%s: corrupt trace.dat (version 7): the chunk at offset 0x%" PRIx64 " of CPU %zu claims %" PRIu64 " bytes from %" PRIu64 " %s-compressed ones, more than %s can give (a compression bomb?)",
				 c->r.name, c->r.pos - 8, cpu->idx, usize, csize,
				 c->f.compression, c->f.compression);
			return -EIO;
		}
		c->r.pos += csize;
		cpu->nsize += usize;
	}
	cpu->extent = c->r.pos - cpu->off;
	if (cpu->extent != cpu->size && cpu->extent != cpu->size + 4) {
		diag_set(c->d, "%s: corrupt trace.dat (version 7): the %" PRIu64 " compressed chunks of CPU %zu at offset 0x%" PRIx64 " take %" PRIu64 " bytes, but its size says %" PRIu64,
			 c->r.name, n, cpu->idx, cpu->off, cpu->extent,
			 cpu->size);
		return -EIO;
	}
	return 0;
bad:
	diag_set(c->d, "%s: corrupt trace.dat (version 7): bad compressed chunk near offset 0x%" PRIx64 " of the CPU data at 0x%" PRIx64,
		 c->r.name, c->r.pos, cpu->off);
	return -EIO;
}

/*
 * CPUs whose data overlap (order: sorted by offset) would each be copied
 * in full: one chunk shared by 64 CPUs is 64 times its size on disk.
 * trace-cmd writes each CPU's data once.
 */
static int td_cpus_apart(struct td_copy *c, const struct td_sec *s,
			 struct td_cpu *const *order)
{
	const struct td_cpu *prev = NULL;
	size_t j;

	for (j = 0; j < s->ncpus; j++) {
		const struct td_cpu *cpu = order[j];

		if (!cpu->size)
			continue;
		if (prev && cpu->off - prev->off < prev->extent) {
			diag_set(c->d, "%s: corrupt trace.dat (version 7): the data of CPUs %zu and %zu overlap at offset 0x%" PRIx64 " of the flyrecord section at offset 0x%" PRIx64 " (a compression bomb?)",
				 c->r.name, prev->idx, cpu->idx, cpu->off,
				 s->off);
			return -EIO;
		}
		prev = cpu;
	}
	return 0;
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
			ret = td_cpus_apart(c, s, order);
			free(order);
			if (ret < 0)
				return ret;
			s->nsize = at - (pos + 16);
		} else if (s->id == TD_SEC_KALLSYMS && c->ks) {
			s->nsize = 4;	/* an empty table */
		} else if (s->flags & TD_SEC_COMPRESSED) {
			ret = td_section_peek(&c->r, &c->f, s->off,
					      td_section_name(s->id),
					      td_section_cap(s->id), c->d);
			if (ret < 0)
				return ret;
			c->r.pos = s->off + 20;
			if (td_num(&c->r, 4, &s->nsize) < 0)
				return -EIO;	/* the peek read it */
		} else {
			s->nsize = s->size;
		}
		pos = s->noff + 16 + s->nsize;
	}
	return 0;
}

/*
 * An empty table in the copy for the kallsyms section s, whose place goes
 * to c->ks with a descriptor of the file, for tracedat_kallsyms_read().
 * What it can check without inflating the table is checked now, so that
 * a damaged file is still left to libtracecmd (see source-tracecmd.c).
 */
static int td_leave_kallsyms(struct td_copy *c, const struct td_sec *s)
{
	static const unsigned char none[4];
	int ret;

	ret = td_section_peek(&c->r, &c->f, s->off, "kallsyms section",
			      TD_KALLSYMS_MAX, c->d);
	if (ret < 0)
		return ret;
	if (c->ks->fd < 0) {	/* of several, the last is read */
		c->ks->fd = fcntl(c->r.fd, F_DUPFD_CLOEXEC, 0);
		if (c->ks->fd < 0) {
			ret = -errno;
			diag_set(c->d, "%s: %s", c->r.name, strerror(-ret));
			return ret;
		}
	}
	c->ks->off = s->off;
	c->ks->size = c->r.size;
	c->ks->big = c->r.big;
	return td_write(c, none, sizeof(none), s->noff + 16);
}

void tracedat_kallsyms_init(struct tracedat_kallsyms *ks)
{
	ks->fd = -1;
	ks->off = ks->size = 0;
	ks->big = false;
}

void tracedat_kallsyms_drop(struct tracedat_kallsyms *ks)
{
	if (ks->fd >= 0)
		close(ks->fd);
	tracedat_kallsyms_init(ks);
}

int tracedat_kallsyms_read(const char *name, struct tracedat_file *f,
			   struct tracedat_kallsyms *ks, char **text,
			   struct diag *d)
{
	struct td_reader r = { .name = name, .fd = ks->fd, .size = ks->size,
			       .big = ks->big };
	unsigned char *buf = NULL;
	uint64_t off = ks->off, n = 0;
	size_t len;
	int ret;

	*text = NULL;
	if (ks->fd < 0)
		return 0;
	ret = td_section_read(&r, f, off, -1, "kallsyms section",
			      TD_KALLSYMS_MAX, &buf, &len, d);
	td_close(&r);		/* ks's descriptor, which r had */
	tracedat_kallsyms_init(ks);
	if (ret < 0)
		return ret;
	if (len >= 4)
		n = td_get(buf, 4, r.big);
	if (len < 4 || n > len - 4) {
		diag_set(d, "%s: corrupt trace.dat (version 7): the kallsyms section at offset 0x%" PRIx64 " claims %" PRIu64 " bytes of %zu",
			 name, off, n, len < 4 ? 0 : len - 4);
		free(buf);
		return -EIO;
	}
	/* the text moves to the front, NUL-terminated, as libtracecmd has it */
	memmove(buf, buf + 4, (size_t)n);
	buf[n] = '\0';
	*text = (char *)buf;
	return 0;
}

/*
 * What the sections other than the CPU data claim to inflate to, each
 * (td_section_cap()) and together (TD_METADATA_MAX), from their headers
 * alone: a claim beyond is refused before anything is inflated. Options
 * sections stay inflated while the copy is made, and libtracecmd keeps
 * the others it reads: this bounds the memory either takes.
 */
static int td_claims(struct td_copy *c)
{
	uint64_t total = 0, usize;
	size_t i, n = 0;

	for (i = 0; i < c->nsecs; i++) {
		const struct td_sec *s = &c->secs[i];

		int ret;

		if (s->id == TD_SEC_FLYRECORD || !(s->flags & TD_SEC_COMPRESSED))
			continue;
		/* the sizes: what the compressed bytes can give, first */
		ret = td_section_peek(&c->r, &c->f, s->off,
				      td_section_name(s->id), UINT64_MAX, c->d);
		if (ret < 0)
			return ret;
		c->r.pos = s->off + 20;
		if (td_num(&c->r, 4, &usize) < 0)
			return -EIO;	/* the peek read it */
		if (usize > td_section_cap(s->id)) {
			diag_set(c->d, "%s: corrupt trace.dat (version 7): the %s at offset 0x%" PRIx64 " claims %" PRIu64 " bytes (%" PRIu64 " MiB) inflated, more than any real trace has (at most %" PRIu64 " MiB here; a compression bomb?)",
				 c->r.name, td_section_name(s->id), s->off,
				 usize, usize >> 20,
				 td_section_cap(s->id) >> 20);
			return -EIO;
		}
		total += usize;
		n++;
		if (total > TD_METADATA_MAX) {
			diag_set(c->d, "%s: corrupt trace.dat (version 7): its sections other than the CPU data claim more than %u MiB inflated together (the %zu compressed ones up to the one at offset 0x%" PRIx64 "), more than any real trace has (a compression bomb?)",
				 c->r.name, TD_METADATA_MAX >> 20, n,
				 s->off);
			return -EIO;
		}
	}
	return 0;
}

static int td_inflate_copy(const char *name, const char *path, int out,
			   struct tracedat_kallsyms *ks, struct diag *d);

int tracedat_inflate(const char *name, const char *path, int out,
		     struct diag *d)
{
	return td_inflate_copy(name, path, out, NULL, d);
}

int tracedat_inflate_lean(const char *name, const char *path, int out,
			  struct tracedat_kallsyms *ks, struct diag *d)
{
	int ret;

	tracedat_kallsyms_init(ks);
	ret = td_inflate_copy(name, path, out, ks, d);
	if (ret < 0)
		tracedat_kallsyms_drop(ks);
	return ret;
}

static int td_inflate_copy(const char *name, const char *path, int out,
			   struct tracedat_kallsyms *ks, struct diag *d)
{
	struct td_copy c = { .r = { .name = name }, .out = out, .d = d,
			     .ks = ks };
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
	ret = td_claims(&c);
	if (ret < 0)
		goto out;
	ret = -EIO;
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
	/* the copy's size: its last section's end */
	if (c.nsecs)
		pos = c.secs[c.nsecs - 1].noff + 16 + c.secs[c.nsecs - 1].nsize;
	ret = td_room(name, c.out, pos, d);
	if (ret < 0 || out < 0)
		goto out;	/* out < 0: checked, nothing to write */
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
		} else if (s->id == TD_SEC_KALLSYMS && c.ks) {
			ret = td_leave_kallsyms(&c, s);
		} else {
			ret = td_section_read(&c.r, &c.f, s->off, -1,
					      td_section_name(s->id),
					      td_section_cap(s->id), &buf, &len,
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
	td_close(&c.r);
	return ret;
}
