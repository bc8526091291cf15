/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The walk through a task's records: uftrace-rec.c's functions (its
 * records read and checked, the heap of tasks by time, the call stacks),
 * which the files that read records call (next, fast, dump, perf,
 * kernel), and the steps of the common case, inlined where records are
 * walked: a record unpacked, a frame pushed or popped, a plain record
 * read and tracked without a call, the session of a task and a symbol
 * found through their caches. The rest of the reader needs only
 * uftrace-int.h.
 */
#ifndef KTF_UFTRACE_WALK_H
#define KTF_UFTRACE_WALK_H

#include "uftrace-int.h"

/* uftrace-rec.c: records, heap, call stacks */
ssize_t uft_fill(struct uftrace *uf, struct uft_task *t, size_t need);
uint64_t uft_offset(const struct uft_task *t);
void uft_task_finish(struct uft_task *t);
int uft_task_advance(struct uftrace *uf, struct uft_task *t);
void uft_sift_down(struct uftrace *uf, size_t i);

/* uf->top once the heap has settled */
static inline void uft_top_update(struct uftrace *uf)
{
	uf->top = uf->nheap ? &uf->tasks[uf->heap[0]] : NULL;
}
int uft_track(struct uftrace *uf, struct uft_task *t,
	      const struct uft_session *sess, const struct uft_rec *r,
	      struct uft_cur *c);

/*
 * The fields of a record's second word as a little-endian writer lays
 * them out (bit 0 up: type 2, more 1, magic 3, depth 10, addr 48);
 * returns the magic.
 */
static inline unsigned uft_rec_unpack_le(uint64_t w, struct uft_rec *r)
{
	r->type = w & 3;
	r->more = (w >> 2) & 1;
	r->depth = (uint32_t)(w >> 6) & 0x3ff;
	r->addr = w >> 16;
	return (unsigned)(w >> 3) & 7;
}

/*
 * The frames kept per task: uftrace records 65535 levels at most
 * (--max-stack); deeper ones are counted, not kept (1 MiB a task).
 */
#define UFT_STACK_MAX	65536u

int uft_push_slow(struct uftrace *uf, struct uft_task *t, uint64_t addr,
		  uint64_t ts);
size_t uft_stack_room(struct uft_task *t, size_t need);

/* A frame on top of t's call stack, which grows as it needs. */
static inline int uft_push(struct uftrace *uf, struct uft_task *t,
			   uint64_t addr, uint64_t ts)
{
	if (__builtin_expect(t->depth >= t->stack_cap, 0))
		return uft_push_slow(uf, t, addr, ts);
	t->stack[t->depth].addr = addr;
	t->stack[t->depth].ts = ts;
	t->depth++;
	return 0;
}

/*
 * The exit r pops t's stack down to its frame i: c has its depth, and
 * its duration when the frame's entry was seen (c->duration is 0 before).
 */
static inline void uft_pop(struct uft_task *t, size_t i,
			   const struct uft_rec *r, struct uft_cur *c)
{
	c->depth = i;
	if (t->stack[i].addr != UFT_NO_ADDR && r->ts >= t->stack[i].ts)
		c->duration = r->ts - t->stack[i].ts;
	t->depth = i;
}

/*
 * uft_task_advance() for the commonest record: a little-endian entry or
 * exit without payload, whole in the buffer, after a record no later
 * than it. Anything else goes the whole way.
 */
static inline int uft_task_advance_fast(struct uftrace *uf,
					struct uft_task *t)
{
	const unsigned char *p = t->buf + t->pos;
	uint64_t ts, w;

	if (t->len - t->pos < UFT_REC_SIZE || uf->swap || t->done || t->perf ||
	    t->kern)
		return uft_task_advance(uf, t);
	memcpy(&ts, p, 8);
	memcpy(&w, p + 8, 8);
	/* type 0 or 1 (bit 1 clear), more (bit 2) clear, the magic */
	if ((w & 0x3e) != UFT_REC_MAGIC << 3 || ts < t->last_raw)
		return uft_task_advance(uf, t);
	t->pay_av = NULL;
	t->paylen = t->arglen = 0;
	uft_rec_unpack_le(w, &t->rec);
	t->rec.ts = ts;
	t->rec.raw_ts = ts;
	t->rec.inverted = false;
	t->last_raw = ts;
	t->last_ts = ts;
	t->pos += UFT_REC_SIZE;
	return 1;
}

/*
 * uft_track() for an entry, or the exit of the frame on top, of a task
 * in step with its data and its session; the rest goes the whole way.
 */
static inline int uft_track_fast(struct uftrace *uf, struct uft_task *t,
				 const struct uft_session *sess,
				 const struct uft_rec *r, struct uft_cur *c)
{
	if (r->type > UFT_EXIT || t->resync || sess != t->stack_sess)
		return uft_track(uf, t, sess, r, c);
	c->duration = 0;
	if (r->type == UFT_ENTRY) {
		c->depth = t->depth;
		return uft_push(uf, t, r->addr, r->ts);
	}
	if (!t->depth || t->depth > t->stack_cap ||
	    t->stack[t->depth - 1].addr != r->addr)
		return uft_track(uf, t, sess, r, c);
	uft_pop(t, t->depth - 1, r, c);
	return 0;
}

/* The session of the task at ts: the one it had last, mostly. */
static inline const struct uft_session *uft_task_session(struct uftrace *uf,
							 struct uft_task *t,
							 uint64_t ts)
{
	if (t->sess && ts >= t->sess_from && ts < t->sess_until)
		return t->sess;
	return uft_task_session_find(uf, t, ts);
}

static inline struct uft_symcache *uft_symcache_of(struct uftrace *uf,
						   uint64_t addr)
{
	return &uf->cache[(addr ^ (addr >> 7) ^ (addr >> 17)) &
			  (UFT_SYMCACHE - 1)];
}

/*
 * uft_resolve() within the session s of the task at ts (NULL: none):
 * a symbol met before is one look into the cache, without a call.
 */
static inline struct uft_sym *uft_resolve_sess(struct uftrace *uf,
					       const struct uft_session *s,
					       uint64_t ts, uint64_t addr,
					       struct uft_symtab **modp)
{
	const struct uft_symcache *c = uft_symcache_of(uf, addr);

	if (s && c->map == s->map && c->addr == addr && c->sym) {
		*modp = c->mod;
		return c->sym;
	}
	return uft_resolve_in(uf, s, ts, addr, modp);
}

#endif
