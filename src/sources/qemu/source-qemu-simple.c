// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QEMU's simple trace backend (trace/simple.c; -trace file=FILE), log
 * version 4, in the byte order of the host that wrote it (little-endian
 * here, as QEMU's scripts/simpletrace.py reads it with '='):
 *
 *   header  u64 ~0, u64 magic 0xf2b177cb0aa429b4, u64 version 4
 *   then records, each after a u64 type word:
 *     0     a mapping: u64 id, u32 length, the event's name
 *     else  an event: u64 id, u64 timestamp (ns, CLOCK_MONOTONIC),
 *           u32 length (24 + argument bytes), u32 pid, then per argument
 *           of its trace-events declaration a u64, or for a string a u32
 *           length and its bytes (no NUL; NULL is length 0)
 *   id ~1 is the dropped-events record: one u64, the count.
 *
 * The dictionary (qemu.h) tells the arguments; the record's length frames
 * it, so a record that does not fit its declaration is reported and
 * skipped, and reading goes on. Without rules a record prints as
 * simpletrace.py prints it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "outbuf.h"
#include "pyfmt.h"
#include "qemu.h"
#include "source.h"

#define QS_MAGIC	0xf2b177cb0aa429b4ull
#define QS_HEADER	24
#define QS_DROPPED	(~(uint64_t)0 - 1)
#define QS_REC_HEAD	24	/* id, timestamp, length, pid */
/* records beyond this are not read (QEMU writes strings of 512 at most) */
#define QS_REC_MAX	(16u << 20)
#define QS_NAME_MAX	4096u
#define QS_BUF_MIN	(1u << 16)
/* messages kept for the report at the end; the rest are counted */
#define QS_PROBLEMS	8

/* An id the file mapped to a name. */
struct qs_map {
	uint64_t id;
	struct qemu_type *type;	/* NULL: the name is not in the dictionary */
	char *name;		/* owned, when type is NULL */
	uint64_t skipped;	/* records of that unknown name */
};

/* The record being handed out; strings point into the read buffer. */
struct qs_rec {
	const struct qemu_event *qe;
	uint32_t first;		/* 1: a 7.2 vcpu event without its __cpu */
	bool delta_neg;
	uint64_t delta;		/* ns since the record before, as simpletrace */
	uint32_t pid;
	struct qemu_values v;
};

struct qsimple {
	struct qemu_in in;
	bool reported;
	struct qemu_events *dict;	/* owned */
	struct qs_map *map;	/* owned: in the order of the file */
	size_t mapcap, nmap;
	uint32_t *slots;	/* owned: open addressing by id, index + 1 */
	size_t nslots;		/* a power of two, or 0 */
	uint64_t seed;		/* of the hash: ids cannot be chosen to collide */
	struct qemu_type *types;	/* owned: per dictionary event */
	struct qemu_type dropped;
	struct qemu_event dropped_qe;
	bool have_last;
	uint64_t last_ts;
	uint64_t seq;
	struct qs_rec rec;
	char *problems[QS_PROBLEMS];	/* owned */
	size_t nproblems;	/* all of them, kept or not */
	uint64_t left_out;	/* records skipped */
	bool nomem;
};

bool source_qemu_simple_magic(const unsigned char *head, size_t len)
{
	static const unsigned char magic[16] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xb4, 0x29, 0xa4, 0x0a, 0xcb, 0x77, 0xb1, 0xf2,
	};

	return len >= sizeof(magic) && !memcmp(head, magic, sizeof(magic));
}

static bool qs_probe(const char *path, const unsigned char *head, size_t len,
		     bool is_dir)
{
	return !is_dir && source_qemu_simple_magic(head, len);
}

static void qs_problem(struct qsimple *q, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void qs_problem(struct qsimple *q, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (q->nproblems++ >= QS_PROBLEMS)
		return;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0) {
		msg = NULL;
		q->nomem = true;
	}
	va_end(ap);
	q->problems[q->nproblems - 1] = msg;
}

