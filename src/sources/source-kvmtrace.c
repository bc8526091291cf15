// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Packed kvmtrace records, as Linux 2.6.26 .. 2.6.30 wrote them:
 *
 *   u32 hdr     bits 0-27 event id, 28-30 n_data, 31 TSC present
 *   u32 pid
 *   u32 vcpu_id
 *   u64 tsc     only when bit 31 is set
 *   u32 data[n_data]
 *
 * in the byte order of the machine that wrote them. A stream may start
 * with the magic word 0x12345678; read as 0x78563412 it means the other
 * byte order. Without it the stream is little-endian. Standard input is
 * read as a stream: no seeking, never read whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "byteorder.h"
#include "diag.h"
#include "outbuf.h"
#include "pyfmt.h"
#include "source.h"
#include "symtab.h"

#define KVMTRACE_MAGIC		0x12345678u
#define KVMTRACE_HEAD		12
#define KVMTRACE_MAX_DATA	7
#define KVMTRACE_MAX_REC	(KVMTRACE_HEAD + 8 + 4 * KVMTRACE_MAX_DATA)
/*
 * The read buffer starts at what the input holds (a regular file smaller
 * than the cap: its size, rounded up to a page) or at a page (a pipe), and
 * doubles while reads fill it, up to the cap: a thousand small per-CPU
 * files cost a page each, a big one reads in large blocks. The cap is
 * 128 KiB, not more: what read() copies in is parsed from the CPU's
 * caches, which 1 MiB buffers left behind, the more so with several
 * inputs merged (8 merged inputs took 9 % longer with 1 MiB each).
 */
/* Records decoded per next_batch() call at most: their recs stay whole */
#define KVMTRACE_BATCH		128
#define KVMTRACE_BUF_MIN	4096u
#define KVMTRACE_BUF_MAX	(1u << 17)

enum kvmtrace_field {
	KF_EVENT = 0,
	KF_VCPU,
	KF_DATA,	/* KF_DATA + i: data word i + 1 */
	/* the record's pid word: bound by name ahead of the common ev->pid */
	KF_PID = KF_DATA + KVMTRACE_MAX_DATA,
};

/* One record as read; the renderer reads its words in place. */
struct kvmtrace_rec {
	struct event_type type;	/* stamped with the record's id */
	uint32_t vcpu;
	uint32_t pid;		/* also ev->pid; here for the renderer */
	/* the words, zero past the record's; one more than a record holds */
	uint32_t data[KVMTRACE_MAX_DATA + 1];
};

/* four words at once (kvmtrace_decode) */
typedef uint32_t kvmtrace_v4 __attribute__((vector_size(16)));

/* kvmtrace_data8()'s masks: row n keeps words 0 .. n - 1 */
static const kvmtrace_v4 kvmtrace_keep[8][2] = {
#define KVMTRACE_W(i, n) ((i) < (n) ? ~0u : 0u)
#define KVMTRACE_ROW(n)                                                        \
	{ { KVMTRACE_W(0, n), KVMTRACE_W(1, n), KVMTRACE_W(2, n),              \
	    KVMTRACE_W(3, n) },                                                \
	  { KVMTRACE_W(4, n), KVMTRACE_W(5, n), KVMTRACE_W(6, n),              \
	    KVMTRACE_W(7, n) } }
	KVMTRACE_ROW(0), KVMTRACE_ROW(1), KVMTRACE_ROW(2), KVMTRACE_ROW(3),
	KVMTRACE_ROW(4), KVMTRACE_ROW(5), KVMTRACE_ROW(6), KVMTRACE_ROW(7),
#undef KVMTRACE_ROW
#undef KVMTRACE_W
};

/*
 * The n (0..7) data words of a little-endian record at p into data[0..7]
 * (a host of the same order): the buffer holds eight words past p, all
 * are read, those from n on zeroed by a mask from a table (a load each,
 * where building them from n took six instructions), as two 16-byte
 * vectors (no loop of n steps; data has room for the eighth)
 */
static inline void kvmtrace_data8(uint32_t *data, const unsigned char *p,
				  uint32_t n)
{
	kvmtrace_v4 lo, hi;

	memcpy(&lo, p, 16);
	memcpy(&hi, p + 16, 16);
	lo &= kvmtrace_keep[n][0];
	hi &= kvmtrace_keep[n][1];
	memcpy(data, &lo, 16);
	memcpy(data + 4, &hi, 16);
}

