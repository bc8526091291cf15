// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Records in the order `perf script` hands them out. The kernel writes
 * each CPU's ring buffer in turn, so the file is not in time order; perf
 * queues every timestamped record and, at each FINISHED_ROUND, hands out
 * the queued ones up to the largest time stamp seen by the round before
 * (ties in file order); the rest wait. A record without a time stamp (or
 * stamped 0: the synthesized COMMs) goes out as it is read. At the end
 * everything left goes. So memory holds about two rounds, however long
 * the file.
 *
 * COMM and FORK records go through the same queue and name the threads
 * (perf-threads.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf-int.h"
#include "tracedat/tracedat-guard.h"

/* The most a record takes in the arena (a u16 size, padded to 8) */
#define PERF_REC_ROOM	65536u

/* ------------------------------------------------------------ samples */

static int perf_bad(struct perf *p, uint64_t offset, const char *what,
		    struct diag *d)
{
	diag_set(d, "%s: offset 0x%" PRIx64 ": corrupt sample: %s", p->name,
		 offset, what);
	return -EIO;
}

/* The attr a sample record belongs to, by its id. */
static struct perf_attr *perf_sample_attr(struct perf *p,
					  const unsigned char *r, size_t len)
{
	if (p->nattrs == 1 || p->id_pos < 0)
		return &p->attrs[0];
	if ((size_t)p->id_pos + 8 > len)
		return NULL;
	return perf_attr_of(p, perf_u64(p, r + p->id_pos));
}

/* perf_parse_sample() of the sample's attr a (NULL: not known) */
static inline int perf_parse_attr(struct perf *p, struct perf_attr *a,
				  const unsigned char *r, size_t len,
				  struct perf_sample *s, uint64_t offset,
				  struct diag *d)
{
	size_t at;
	uint64_t st, n;

	/* tracepoints as perf record samples them: the same, straight */
	if (__builtin_expect(a && a->plain, 1)) {
		uint32_t rs;

		at = a->off_read;
		if (at + 4 > len)
			return perf_bad(p, offset,
					at > len ? "shorter than its sample type says"
						 : "raw data past its end",
					d);
		rs = perf_u32(p, r + at);
		if (rs > len - at - 4)
			return perf_bad(p, offset, "raw data past its end", d);
		s->attr = a;
		s->time = perf_u64(p, r + a->off_time);
		s->pid = (int32_t)perf_u32(p, r + a->off_tid);
		s->tid = (int32_t)perf_u32(p, r + a->off_tid + 4);
		s->cpu = perf_u32(p, r + a->off_cpu);
		s->raw = r + at + 4;
		s->raw_size = rs;
		s->offset = offset;
		s->seq = 0;
		s->room = 0;
		return 0;
	}
	memset(s, 0, sizeof(*s));
	s->offset = offset;
	s->pid = s->tid = -1;
	s->attr = a;
	if (!a)
		return 0;
	st = a->sample_type;
	at = a->off_read;
	if (at > len)
		return perf_bad(p, offset, "shorter than its sample type says",
				d);
	if (st & PERF_S_TID) {
		s->pid = (int32_t)perf_u32(p, r + a->off_tid);
		s->tid = (int32_t)perf_u32(p, r + a->off_tid + 4);
	}
	if (st & PERF_S_TIME)
		s->time = perf_u64(p, r + a->off_time);
	if (st & PERF_S_CPU)
		s->cpu = perf_u32(p, r + a->off_cpu);
	if (st & PERF_S_READ) {
		uint64_t rf = a->read_format;
		uint64_t per = 1 + !!(rf & PERF_RF_ID) + !!(rf & PERF_RF_LOST);

		if (rf & PERF_RF_GROUP) {
			if (at + 8 > len)
				return perf_bad(p, offset, "read values past its end", d);
			n = perf_u64(p, r + at);
			at += 8;
			if (n > len / 8)
				return perf_bad(p, offset, "read values past its end", d);
			n = n * per + !!(rf & PERF_RF_ENABLED) +
			    !!(rf & PERF_RF_RUNNING);
		} else {
			n = per + !!(rf & PERF_RF_ENABLED) +
			    !!(rf & PERF_RF_RUNNING);
		}
		if (n > (len - at) / 8)
			return perf_bad(p, offset, "read values past its end", d);
		at += 8 * (size_t)n;
	}
	if (st & PERF_S_CALLCHAIN) {
		if (at + 8 > len)
			return perf_bad(p, offset, "callchain past its end", d);
		n = perf_u64(p, r + at);
		at += 8;
		if (n > (len - at) / 8)
			return perf_bad(p, offset, "callchain past its end", d);
		at += 8 * (size_t)n;
	}
	if (st & PERF_S_RAW) {
		uint32_t rs;

		if (at + 4 > len)
			return perf_bad(p, offset, "raw data past its end", d);
		rs = perf_u32(p, r + at);
		if (rs > len - at - 4)
			return perf_bad(p, offset, "raw data past its end", d);
		s->raw = r + at + 4;
		s->raw_size = rs;
	}
	return 0;
}

int perf_parse_sample(struct perf *p, const unsigned char *r, size_t len,
		      struct perf_sample *s, uint64_t offset, struct diag *d)
{
	return perf_parse_attr(p, perf_sample_attr(p, r, len), r, len, s,
			       offset, d);
}

/* The time stamp of a record other than a sample (its sample_id). */
static uint64_t perf_record_time(struct perf *p, const unsigned char *r,
				 size_t len)
{
	struct perf_attr *a;
	uint64_t st;
	size_t back;

	if (!p->nattrs)
		return 0;
	a = &p->attrs[0];
	st = p->id_type;
	if (p->nattrs > 1 && (st & PERF_S_IDENTIFIER) && len >= 8) {
		a = perf_attr_of(p, perf_u64(p, r + len - 8));
		if (!a)
			return 0;
		st = a->sample_type;
	}
	if (!a->sample_id_all || !(st & PERF_S_TIME))
		return 0;
	back = 8 * (size_t)(1 + __builtin_popcountll(
				    st & (PERF_S_IDENTIFIER | PERF_S_CPU |
					  PERF_S_STREAM_ID | PERF_S_ID)));
	if (back > len)
		return 0;
	return perf_u64(p, r + len - back);
}

/* ------------------------------------------------------------ records */

/*
 * The next record of the input (of a decompressed block first): *rec
 * points at its header, valid until the next call; *in_z: it came from a
 * decompressed block. 1, 0 at the end, -errno (damage: d filled,
 * p->truncated when the input ends early).
 *
 * perf record -z compresses what it read of each ring buffer, and a
 * record that wraps around the end of the buffer is split between two
 * COMPRESSED records: the unfinished tail of a block waits in p->zbuf for
 * the next block (as perf's reader carries it); only at the end of the
 * data is a tail left over damage.
 */
static int perf_record(struct perf *p, const unsigned char **rec,
		       uint64_t *offset, bool *in_z, struct diag *d)
{
	const unsigned char *r;
	uint16_t size;
	size_t left;
	int ret;

	*in_z = false;
	left = p->zlen - p->zpos;
	if (left >= 8) {
		size = perf_u16(p, p->zbuf + p->zpos + 6);
		if (size < 8) {
			diag_set(d, "%s: offset 0x%" PRIx64 ": corrupt compressed record: it holds a record of %u bytes; the rest of its block is left out",
				 p->name, p->zoff, size);
			p->zlen = p->zpos = 0;
			return -EILSEQ;
		}
		if (size <= left) {
			*rec = p->zbuf + p->zpos;
			*offset = p->zoff;
			*in_z = true;
			p->zpos += size;
			return 1;
		}
	}
	/* the buffer holds it already, as a rule: no call */
	ret = p->in.len - p->in.pos >= 8 ? 0 : perf_in_fill(p, 8, d);
	if (ret < 0)
		return ret;
	*offset = perf_in_tell(&p->in);
	if (p->in.len == p->in.pos) {
		if (!left)
			return 0;
		diag_set(d, "%s: offset 0x%" PRIx64 ": truncated perf.data: the compressed data ends within a record (",
			 p->name, p->zoff);
		if (left >= 8)
			diag_add(d, "%zu bytes of %u)", left,
				 perf_u16(p, p->zbuf + p->zpos + 6));
		else
			diag_add(d, "%zu bytes of its 8-byte header)", left);
		p->truncated = true;
		p->zlen = p->zpos = 0;
		return -EIO;
	}
	if (p->in.len - p->in.pos < 8)
		goto cut;
	r = p->in.buf + p->in.pos;
	size = perf_u16(p, r + 6);
	if (size < 8) {
		diag_set(d, "%s: offset 0x%" PRIx64 ": corrupt perf.data: a record of %u bytes; nothing after it can be read",
			 p->name, *offset, size);
		return -EIO;
	}
	ret = p->in.len - p->in.pos >= size ? 0 : perf_in_fill(p, size, d);
	if (ret < 0)
		return ret;
	if (p->in.len - p->in.pos < size)
		goto cut;
	*rec = p->in.buf + p->in.pos;
	p->in.pos += size;
	return 1;
cut:
	p->truncated = true;
	diag_set(d, "%s: offset 0x%" PRIx64 ": truncated perf.data: the file ends within a record (%zu bytes left%s)",
		 p->name, *offset, p->in.len - p->in.pos,
		 p->pipe ? "" : " of the data section");
	p->in.pos = p->in.len;
	return -EIO;
}

/*
 * Skip the payload that follows a record (AUXTRACE's trace data, a pipe's
 * second HEADER_TRACING_DATA): a payload that runs past the end of the
 * data is a file cut short.
 */
static int perf_skip(struct perf *p, uint64_t n, const char *what,
		     uint64_t offset, struct diag *d)
{
	uint64_t want = n;

	while (n) {
		size_t k;
		int ret = perf_in_fill(p, 1, d);

		if (ret < 0)
			return ret;
		k = p->in.len - p->in.pos;
		if (!k) {
			diag_set(d, "%s: offset 0x%" PRIx64 ": truncated perf.data: the %s record's payload of %" PRIu64 " bytes runs past the end of the %s (%" PRIu64 " bytes left); nothing after it can be read",
				 p->name, offset, what, want, p->pipe ? "file" : "data section",
				 want - n);
			p->truncated = true;
			return -EIO;
		}
		if (k > n)
			k = (size_t)n;
		p->in.pos += k;
		n -= k;
	}
	return 0;
}

/* A sample handed out: *s from the record at rec. */
static inline int perf_take(struct perf *p, const unsigned char *rec,
			    uint64_t offset, uint32_t attr,
			    struct perf_sample *s, struct diag *d)
{
	size_t size = perf_u16(p, rec + 6);
	int ret;

	/* the attr found when it was queued */
	ret = perf_parse_attr(p, attr ? &p->attrs[attr - 1]
				      : perf_sample_attr(p, rec + 8, size - 8),
			      rec + 8, size - 8, s, offset, d);
	if (ret < 0)
		return ret;
	if (!s->attr || s->attr->type != PERF_T_TRACEPOINT)
		return 0;
	/* its place among the input's events (ev->seq, "event N") */
	s->seq = p->taken;
	/*
	 * a raw sample whose fields lie outside it (a __data_loc pointing
	 * past its end): damaged, left out, as in a trace.dat; a sample
	 * short of its format's trailing array is printed from a padded
	 * copy (tdguard_info())
	 */
	if (p->tep && s->attr->tp && s->raw) {
		struct perf_attr *a = s->attr;
		struct tep_record r;

		/* tdguard_record()'s first test, its size kept per attr */
		if (__builtin_expect(!a->fits, 0))
			a->fits = tdguard_fits(p->guard, a->tp);
		if (__builtin_expect(s->raw_size >= a->fits, 1)) {
			p->taken++;
			return 1;
		}

		memset(&r, 0, sizeof(r));
		r.cpu = (int)s->cpu;
		r.size = (int)s->raw_size;
		r.data = (void *)s->raw;
		r.offset = offset;
		ret = tdguard_record(p->guard, p->tep, s->attr->tp, &r, d);
		if (ret < 0)
			return ret;
	}
	p->taken++;
	return 1;
}

/* Remember the first damage; go on where the framing allows. */
static void perf_damage(struct perf *p, const struct diag *d)
{
	if (!p->failed)
		p->fail_d = *d;
	p->failed = true;
	p->ndamaged++;
}

/* Damage past which nothing can be read: everything queued goes out. */
static void perf_stop(struct perf *p, const struct diag *d)
{
	perf_damage(p, d);
	p->at_end = true;
	perf_flush(p, UINT64_MAX);
}

/* What perf_fill() did */
enum {
	PERF_FILL_QUEUED,	/* records to hand out: p->out < p->nout */
	PERF_FILL_SAMPLE,	/* a sample without time stamp in p->cur */
	PERF_FILL_STOP,		/* open: the batch ends here (nothing read) */
	PERF_FILL_END,		/* the end of the input, the queue empty */
};

/*
 * Once the queue's records to hand out are gone: read records until a
 * round (or the end) lets some out, or a sample without time stamp comes
 * (it goes out as it is read). open: a batch holds samples of the arena
 * and names of threads: no record then moves, the arena does not grow
 * (PERF_FILL_STOP when one more record might need it to), a COMM or
 * FORK out of the queue is left to be read again (PERF_FILL_STOP).
 * PERF_FILL_*, or -errno with d filled.
 */
static int perf_fill(struct perf *p, bool open, struct diag *d)
{
	const unsigned char *rec;
	uint64_t offset, ts;
	uint32_t type, attr;
	size_t size;
	bool in_z;
	int ret;

	if (p->nout) {
		ret = perf_compact(p, !open, d);
		if (ret < 0)
			return ret;
	}
	for (;;) {
		if (p->at_end)
			return PERF_FILL_END;
		if (open && p->acap - p->alen < PERF_REC_ROOM)
			return PERF_FILL_STOP;
		ret = perf_record(p, &rec, &offset, &in_z, d);
		if (ret == -ENOMEM)
			return ret;
		if (ret <= 0) {
			/* a damaged compressed block: the file goes on */
			if (ret == -EILSEQ) {
				perf_damage(p, d);
				continue;
			}
			/* the end (or no more framing): everything left goes */
			if (ret < 0)
				perf_stop(p, d);
			p->at_end = true;
			perf_flush(p, UINT64_MAX);
			if (p->out < p->nout)
				return PERF_FILL_QUEUED;
			continue;
		}
		type = perf_u32(p, rec);
		size = perf_u16(p, rec + 6);
		switch (type) {
		case PERF_R_SAMPLE:
			ts = 0;
			attr = 0;
			if (size >= 8) {
				struct perf_attr *a = perf_sample_attr(
					p, rec + 8, size - 8);

				/* the whole sample is checked when it goes out */
				if (a && (a->sample_type & PERF_S_TIME) &&
				    (size_t)a->off_time + 8 <= size - 8u)
					ts = perf_u64(p, rec + 8 + a->off_time);
				attr = a ? (uint32_t)(a - p->attrs) + 1 : 0;
			}
			p->nsamples++;
			if (ts) {
				ret = perf_queue(p, rec, size, ts, offset, attr,
						 d);
				if (ret < 0)
					return ret;
				/*
				 * no FINISHED_ROUND for too long: the older
				 * half goes, as perf's ordered events do when
				 * they reach their memory limit
				 */
				if (perf_queue_full(p)) {
					perf_flush(p, UINT64_MAX);
					perf_flush(p, p->q[p->nq / 2].ts);
					p->flushed = p->q[p->nq / 2].ts;
					if (p->out < p->nout)
						return PERF_FILL_QUEUED;
				}
				continue;
			}
			/* no time stamp: it goes out as it comes */
			if (size > p->reccap) {
				unsigned char *c = realloc(p->rec, 65536);

				if (!c)
					goto nomem;
				p->rec = c;
				p->reccap = 65536;
			}
			memcpy(p->rec, rec, size);
			ret = perf_take(p, p->rec, offset, 0, &p->cur, d);
			if (ret < 0)
				perf_damage(p, d);
			if (ret > 0)
				return PERF_FILL_SAMPLE;
			continue;
		case PERF_R_COMM:
		case PERF_R_FORK:
			ts = perf_record_time(p, rec + 8, size - 8);
			if (ts) {
				ret = perf_queue(p, rec, size, ts, offset, 0, d);
				if (ret < 0)
					return ret;
			} else if (open) {
				/* read again once the batch is out */
				if (in_z)
					p->zpos -= size;
				else
					p->in.pos -= size;
				return PERF_FILL_STOP;
			} else if (perf_task(p, type, rec + 8, size - 8) < 0) {
				goto nomem;
			}
			continue;
		case PERF_R_FINISHED_ROUND:
			perf_flush(p, p->limit);
			if (p->limit > p->flushed)
				p->flushed = p->limit;
			p->limit = p->max_ts;
			if (p->out < p->nout)
				return PERF_FILL_QUEUED;
			continue;
		case PERF_R_COMPRESSED:
			/*
			 * perf record never puts one in another; inflating it
			 * would write over the block it is read from
			 */
			if (in_z) {
				diag_set(d, "%s: offset 0x%" PRIx64 ": corrupt compressed record: it holds another compressed record (perf record never writes one); that one is left out",
					 p->name, offset);
				perf_damage(p, d);
				continue;
			}
			ret = perf_zstd_inflate(p, rec + 8, size - 8, offset, d);
			if (ret == -ENOMEM)
				return ret;
			if (ret < 0)
				perf_damage(p, d);
			continue;
		case PERF_R_AUXTRACE:
		case PERF_R_HEADER_TRACING_DATA: {
			/*
			 * a payload after the record: AUXTRACE's (its size a
			 * u64), a pipe's second copy of the tracing data (a
			 * u32)
			 */
			bool aux = type == PERF_R_AUXTRACE;

			if (in_z || size < (aux ? 16u : 12u))
				continue;
			ret = perf_skip(p, aux ? perf_u64(p, rec + 8)
					       : perf_u32(p, rec + 8),
					aux ? "AUXTRACE" : "HEADER_TRACING_DATA",
					offset, d);
			if (ret == -ENOMEM)
				return ret;
			if (ret < 0) {
				perf_stop(p, d);
				if (p->out < p->nout)
					return PERF_FILL_QUEUED;
			}
			continue;
		}
		default:
			continue;
		}
	}
nomem:
	diag_set(d, "%s: out of memory", p->name);
	return -ENOMEM;
}

/*
 * At the end: 0, or the first damage (and how many) as -EIO; feature
 * sections cut off (p->cut) said after it, or alone
 */
static int perf_end(struct perf *p, struct diag *d)
{
	unsigned i;

	if (!p->failed && !p->ncut)
		return 0;
	if (p->failed) {
		*d = p->fail_d;
		if (p->ndamaged > 1)
			diag_add(d, " (%" PRIu64 " damaged records left out in all)",
				 p->ndamaged);
		if (p->ncut)
			diag_add(d, "; and %s", p->cut_d.msg);
	} else {
		*d = p->cut_d;
	}
	if (p->ncut) {
		diag_add(d, "; the feature sections past its end are left out (feature");
		for (i = 0; i < p->ncut; i++)
			diag_add(d, "%s %u", i ? "," : (p->ncut > 1 ? "s" : ""),
				 p->cut[i]);
		diag_add(d, "): they hold no samples");
	}
	p->failed = false;
	p->ncut = 0;
	return -EIO;
}

int perf_order_next(struct perf *p, struct diag *d)
{
	const unsigned char *rec;
	uint32_t type;
	size_t size;
	int ret;

	for (;;) {
		while (p->out < p->nout) {
			struct perf_qent *e = &p->q[p->out++];

			rec = p->arena + e->at;
			type = perf_u32(p, rec);
			size = perf_u16(p, rec + 6);
			if (type != PERF_R_SAMPLE) {
				if (perf_task(p, type, rec + 8, size - 8) < 0) {
					diag_set(d, "%s: out of memory", p->name);
					return -ENOMEM;
				}
				continue;
			}
			ret = perf_take(p, rec, e->offset, e->attr, &p->cur, d);
			if (ret < 0)
				perf_damage(p, d);
			if (ret > 0)
				return 1;
		}
		ret = perf_fill(p, false, d);
		if (ret == PERF_FILL_SAMPLE)
			return 1;
		if (ret == PERF_FILL_END)
			return perf_end(p, d);
		if (ret < 0)
			return ret;
	}
}

int perf_order_batch(struct perf *p, struct perf_sample *s, size_t max,
		     struct diag *d)
{
	const unsigned char *rec;
	struct perf_qent *e;
	size_t n = 0;
	int ret;

	/* what ended the last batch */
	if (p->bret) {
		ret = p->bret;
		p->bret = 0;
		*d = p->bd;
		return ret;
	}
	while (n < max) {
		if (p->out == p->nout) {
			ret = perf_fill(p, n > 0, d);
			if (ret == PERF_FILL_QUEUED)
				continue;
			if (ret == PERF_FILL_SAMPLE) {
				/* p->rec: the next one goes there */
				s[n] = p->cur;
				perf_print_lib(p, &s[n++]);
				break;
			}
			if (ret == PERF_FILL_STOP)
				break;
			if (ret == PERF_FILL_END) {
				if (n)
					break;
				return perf_end(p, d);
			}
			/* an error after the events before it */
			if (n) {
				p->bret = ret;
				p->bd = *d;
				break;
			}
			return ret;
		}
		e = &p->q[p->out];
		rec = p->arena + e->at;
		if (perf_u32(p, rec) != PERF_R_SAMPLE) {
			/* a COMM names a thread: the events before it first */
			if (n)
				break;
			p->out++;
			if (perf_task(p, perf_u32(p, rec), rec + 8,
				      perf_u16(p, rec + 6) - 8u) < 0) {
				diag_set(d, "%s: out of memory", p->name);
				return -ENOMEM;
			}
			continue;
		}
		p->out++;
		ret = perf_take(p, rec, e->offset, e->attr, &s[n], d);
		if (ret < 0)
			perf_damage(p, d);
		if (ret <= 0)
			continue;
		/* libtraceevent's printing may stop the input: the last */
		if (perf_print_lib(p, &s[n++]))
			break;
	}
	return (int)n;
}

void perf_order_free(struct perf *p)
{
	free(p->arena);
	free(p->arena2);
	free(p->q);
	free(p->qtmp);
	free(p->threads);
	free(p->rec);
}