/* m's records of a name the dictionary lacks, left out: said once */
static void qs_skipped(struct qsimple *q, const struct source *src,
		       struct qs_map *m)
{
	qs_problem(q, "%s: %" PRIu64 " record%s of '%s' (id %" PRIu64 ") %s left out: the event is not in %s",
		   src->name, m->skipped, m->skipped == 1 ? "" : "s", m->name,
		   m->id, m->skipped == 1 ? "is" : "are", q->dict->path);
	m->skipped = 0;
}

static uint64_t qs_u64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

static uint32_t qs_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return le32toh(v);
}

/* Have need bytes at q->in.pos unless the file ends first; -errno. */
static int qs_fill(struct qsimple *q, size_t need, struct source *src,
		   struct diag *d)
{
	struct qemu_in *in = &q->in;
	int ret;

	while (in->len - in->pos < need && !in->eof) {
		qemu_in_shift(in);
		if (in->cap - in->len < need ||
		    in->cap - in->len < QS_BUF_MIN / 2) {
			size_t cap = in->cap;
			unsigned char *b;

			while (cap - in->len < need ||
			       cap - in->len < QS_BUF_MIN / 2)
				cap *= 2;
			b = realloc(in->buf, cap);
			if (!b) {
				diag_set(d, "%s: out of memory", src->name);
				return -ENOMEM;
			}
			in->buf = b;
			in->cap = cap;
		}
		ret = qemu_in_read(in, src->name, d);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static void qs_close(struct source *src)
{
	struct qsimple *q = src->priv;
	size_t i;

	if (!q)
		return;
	qemu_in_close(&q->in);
	for (i = 0; i < q->nmap; i++)
		free(q->map[i].name);
	free(q->map);
	free(q->slots);
	free(q->types);
	for (i = 0; i < q->nproblems && i < QS_PROBLEMS; i++)
		free(q->problems[i]);
	qemu_events_free(q->dict);
	free(q);
	src->priv = NULL;
}

static int qs_header(struct source *src, struct qsimple *q, struct diag *d)
{
	uint64_t version;
	int ret = qs_fill(q, QS_HEADER, src, d);

	if (ret < 0)
		return ret;
	if (q->in.len < QS_HEADER ||
	    !source_qemu_simple_magic(q->in.buf, q->in.len)) {
		diag_set(d, "%s: offset 0x0: not a QEMU simple trace (a header of 24 bytes: ~0, magic 0xf2b177cb0aa429b4, version)",
			 src->name);
		return -EIO;
	}
	version = qs_u64(q->in.buf + 16);
	if (version != 4) {
		if (version == 0 || version == 2 || version == 3)
			diag_set(d, "%s: offset 0x10: log version %" PRIu64 ", written by an older QEMU; only version 4 (QEMU 2.x and later) can be read, as QEMU's simpletrace.py reads only it",
				 src->name, version);
		else
			diag_set(d, "%s: offset 0x10: unknown log version %" PRIu64 " of a QEMU simple trace (4 expected)",
				 src->name, version);
		return -EIO;
	}
	q->in.pos = QS_HEADER;
	return 0;
}

static int qs_open(struct source *src, const char *path, struct diag *d)
{
	struct qsimple *q = calloc(1, sizeof(*q));
	int ret;

	if (!q) {
		diag_set(d, "%s: out of memory", src->name);
		return -ENOMEM;
	}
	src->priv = q;
	if (getrandom(&q->seed, sizeof(q->seed), GRND_NONBLOCK) !=
	    (ssize_t)sizeof(q->seed))
		q->seed = (uint64_t)time(NULL) ^ (uint64_t)(uintptr_t)q;
	ret = qemu_in_open(&q->in, src, path, QS_BUF_MIN, d);
	if (ret < 0)
		goto error;
	ret = qs_header(src, q, d);
	if (ret < 0)
		goto error;
	ret = qemu_dict_load(src, &q->dict, d);
	if (ret < 0)
		goto error;
	/* a type per event of the dictionary, for the checks of rules */
	q->types = qemu_types_new(q->dict, sizeof(*q->types));
	if (!q->types)
		goto nomem;
	q->dropped_qe.name = "Dropped_Event";
	q->dropped_qe.fmt = "";
	q->dropped_qe.nargs = 1;
	q->dropped_qe.cpu_arg = -1;
	q->dropped_qe.args[0].type = "uint64_t";
	q->dropped_qe.args[0].type_len = 8;
	q->dropped_qe.args[0].name = "num_events_dropped";
	q->dropped.qe = &q->dropped_qe;
	q->dropped.t.name = "Dropped_Event";
	q->dropped.t.system = "qemu";
	q->dropped.t.index = 0;
	src->ntypes = (uint32_t)q->dict->n + 1;
	src->clock = CLOCK_NS;
	src->clock_base = "mono";
	return 0;
nomem:
	diag_set(d, "%s: out of memory", src->name);
	ret = -ENOMEM;
error:
	qs_close(src);
	return ret;
}

/*
 * The slot of an id: every bit of it mixed (murmur3's finalizer) with a
 * seed of this run, so that no set of ids chosen in a file shares a slot
 * (a multiplicative hash kept only some bits: multiples of its inverse
 * all landed in one, 200 000 mappings took 80 s).
 */
static size_t qs_slot(const struct qsimple *q, uint64_t id)
{
	uint64_t k = id ^ q->seed;

	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ull;
	k ^= k >> 33;
	return (size_t)k & (q->nslots - 1);
}

static struct qs_map *qs_map_find(const struct qsimple *q, uint64_t id)
{
	size_t i;

	if (!q->nslots)
		return NULL;
	for (i = qs_slot(q, id); q->slots[i]; i = (i + 1) & (q->nslots - 1))
		if (q->map[q->slots[i] - 1].id == id)
			return &q->map[q->slots[i] - 1];
	return NULL;
}

static void qs_slot_put(struct qsimple *q, size_t index)
{
	size_t k;

	for (k = qs_slot(q, q->map[index].id); q->slots[k];
	     k = (k + 1) & (q->nslots - 1))
		;
	q->slots[k] = (uint32_t)index + 1;
}

/* Room for one more mapping: the list and a table at most half full. */
static int qs_map_grow(struct qsimple *q)
{
	size_t i;

	if (q->nmap == q->mapcap) {
		size_t cap = q->mapcap ? q->mapcap * 2 : 256;
		struct qs_map *m;

		if (cap > UINT32_MAX - 1)
			return -ENOMEM;
		m = realloc(q->map, cap * sizeof(*m));
		if (!m)
			return -ENOMEM;
		q->map = m;
		q->mapcap = cap;
	}
	if ((q->nmap + 1) * 2 > q->nslots) {
		size_t cap = q->nslots ? q->nslots * 2 : 512;
		uint32_t *v = calloc(cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		free(q->slots);
		q->slots = v;
		q->nslots = cap;
		for (i = 0; i < q->nmap; i++)
			qs_slot_put(q, i);
	}
	return 0;
}

/* A mapping record: id names an event from now on. */
static int qs_mapping(struct source *src, struct qsimple *q, uint64_t id,
		      const unsigned char *name, uint32_t len)
{
	const struct qemu_event *qe = qemu_events_find(q->dict,
						       (const char *)name, len);
	struct qs_map *m = qs_map_find(q, id);
	struct qemu_type *t = NULL;

	if (qe)
		t = &q->types[qe - q->dict->v];
	if (!m) {
		if (qs_map_grow(q) < 0)
			return -ENOMEM;
		m = &q->map[q->nmap];
		memset(m, 0, sizeof(*m));
		m->id = id;
		qs_slot_put(q, q->nmap++);
	}
	if (m->name && m->skipped)
		qs_skipped(q, src, m);
	free(m->name);
	m->name = NULL;
	m->skipped = 0;
	m->type = t;
	if (!t) {
		m->name = strndup((const char *)name, len);
		if (!m->name)
			return -ENOMEM;
	}
	return 0;
}

/*
 * The arguments of a record of qe at p (n bytes), from argument first on:
 * true when they take exactly n bytes.
 */
static bool qs_args(struct qs_rec *r, const struct qemu_event *qe,
		    uint32_t first, const unsigned char *p, size_t n)
{
	size_t at = 0;
	uint32_t i;

	for (i = first; i < qe->nargs; i++) {
		if (qe->args[i].kind == QEMU_ARG_STR) {
			uint32_t len;

			if (n - at < 4)
				return false;
			len = qs_u32(p + at);
			at += 4;
			if (n - at < len)
				return false;
			r->v.s[i] = (const char *)p + at;
			r->v.slen[i] = len;
			r->v.u[i] = 0;
			at += len;
		} else {
			if (n - at < 8)
				return false;
			r->v.u[i] = qs_u64(p + at);
			at += 8;
		}
	}
	return at == n;
}

/* All the problems as one message, at the end. */
static int qs_report(struct source *src, struct qsimple *q, struct diag *d)
{
	size_t i;

	q->reported = true;
	diag_init(d);
	for (i = 0; i < q->nproblems && i < QS_PROBLEMS; i++)
		diag_add(d, "%s%s", i ? "\n  " : "",
			 q->problems[i] ? q->problems[i] : "(out of memory)");
	if (q->nproblems > QS_PROBLEMS)
		diag_add(d, "\n  (%zu more problems in %s)",
			 q->nproblems - QS_PROBLEMS, src->name);
	if (q->left_out)
		diag_add(d, "\n  %s: %" PRIu64 " record%s left out",
			 src->name, q->left_out, q->left_out == 1 ? "" : "s");
	return -EIO;
}

/* At the end of the file: what is left of a record there, if anything. */
static int qs_end(struct source *src, struct qsimple *q, size_t need,
		  const char *what, struct diag *d)
{
	size_t i;

	if (q->in.len > q->in.pos) {
		qs_problem(q, "%s: offset 0x%" PRIx64 ": truncated %s (%zu bytes needed, %zu left)",
			   src->name, q->in.off + q->in.pos, what, need,
			   q->in.len - q->in.pos);
		q->left_out++;
		q->in.pos = q->in.len;
	}
	for (i = 0; i < q->nmap; i++) {
		struct qs_map *m = &q->map[i];

		if (m->name && m->skipped)
			qs_skipped(q, src, m);
	}
	if (q->nproblems && !q->reported)
		return qs_report(src, q, d);
	return 0;
}

static int qs_next(struct source *src, struct event *ev, struct diag *d)
{
	struct qsimple *q = src->priv;
	struct qs_rec *r = &q->rec;
	const unsigned char *p;
	const struct qemu_type *t;
	struct qs_map *m;
	uint64_t type, id, ts;
	uint32_t len;
	int ret;

	for (;;) {
		if (q->in.len - q->in.pos < 8 + QS_REC_HEAD) {
			ret = qs_fill(q, 8 + QS_REC_HEAD, src, d);
			if (ret < 0)
				return ret;
		}
		if (q->in.len - q->in.pos < 8)
			return qs_end(src, q, 8, "record type", d);
		p = q->in.buf + q->in.pos;
		type = qs_u64(p);
		if (type == 0) {
			if (q->in.len - q->in.pos < 20)
				return qs_end(src, q, 20, "mapping record", d);
			id = qs_u64(p + 8);
			len = qs_u32(p + 16);
			if (len > QS_NAME_MAX) {
				qs_problem(q, "%s: offset 0x%" PRIx64 ": a mapping of id %" PRIu64 " to a name of %" PRIu32 " bytes (%u at most); the rest of the file is not read",
					   src->name, q->in.off + q->in.pos, id,
					   len, QS_NAME_MAX);
				q->in.pos = q->in.len;
				q->in.eof = true;
				return qs_end(src, q, 0, "", d);
			}
			ret = qs_fill(q, 20 + len, src, d);
			if (ret < 0)
				return ret;
			if (q->in.len - q->in.pos < 20 + len)
				return qs_end(src, q, 20 + len, "mapping record", d);
			p = q->in.buf + q->in.pos;
			if (qs_mapping(src, q, id, p + 20, len) < 0) {
				diag_set(d, "%s: out of memory", src->name);
				return -ENOMEM;
			}
			q->in.pos += 20 + len;
			continue;
		}
		if (q->in.len - q->in.pos < 8 + QS_REC_HEAD)
			return qs_end(src, q, 8 + QS_REC_HEAD, "event record", d);
		id = qs_u64(p + 8);
		ts = qs_u64(p + 16);
		len = qs_u32(p + 24);
		if (len < QS_REC_HEAD || len > QS_REC_MAX) {
			qs_problem(q, "%s: offset 0x%" PRIx64 ": an event record of %" PRIu32 " bytes (%u to %u); the rest of the file is not read",
				   src->name, q->in.off + q->in.pos, len,
				   QS_REC_HEAD, QS_REC_MAX);
			q->left_out++;
			q->in.pos = q->in.len;
			q->in.eof = true;
			return qs_end(src, q, 0, "", d);
		}
		if (q->in.len - q->in.pos < 8 + (size_t)len) {
			ret = qs_fill(q, 8 + (size_t)len, src, d);
			if (ret < 0)
				return ret;
			if (q->in.len - q->in.pos < 8 + (size_t)len)
				return qs_end(src, q, 8 + (size_t)len,
					      "event record", d);
			p = q->in.buf + q->in.pos;
		}
		if (id == QS_DROPPED) {
			t = &q->dropped;
		} else {
			m = qs_map_find(q, id);
			if (!m) {
				qs_problem(q, "%s: offset 0x%" PRIx64 ": event id %" PRIu64 " has no mapping record before it; the record is left out",
					   src->name, q->in.off + q->in.pos, id);
				q->left_out++;
				q->in.pos += 8 + (size_t)len;
				continue;
			}
			if (!m->type) {
				m->skipped++;
				q->left_out++;
				q->in.pos += 8 + (size_t)len;
				continue;
			}
			t = m->type;
		}
		r->qe = t->qe;
		r->first = t->qe->vcpu;
		/* a 7.2 vcpu event may carry its __cpu, which the length tells */
		if (!qs_args(r, t->qe, r->first, p + 32, len - QS_REC_HEAD) &&
		    !(r->first && qs_args(r, t->qe, r->first = 0, p + 32,
					  len - QS_REC_HEAD))) {
			if (t == &q->dropped)
				qs_problem(q, "%s: offset 0x%" PRIx64 ": a dropped-events record (id 0x%" PRIx64 ") with %" PRIu32 " bytes of arguments, not the 8 of its count of lost events; the record is left out",
					   src->name, q->in.off + q->in.pos,
					   id, len - QS_REC_HEAD);
			else
				qs_problem(q, "%s: offset 0x%" PRIx64 ": a record of %s (id %" PRIu64 ") with %" PRIu32 " bytes of arguments, which do not fit its declaration (%s:%u); the record is left out",
					   src->name, q->in.off + q->in.pos,
					   t->qe->name, id, len - QS_REC_HEAD,
					   q->dict->path, t->qe->lineno);
			q->left_out++;
			q->in.pos += 8 + (size_t)len;
			continue;
		}
		r->pid = qs_u32(p + 28);
		q->in.pos += 8 + (size_t)len;
		break;
	}
	/* simpletrace.py's delta: from the record before, in file order */
	if (!q->have_last)
		q->last_ts = ts;
	r->delta_neg = ts < q->last_ts;
	r->delta = r->delta_neg ? q->last_ts - ts : ts - q->last_ts;
	q->last_ts = ts;
	q->have_last = true;
	ev->ts = ts;
	ev->raw_ts = ts;
	ev->has_ts = true;
	ev->seq = q->seq++;
	ev->cpu = 0;
	ev->pid = r->pid;
	/* cpu_index -1 (DMA, MSI outside a vCPU) names none */
	ev->has_vcpu = t->qe->cpu_arg >= (int)r->first &&
		       r->v.u[t->qe->cpu_arg] <= INT32_MAX;
	ev->vcpu = ev->has_vcpu ? (uint32_t)r->v.u[t->qe->cpu_arg] : 0;
	ev->type = &t->t;
	ev->src = src;
	ev->rec = r;
	return 1;
}

/* Every type of this source is a struct qemu_type (t first). */
static const struct qemu_event *qs_event_of(const struct event_type *t)
{
	return t ? ((const struct qemu_type *)t)->qe : NULL;
}

/*
 * An argument by its trace-events name; with t NULL (any event) nothing
 * binds: the arguments are the event's own. An argument named pid or name
 * shadows the common key.
 */
static int qs_bind(struct source *src, const struct event_type *t,
		   const char *key)
{
	return qemu_arg_bind(qs_event_of(t), key);
}

static int qs_field(struct source *src, const struct event *ev, int index,
		    struct value *out)
{
	const struct qs_rec *r = ev->rec;

	return qemu_arg_value(r->qe, r->first, &r->v, index, out);
}

static size_t qs_fields(struct source *src, const struct event_type *t,
			const char **names, size_t max)
{
	return qemu_arg_names(qs_event_of(t), names, max);
}

static size_t qs_dec(char *p, uint64_t v)
{
	return pyfmt_u64_dec(p, v);
}

/* '%0.3f' % (delta_ns / 1000.0), by hand where that is exact */
static size_t qs_delta(char *p, bool neg, uint64_t ns)
{
	char *start = p;
	uint64_t frac;

	if (ns >= 4000000000000000ull) {
		double v = (double)ns / 1000.0;

		return (size_t)snprintf(p, 48, "%.3f", neg ? -v : v);
	}
	if (neg)
		*p++ = '-';
	p += qs_dec(p, ns / 1000);
	frac = ns % 1000;
	*p++ = '.';
	*p++ = (char)('0' + frac / 100);
	*p++ = (char)('0' + frac / 10 % 10);
	*p++ = (char)('0' + frac % 10);
	return (size_t)(p - start);
}

/*
 * As QEMU's scripts/simpletrace.py prints a record (its Formatter2, QEMU
 * 8.2 on: f'{name} {delta} {pid=} ' + ' '.join(fields), so an event
 * without arguments ends in a blank):
 *
 *   NAME DELTA_US pid=PID ARG=0xHEX STR=b'bytes' ...
 */
static int qs_render_default(struct source *src, const struct event *ev,
			     struct outbuf *o)
{
	const struct qs_rec *r = ev->rec;
	const struct qemu_event *qe = r->qe;
	size_t need = strlen(qe->name) + 96, nlen;
	char *p, *start;
	uint32_t i;

	for (i = r->first; i < qe->nargs; i++)
		need += strlen(qe->args[i].name) + 24 +
			(qe->args[i].kind == QEMU_ARG_STR ?
				 4 * r->v.slen[i] + 3 : 0);
	p = outbuf_reserve(o, need);
	if (!p)
		return -ENOMEM;
	start = p;
	nlen = strlen(qe->name);
	memcpy(p, qe->name, nlen);
	p += nlen;
	*p++ = ' ';
	p += qs_delta(p, r->delta_neg, r->delta);
	memcpy(p, " pid=", 5);
	p += 5;
	p += qs_dec(p, r->pid);
	*p++ = ' ';
	for (i = r->first; i < qe->nargs; i++) {
		const struct qemu_arg *a = &qe->args[i];

		if (i > r->first)
			*p++ = ' ';
		nlen = strlen(a->name);
		memcpy(p, a->name, nlen);
		p += nlen;
		*p++ = '=';
		if (a->kind == QEMU_ARG_STR) {
			p = qemu_bytes_repr(p, (const unsigned char *)r->v.s[i],
					    r->v.slen[i]);
		} else {
			*p++ = '0';
			*p++ = 'x';
			p += pyfmt_hex_put(p, r->v.u[i]);
		}
	}
	*p++ = '\n';
	outbuf_commit(o, (size_t)(p - start));
	return 0;
}

static int qs_each_type(struct source *src,
			int (*fn)(const struct event_type *t, void *arg),
			void *arg)
{
	struct qsimple *q = src->priv;
	size_t i;
	int ret = fn(&q->dropped.t, arg);

	for (i = 0; ret >= 0 && i < q->dict->n; i++)
		ret = fn(&q->types[i].t, arg);
	return ret < 0 ? ret : 0;
}

const struct source_ops source_qemu_simple_ops = {
	.kind = "QEMU simple trace",
	.program = "QEMU",
	.pid_is_process = true,
	.stream = true,
	.probe = qs_probe,
	.open = qs_open,
	.next = qs_next,
	.close = qs_close,
	.bind = qs_bind,
	.field = qs_field,
	.fields = qs_fields,
	.each_type = qs_each_type,
	.render_default = qs_render_default,
};