struct kvmtrace {
	int fd;
	bool own_fd;
	unsigned char *buf;	/* owned */
	size_t cap;		/* bytes allocated at buf */
	size_t pos;		/* next unread byte */
	size_t len;		/* bytes held */
	uint64_t off;		/* file offset of buf[0] */
	bool eof;
	bool full;		/* the last read filled the buffer */
	bool started;
	bool swap;		/* the stream is big-endian */
	uint64_t last_ts;	/* place of a record without TSC */
	uint64_t seq;
	/*
	 * Two in turn (ev->rec): an event stays whole while the next one is
	 * read (source_ops.two_events)
	 */
	struct kvmtrace_rec rec[2];
	unsigned cur;		/* rec[cur]: the last one read */
	/* the records of the last next_batch(), in order */
	struct kvmtrace_rec batch[KVMTRACE_BATCH];
	/*
	 * The array the last next_batch() wrote, and how many of its
	 * events hold what is the same at each call into it (src, type
	 * and rec, batch[i]'s, cpu, has_vcpu): the next call into the
	 * same array leaves those alone (no one else writes them there)
	 */
	const struct event *stamped;
	size_t nstamped;
};

static bool kvmtrace_probe(const char *path, const unsigned char *head,
			   size_t len, bool is_dir)
{
	/* no magic in older streams: the reader of last resort */
	return !is_dir;
}

/* Double the buffer (up to the cap); it holds k->len bytes. */
static int kvmtrace_grow(struct kvmtrace *k)
{
	size_t cap = k->cap * 2 < KVMTRACE_BUF_MAX ? k->cap * 2 : KVMTRACE_BUF_MAX;
	unsigned char *buf;

	if (cap <= k->cap)
		return 0;
	buf = realloc(k->buf, cap);
	if (!buf)
		return -ENOMEM;
	k->buf = buf;
	k->cap = cap;
	return 0;
}

/* Have at least need bytes buffered, unless the stream ends first. */
static int kvmtrace_fill(struct kvmtrace *k, size_t need, struct source *src,
			 struct diag *d)
{
	while (k->len - k->pos < need && !k->eof) {
		size_t room;
		ssize_t n;

		if (k->pos) {
			memmove(k->buf, k->buf + k->pos, k->len - k->pos);
			k->off += k->pos;
			k->len -= k->pos;
			k->pos = 0;
		}
		/* the last read filled the buffer: there is more to come */
		if (k->full && kvmtrace_grow(k) < 0) {
			diag_set(d, "%s: out of memory", src->name);
			return -ENOMEM;
		}
		room = k->cap - k->len;
		n = read(k->fd, k->buf + k->len, room);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			diag_set(d, "%s: offset 0x%" PRIx64 ": cannot read: %s",
				 src->name, k->off + k->len, strerror(errno));
			return -errno;
		}
		if (n == 0)
			k->eof = true;
		k->full = k->len + (size_t)n == k->cap;
		k->len += (size_t)n;
	}
	return 0;
}

/*
 * The first size of the buffer: a regular file's remaining bytes (and one
 * more, so that the read meeting its end needs no room) rounded up to a
 * page, else a page; never less than what the probe read (head).
 */
static size_t kvmtrace_buf_size(int fd, size_t head)
{
	size_t size = KVMTRACE_BUF_MIN;
	struct stat st;
	off_t at;

	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		at = lseek(fd, 0, SEEK_CUR);
		if (at >= 0 && st.st_size >= at &&
		    (uint64_t)(st.st_size - at) < KVMTRACE_BUF_MAX)
			size = (size_t)(st.st_size - at) + 1;
		else
			size = KVMTRACE_BUF_MAX;
	}
	size += head;
	size = (size + KVMTRACE_BUF_MIN - 1) & ~(size_t)(KVMTRACE_BUF_MIN - 1);
	return size < KVMTRACE_BUF_MAX ? size : KVMTRACE_BUF_MAX;
}

static int kvmtrace_open(struct source *src, const char *path,
			 struct diag *d)
{
	struct kvmtrace *k = calloc(1, sizeof(*k));

	if (!k)
		goto nomem;
	if (!path) {
		/* a stream: the probe's bytes first, then the rest of it */
		k->fd = src->fd >= 0 ? src->fd : STDIN_FILENO;
		k->own_fd = src->fd >= 0 && src->own_fd;
		src->fd = -1;
	} else {
		k->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (k->fd < 0) {
			int err = errno;

			diag_set(d, "%s: cannot open: %s", src->name,
				 strerror(err));
			free(k);
			return -err;
		}
		k->own_fd = true;
	}
	k->cap = kvmtrace_buf_size(k->fd, path ? 0 : src->head_len);
	k->buf = malloc(k->cap);
	if (!k->buf)
		goto nomem;
	if (!path && src->head_len) {
		memcpy(k->buf, src->head, src->head_len);
		k->len = src->head_len;
	}
	k->rec[0].type.has_id = true;
	k->rec[1].type.has_id = true;
	for (size_t i = 0; i < KVMTRACE_BATCH; i++)
		k->batch[i].type.has_id = true;
	src->ntypes = 1;
	src->clock = CLOCK_TSC;
	src->priv = k;
	return 0;
nomem:
	if (k && k->own_fd)
		close(k->fd);
	free(k);
	diag_set(d, "%s: out of memory", src->name);
	return -ENOMEM;
}

static int kvmtrace_truncated(struct source *src, struct kvmtrace *k,
			      size_t need, struct diag *d)
{
	diag_set(d, "%s: offset 0x%" PRIx64 ": truncated record (%zu bytes needed, %zu left)",
		 src->name, k->off + k->pos, need, k->len - k->pos);
	k->pos = k->len;
	return -EIO;
}

#ifdef WORDS_BIGENDIAN
#define KVMTRACE_HOST_BE true
#else
#define KVMTRACE_HOST_BE false
#endif

/* A word of the stream (big-endian when be), be known where the call is made. */
static inline uint32_t kvmtrace_w32(const unsigned char *p, bool be)
{
	return bo_u32(be != KVMTRACE_HOST_BE, p);
}

static inline uint64_t kvmtrace_w64(const unsigned char *p, bool be)
{
	return bo_u64(be != KVMTRACE_HOST_BE, p);
}

/*
 * The record at k->pos (KVMTRACE_HEAD bytes of it at hand) into ev. Inlined
 * twice, swap a constant in each: no test of the byte order per word.
 */
static inline __attribute__((always_inline)) int
kvmtrace_decode(struct source *src, struct kvmtrace *k, struct event *ev,
		struct kvmtrace_rec *r, struct diag *d, bool swap)
{
	const unsigned char *p = k->buf + k->pos;
	uint32_t hdr, i, n;
	size_t size;

	hdr = kvmtrace_w32(p, swap);
	n = (hdr >> 28) & 7;
	size = KVMTRACE_HEAD + ((hdr >> 31) ? 8 : 0) + 4 * n;
	if (k->len - k->pos < size)
		return kvmtrace_truncated(src, k, size, d);
	r->pid = kvmtrace_w32(p + 4, swap);
	ev->pid = r->pid;
	r->vcpu = kvmtrace_w32(p + 8, swap);
	ev->vcpu = r->vcpu;
	ev->has_vcpu = true;
	p += KVMTRACE_HEAD;
	ev->relts_neg = false;
	ev->relts = 0;
	if (hdr >> 31) {
		ev->raw_ts = kvmtrace_w64(p, swap);
		ev->has_ts = true;
		/* relts, as run_set_relts() (source_ops.batch_relts) */
		ev->relts = event_relts(ev->raw_ts, k->last_ts, &ev->relts_neg);
		k->last_ts = ev->raw_ts;
		p += 8;
	} else {
		ev->raw_ts = 0;
		ev->has_ts = false;
	}
#ifndef WORDS_BIGENDIAN
	if (!swap && __builtin_expect(k->len - k->pos >= KVMTRACE_MAX_REC + 4, 1))
		kvmtrace_data8(r->data, p, n);	/* eight words are in the buffer */
	else
#endif
	{
		memset(r->data, 0, sizeof(r->data));
		for (i = 0; i < n; i++)
			r->data[i] = kvmtrace_w32(p + 4 * i, swap);
	}
	k->pos += size;
	r->type.id = hdr & 0x0fffffff;
	ev->ts = k->last_ts;
	ev->seq = k->seq++;
	ev->cpu = src->has_cpu_hint ? src->cpu_hint : 0;
	ev->type = &r->type;
	ev->src = src;
	ev->rec = r;
	return 1;
}

static int kvmtrace_next(struct source *src, struct event *ev, struct diag *d)
{
	struct kvmtrace *k = src->priv;
	int ret;

	k->nstamped = 0;	/* ev may be an array's, and gets rec[cur] */
	if (k->len - k->pos < KVMTRACE_MAX_REC) {
		ret = kvmtrace_fill(k, KVMTRACE_MAX_REC, src, d);
		if (ret < 0)
			return ret;
	}
	if (!k->started) {
		k->started = true;
		if (k->len - k->pos >= 4) {
			uint32_t w;

			memcpy(&w, k->buf + k->pos, 4);
			w = le32toh(w);
			if (w == KVMTRACE_MAGIC) {
				k->pos += 4;
			} else if (w == __builtin_bswap32(KVMTRACE_MAGIC)) {
				k->swap = true;
				k->pos += 4;
			}
			ret = kvmtrace_fill(k, KVMTRACE_MAX_REC, src, d);
			if (ret < 0)
				return ret;
		}
	}
	if (k->pos == k->len)
		return 0;
	if (k->len - k->pos < KVMTRACE_HEAD)
		return kvmtrace_truncated(src, k, KVMTRACE_HEAD, d);
	/* the byte order a constant in each copy of the decoder */
	k->cur ^= 1;
	if (__builtin_expect(k->swap, 0))
		return kvmtrace_decode(src, k, ev, &k->rec[k->cur], d, true);
	return kvmtrace_decode(src, k, ev, &k->rec[k->cur], d, false);
}

#ifndef WORDS_BIGENDIAN
/*
 * kvmtrace_batch()'s record at p into ev and r (p has KVMTRACE_MAX_REC + 4
 * bytes after it): where the next one starts. stamp: ev's src, type, rec,
 * cpu and has_vcpu too, else ev holds them (kvmtrace.stamped).
 */
static inline __attribute__((always_inline)) const unsigned char *
kvmtrace_rec1(struct source *src, struct event *ev, struct kvmtrace_rec *r,
	      const unsigned char *p, uint64_t *last_ts, uint64_t seq,
	      uint32_t cpu, const bool relts, const bool stamp)
{
	uint32_t hdr, n;
	uint64_t rel = 0;
	bool neg = false;

	memcpy(&hdr, p, 4);
	n = (hdr >> 28) & 7;
	memcpy(&r->pid, p + 4, 4);
	memcpy(&r->vcpu, p + 8, 4);
	ev->pid = r->pid;
	ev->vcpu = r->vcpu;
	p += KVMTRACE_HEAD;
	/* the common case laid out straight: a stamp, later than the last */
	if (__builtin_expect(hdr >> 31, 1)) {
		uint64_t t;

		memcpy(&t, p, 8);
		/* relts, as run_set_relts() (batch_relts) */
		if (relts && __builtin_expect(t >= *last_ts && *last_ts, 1))
			rel = t - *last_ts;
		else if (relts)
			rel = event_relts(t, *last_ts, &neg);
		*last_ts = t;
		ev->raw_ts = t;
		ev->has_ts = true;
		p += 8;
	} else {
		ev->raw_ts = 0;
		ev->has_ts = false;
	}
	if (relts) {
		ev->relts_neg = neg;
		ev->relts = rel;
	}
	kvmtrace_data8(r->data, p, n);
	p += 4 * n;
	r->type.id = hdr & 0x0fffffff;
	ev->ts = *last_ts;
	ev->seq = seq;
	if (stamp) {
		ev->has_vcpu = true;
		ev->cpu = cpu;
		ev->type = &r->type;
		ev->src = src;
		ev->rec = r;
	}
	return p;
}

/*
 * Records while the buffer holds the longest one whole (and the four
 * bytes the vectors read past it), each into a rec of its own, the
 * reader's state in registers meanwhile; the rest (a buffer to refill,
 * the first record, a big-endian stream, an error) one at a time
 * through kvmtrace_next(). The decoding is kvmtrace_decode()'s. relts:
 * set them (batch_relts), a constant in each copy.
 */
static inline __attribute__((always_inline)) int
kvmtrace_batch(struct source *src, struct event *ev, size_t max,
	       struct diag *d, const bool relts)
{
	struct kvmtrace *k = src->priv;
	const unsigned char *buf = k->buf;
	size_t pos = k->pos, end;
	uint64_t last_ts = k->last_ts, seq = k->seq;
	uint32_t cpu = src->has_cpu_hint ? src->cpu_hint : 0;
	struct kvmtrace_rec *r = k->batch, *rend, *kend;
	const unsigned char *p, *pend;
	size_t keep, n;

	if (max > KVMTRACE_BATCH)
		max = KVMTRACE_BATCH;
	if (!k->started || k->swap || k->len - pos < KVMTRACE_MAX_REC + 4)
		return kvmtrace_next(src, ev, d);
	/* where a record may start and still have all it can need after it */
	end = k->len - (KVMTRACE_MAX_REC + 4);
	p = buf + pos;
	pend = buf + end;
	rend = r + max;
	/* the events that hold the batch's slots already, then the rest */
	keep = k->stamped == ev && ev[0].src == src && ev[0].rec == r ?
		       k->nstamped : 0;
	kend = r + (keep < max ? keep : max);
	for (; r < kend && p <= pend; ev++, r++)
		p = kvmtrace_rec1(src, ev, r, p, &last_ts, seq++, cpu, relts,
				  false);
	for (; r < rend && p <= pend; ev++, r++)
		p = kvmtrace_rec1(src, ev, r, p, &last_ts, seq++, cpu, relts,
				  true);
	n = (size_t)(r - k->batch);
	k->stamped = ev - n;
	k->nstamped = n > keep ? n : keep;
	k->pos = (size_t)(p - buf);
	k->last_ts = last_ts;
	k->seq = seq;
	return (int)n;
}

/* merged (source.merged): the merge sets relts, on the merged stream */
static int kvmtrace_next_batch(struct source *src, struct event *ev,
			       size_t max, struct diag *d)
{
	if (src->merged)
		return kvmtrace_batch(src, ev, max, d, false);
	return kvmtrace_batch(src, ev, max, d, true);
}
#endif

static void kvmtrace_close(struct source *src)
{
	struct kvmtrace *k = src->priv;

	if (!k)
		return;
	if (k->own_fd)
		close(k->fd);
	free(k->buf);
	free(k);
	src->priv = NULL;
}

static const char *const kvmtrace_names[] = {
	"event", "vcpu", "1", "2", "3", "4", "5", "6", "7",
};

#define KVMTRACE_NFIELDS (sizeof(kvmtrace_names) / sizeof(kvmtrace_names[0]))

static int kvmtrace_bind(struct source *src, const struct event_type *t,
			 const char *key)
{
	size_t i;

	/* guest_sym: VMEXIT's RIP, words 2 and 3, named (symtab.h) */
	if (src->guest_syms && !strcmp(key, "guest_sym"))
		return SYMTAB_FIELD | (KF_DATA + 1);
	for (i = 0; i < KVMTRACE_NFIELDS; i++)
		if (!strcmp(kvmtrace_names[i], key))
			return (int)i;
	/* the same value as the common pid key, but a fixed record word */
	if (!strcmp(key, "pid"))
		return KF_PID;
	return -ENOENT;
}

static int kvmtrace_field(struct source *src, const struct event *ev,
			  int index, struct value *out)
{
	const struct kvmtrace_rec *r = ev->rec;

	if (symtab_is_field(index))
		return ev->type->id == 0x00010002 ?	/* VMEXIT */
			       symtab_field(src->guest_syms,
					    r->data[1] | (uint64_t)r->data[2] << 32, out)
					   : -ENOENT;
	switch (index) {
	case KF_EVENT:
		value_set_u64(out, ev->type->id);
		return 0;
	case KF_VCPU:
		value_set_u64(out, r->vcpu);
		return 0;
	case KF_PID:
		value_set_u64(out, r->pid);
		return 0;
	default:
		if (index >= KF_DATA && index < KF_DATA + KVMTRACE_MAX_DATA) {
			value_set_u64(out, r->data[index - KF_DATA]);
			return 0;
		}
	}
	return -ENOENT;
}

static bool kvmtrace_field_u32(struct source *src, int index, size_t *offset)
{
	if (index == KF_VCPU) {
		*offset = offsetof(struct kvmtrace_rec, vcpu);
		return true;
	}
	if (index == KF_PID) {
		*offset = offsetof(struct kvmtrace_rec, pid);
		return true;
	}
	if (index >= KF_DATA && index < KF_DATA + KVMTRACE_MAX_DATA) {
		*offset = offsetof(struct kvmtrace_rec, data) +
			  sizeof(uint32_t) * (size_t)(index - KF_DATA);
		return true;
	}
	return false;
}

/* The event id: the u64 of the type each record re-stamps */
static int kvmtrace_field_at(struct source *src, int index, size_t *offset,
			     size_t *len_offset)
{
	if (index != KF_EVENT)
		return SOURCE_AT_NONE;
	*offset = offsetof(struct kvmtrace_rec, type) +
		  offsetof(struct event_type, id);
	return SOURCE_AT_U64;
}

/* Every key binds alike but guest_sym, which needs --guest-syms. */
static unsigned long kvmtrace_bind_class(const struct source *src)
{
	return src->guest_syms != NULL;
}

static size_t kvmtrace_fields(struct source *src, const struct event_type *t,
			      const char **names, size_t max)
{
	size_t i;

	for (i = 0; i < KVMTRACE_NFIELDS && i < max; i++)
		names[i] = kvmtrace_names[i];
	return i;
}

static int kvmtrace_put_int(struct outbuf *o, bool neg, uint64_t v)
{
	static const struct pyfmt_spec d = { .conv = 'd', .width = -1,
					     .prec = -1 };
	char *p = outbuf_reserve(o, 32);

	if (!p)
		return -ENOMEM;
	outbuf_commit(o, (size_t)pyfmt_int(p, &d, neg, v));
	return 0;
}

/* {'tsc': 0.5, 'event': 65538, 'reltsc': 0, 'pid': 1, 'vcpu': 0, '1': 0, …} */
static int kvmtrace_render_args(struct source *src, const struct event *ev,
				double mhz, struct outbuf *o)
{
	static const struct pyfmt_spec r = { .conv = 'r', .width = -1,
					     .prec = -1 };
	const struct kvmtrace_rec *rec = ev->rec;
	char key[16];
	char *p;
	int i, ret = 0;

	ret |= outbuf_put(o, "{'tsc': ", 8);
	if (mhz > 0) {
		double ts = ev->has_ts ? (double)ev->raw_ts : 0.0;

		p = outbuf_reserve(o, 64);
		if (!p)
			return -ENOMEM;
		outbuf_commit(o, (size_t)pyfmt_float(p, &r,
						     ts / (mhz * 1000000.0)));
	} else {
		ret |= kvmtrace_put_int(o, false, ev->raw_ts);
	}
	ret |= outbuf_put(o, ", 'event': ", 11);
	ret |= kvmtrace_put_int(o, false, ev->type->id);
	ret |= outbuf_put(o, ", 'reltsc': ", 12);
	ret |= kvmtrace_put_int(o, ev->relts_neg, ev->relts);
	ret |= outbuf_put(o, ", 'pid': ", 9);
	ret |= kvmtrace_put_int(o, false, (uint64_t)ev->pid);
	ret |= outbuf_put(o, ", 'vcpu': ", 10);
	ret |= kvmtrace_put_int(o, false, rec->vcpu);
	for (i = 0; i < 5; i++) {
		key[0] = ',';
		key[1] = ' ';
		key[2] = '\'';
		key[3] = (char)('1' + i);
		memcpy(key + 4, "': ", 3);
		ret |= outbuf_put(o, key, 7);
		ret |= kvmtrace_put_int(o, false, rec->data[i]);
	}
	ret |= outbuf_put(o, "}\n", 2);
	return ret ? -ENOMEM : 0;
}

const struct source_ops source_kvmtrace_ops = {
	.kind = "kvmtrace",
	.stream = true,
	.probe = kvmtrace_probe,
	.open = kvmtrace_open,
	.next = kvmtrace_next,
	.two_events = true,
#ifndef WORDS_BIGENDIAN
	.next_batch = kvmtrace_next_batch,	/* its vectors are LE's */
#endif
	.batch_relts = true,
	.close = kvmtrace_close,
	.bind = kvmtrace_bind,
	.field = kvmtrace_field,
	.field_u32 = kvmtrace_field_u32,
	.field_at = kvmtrace_field_at,
	.bind_class = kvmtrace_bind_class,
	.fields = kvmtrace_fields,
	.render_args = kvmtrace_render_args,
};
