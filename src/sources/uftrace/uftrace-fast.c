// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uftrace: next_batch()'s fast path, a run of the top task's plain
 * records (an entry, or the exit of the frame on top, without values)
 * read straight from its buffer into events, the task's state in
 * registers from one record to the next. Any other record goes the
 * whole way (uftrace-next.c); the events are the same either way.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "uftrace-int.h"
#include "uftrace-walk.h"

/*
 * The record at hand back to the task (ts, type, depth as written, addr;
 * pos: after it) with the task's stack depth and the sequence number:
 * what uft_task_advance_fast() leaves of such a record.
 */
static inline void uft_fast_store(struct uftrace *uf, struct uft_task *t,
				  uint64_t ts, unsigned type, uint32_t rdepth,
				  uint64_t addr, size_t pos, size_t depth,
				  uint64_t seq)
{
	t->rec.ts = ts;
	t->rec.raw_ts = ts;
	t->rec.addr = addr;
	t->rec.depth = rdepth;
	t->rec.type = (uint8_t)type;
	t->rec.more = false;
	t->rec.inverted = false;
	t->last_raw = ts;
	t->last_ts = ts;
	t->pos = pos;
	t->pay_av = NULL;
	t->paylen = t->arglen = 0;
	t->depth = depth;
	uf->seq = seq;
}

/*
 * The first time from which the top task t may no longer be on top: the
 * end of its session, or the time of the next task in the heap (a child
 * of the top). A record of t before it needs no look at the heap.
 */
static inline uint64_t uft_fast_bound(const struct uftrace *uf,
				      uint64_t until)
{
	size_t k;

	for (k = 1; k <= 2 && k < uf->nheap; k++) {
		uint64_t ts = uf->tasks[uf->heap[k]].rec.ts;

		if (ts < until)
			until = ts;
	}
	return until;
}

/*
 * The task t, whose record at hand changed, in its place in the heap:
 * false when another task came on top.
 */
static inline bool uft_fast_settle(struct uftrace *uf, struct uft_task *t)
{
	if (uf->nheap > 1) {
		uft_sift_down(uf, 0);
		uft_top_update(uf);
	}
	return uf->top == t;
}

/* 16 bytes in a vector register: two fields stored with one move */
typedef uint64_t uft_v2 __attribute__((vector_size(16)));

static inline void uft_put2(void *dst, uft_v2 v)
{
	memcpy(dst, &v, sizeof(v));
}

static inline uft_v2 uft_get2(const void *src)
{
	uft_v2 v;

	memcpy(&v, src, sizeof(v));
	return v;
}

/*
 * What is the same for every event of a run of one task and type, the
 * fields from has_ts up to type (has_ts, cpu, pid, has_vcpu, vcpu, type),
 * is copied in two moves of 16 bytes from a struct event made for it.
 */
#define UFT_EV_SAME	offsetof(struct event, has_ts)

_Static_assert(offsetof(struct event, has_ts) + 32 >=
			       offsetof(struct event, type) +
				       sizeof(const struct event_type *) &&
		       offsetof(struct event, has_ts) + 32 <=
			       offsetof(struct event, src) &&
		       offsetof(struct event, has_ts) + 32 <=
			       offsetof(struct event, rec) &&
		       offsetof(struct event, seq) + sizeof(uint64_t) <=
			       offsetof(struct event, has_ts) &&
		       offsetof(struct event, raw_ts) <
			       offsetof(struct event, has_ts) &&
		       offsetof(struct event, ts) < offsetof(struct event, has_ts),
	       "struct event: has_ts .. type in 32 bytes, the rest outside");
_Static_assert(offsetof(struct event, raw_ts) ==
		       offsetof(struct event, ts) + sizeof(uint64_t),
	       "struct event: ts, raw_ts together");
_Static_assert(offsetof(struct uft_rec, raw_ts) ==
			       offsetof(struct uft_rec, ts) + sizeof(uint64_t) &&
		       offsetof(struct uft_cur, typelen) ==
			       offsetof(struct uft_cur, type) + sizeof(char *) &&
		       offsetof(struct uft_cur, symlen) ==
			       offsetof(struct uft_cur, symbol) + sizeof(char *) &&
		       sizeof(size_t) == sizeof(uint64_t) &&
		       sizeof(char *) == sizeof(uint64_t),
	       "struct uft_cur: the pairs stored together");

/*
 * What t's events hold from has_ts up to type, made once (t->fast_ev):
 * the same for all its events, then the rest by type.
 */
static void uft_fast_ev(struct uftrace *uf, struct uft_task *t)
{
	struct event same;
	unsigned k;

	memset(&same, 0, sizeof(same));
	same.has_ts = true;
	same.cpu = t->cpu;
	same.pid = t->pid;
	same.has_vcpu = t->has_vcpu;
	same.vcpu = t->cpu;
	memcpy(t->fast_ev[0], (const char *)&same + UFT_EV_SAME, 16);
	for (k = UFT_ENTRY; k <= UFT_EXIT; k++) {
		same.type = &uf->types[k];
		memcpy(t->fast_ev[k + 1], (const char *)&same + UFT_EV_SAME + 16,
		       16);
	}
	t->fast_ev_made = true;
}

/*
 * What a uft_cur holds of the task, its comm and its flags, the same
 * for every fast record of t: written into the slots [from, from + n) of
 * uf->bcur after a run that used them, once for as long as they serve
 * the fast path and task (uf->bfast_mask).
 */
static void uft_fast_slots(struct uftrace *uf, struct uft_task *t,
			   const char *comm, size_t from, size_t n)
{
	uint64_t want = (n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1)
			<< from, todo;

	if (uf->bfast != t || uf->bfast_comm != comm) {
		uf->bfast = t;
		uf->bfast_comm = comm;
		uf->bfast_mask = 0;
	}
	todo = want & ~uf->bfast_mask;
	while (todo) {
		struct uft_cur *c = &uf->bcur[__builtin_ctzll(todo)];

		c->task = t;
		c->is_text = false;
		c->perf = false;
		c->kern = false;
		c->tid = t->tid;
		c->resolved = true;
		c->comm = comm;
		c->paylen = 0;
		c->arglen = 0;
		c->av = NULL;
		c->rec.more = false;
		c->rec.inverted = false;
		todo &= todo - 1;
	}
	uf->bfast_mask |= want;
}

_Static_assert(UFT_BATCH <= 64, "uf->bfast_mask: a bit per uf->bcur");

/*
 * uft_next()'s fast path over a run of the top task's records, into
 * cur[0 .. max - 1] (of uf->bcur) and ev[0 .. max - 1] (max >= 1): the
 * task, its session, its stack and the record at hand stay in registers
 * from one record to the next, which are read straight from its buffer
 * (uft_task_advance_fast() in a loop) into the next uft_cur. Stops at a
 * record the fast path does not take (it stays on top), when another
 * task comes on top, at max, or at the end of the task's buffer.
 * Returns how many events it made.
 */
static inline size_t uft_fast_events(struct source *src, struct uftrace *uf,
				     struct uft_cur *cur, struct event *ev,
				     size_t max)
{
	struct uft_task *t = uf->top;
	const struct uft_session *sess = t->sess;
	const struct uft_sidmap *map;
	struct uft_frame *stack;
	const unsigned char *buf = t->buf, *p = buf + t->pos;
	size_t depth = t->depth, n, dlim = SIZE_MAX, xlo = 0;
	uint64_t until = t->sess_until, seq = uf->seq, lim, w;
	const struct uft_symcache *sc;
	struct uft_cur *c = cur;
	struct event *e = ev, *end;
	/* pairs: symbol and symlen; type and typelen, has_ts .. type by type */
	uft_v2 sym, tn[2], hi[2], lo, tsv;
	/* the record at hand: the task's first, then straight from buf */
	uint64_t ts = t->rec.ts, addr = t->rec.addr, nts, naddr;
	unsigned type = t->rec.type;

	if (t->perf | t->kern | t->resync | !sess | (sess != t->stack_sess) |
	    uf->swap | (t->paylen != 0) | (t->arglen != 0) |
	    (t->pay_av != NULL) | t->rec.more | t->rec.inverted |
	    (type > UFT_EXIT) | (ts < t->sess_from) | (ts >= until))
		return 0;
	/* a lone input: the depths between which dump shows every record */
	if (uf->lone && !uft_dd_fast(uf, depth, &dlim, &xlo))
		return 0;
	map = sess->map;
	sc = uft_symcache_of(uf, addr);
	if (sc->map != map || sc->addr != addr || !sc->sym)
		return 0;
	sym = (uft_v2){ (uintptr_t)sc->sym->name, sc->sym->namelen };
	/*
	 * events up to max; records read after the first: the buffer's;
	 * entries: the room on the stack (no look at it per record)
	 */
	n = (t->len - t->pos) / UFT_REC_SIZE + 1;
	if (n > max)
		n = max;
	if (depth >= t->stack_cap || n > t->stack_cap - depth) {
		size_t room = uft_stack_room(t, n);

		if (room < n)
			n = room;
		if (!n)
			return 0;
	}
	stack = t->stack;
	end = ev + n;
	lim = uft_fast_bound(uf, until);
	if (__builtin_expect(!t->fast_ev_made, 0))
		uft_fast_ev(uf, t);
	lo = uft_get2(t->fast_ev[0]);
	hi[UFT_ENTRY] = uft_get2(t->fast_ev[UFT_ENTRY + 1]);
	hi[UFT_EXIT] = uft_get2(t->fast_ev[UFT_EXIT + 1]);
	tn[UFT_ENTRY] = (uft_v2){ (uintptr_t)uft_type_names[UFT_ENTRY].name,
				  uft_type_names[UFT_ENTRY].len };
	tn[UFT_EXIT] = (uft_v2){ (uintptr_t)uft_type_names[UFT_EXIT].name,
				 uft_type_names[UFT_EXIT].len };
	/* the record at hand as read: in its uft_cur from the start */
	tsv = (uft_v2){ ts, ts };
	uft_put2(&c->rec.ts, tsv);
	c->rec.addr = addr;
	c->rec.depth = t->rec.depth;
	c->rec.type = (uint8_t)type;
	for (;;) {
		/* the record at hand, its symbol found: an event */
		if (type == UFT_ENTRY) {
			if (__builtin_expect(depth >= dlim, 0))
				goto stop;
			/* n leaves room on the stack */
			stack[depth].addr = addr;
			stack[depth].ts = ts;
			c->depth = depth;
			c->duration = 0;
			depth++;
		} else {
			const struct uft_frame *f;

			/* xlo: 0, or a lone input's bound */
			if (__builtin_expect(depth <= xlo, 0))
				goto stop;
			f = &stack[depth - 1];
			if (__builtin_expect(f->addr != addr, 0))
				goto stop;
			/* addr has 48 bits: never UFT_NO_ADDR */
			c->duration = ts >= f->ts ? ts - f->ts : 0;
			depth--;
			c->depth = depth;
		}
		/* by index, not in the branches: no register for each */
		uft_put2(&c->type, tn[type]);
		uft_put2((char *)e + UFT_EV_SAME + 16, hi[type]);
		uft_put2(&c->symbol, sym);

		uft_put2(&e->ts, tsv);
		e->seq = seq++;
		uft_put2((char *)e + UFT_EV_SAME, lo);
		e->src = src;
		e->rec = c;
		c++;
		if (++e == end)
			goto end;

		/* the task's next record: uft_task_advance_fast()'s */
		memcpy(&nts, p, 8);
		memcpy(&w, p + 8, 8);
		/* type 0 or 1 (bit 1 clear), more (bit 2) clear, the magic */
		if (__builtin_expect((w & 0x3e) != UFT_REC_MAGIC << 3 || nts < ts,
				     0))
			goto advance;
		/* uft_rec_unpack_le(), more and magic known, into c */
		ts = nts;
		type = w & 1;
		naddr = w >> 16;
		tsv = (uft_v2){ ts, ts };
		uft_put2(&c->rec.ts, tsv);
		c->rec.addr = naddr;
		c->rec.depth = (uint32_t)(w >> 6) & 0x3ff;
		c->rec.type = (uint8_t)type;
		p += UFT_REC_SIZE;
		if (__builtin_expect(ts >= lim, 0)) {
			/* the next task's time, or the session's end */
			uft_fast_store(uf, t, ts, type, c->rec.depth, naddr,
				       (size_t)(p - buf), depth, seq);
			if (!uft_fast_settle(uf, t) || ts >= until)
				return (size_t)(e - ev);
			/* on top at ts: ahead of the tasks at ts */
			lim = ts + 1;
		}
		if (naddr != addr) {
			/* one look into the cache for another function */
			addr = naddr;
			sc = uft_symcache_of(uf, addr);
			if (sc->map != map || sc->addr != addr || !sc->sym)
				goto stop;
			sym = (uft_v2){ (uintptr_t)sc->sym->name,
					sc->sym->namelen };
		}
	}
stop:
	/* the record at hand stays on top, for the whole way */
	uft_fast_store(uf, t, ts, type, c->rec.depth, addr, (size_t)(p - buf),
		       depth, seq);
	return (size_t)(e - ev);
end:
	/* the record after the last event, as uft_task_advance_fast() */
	if (t->len - (size_t)(p - buf) >= UFT_REC_SIZE) {
		memcpy(&nts, p, 8);
		memcpy(&w, p + 8, 8);
		if ((w & 0x3e) == UFT_REC_MAGIC << 3 && nts >= ts) {
			ts = nts;
			uft_fast_store(uf, t, ts, w & 1,
				       (uint32_t)(w >> 6) & 0x3ff, w >> 16,
				       (size_t)(p - buf) + UFT_REC_SIZE, depth,
				       seq);
			if (ts >= lim)
				uft_fast_settle(uf, t);
			return n;
		}
	}
advance:
	/* the last event's record is read; the next one the whole way */
	t->last_raw = ts;
	t->last_ts = ts;
	t->pos = (size_t)(p - buf);
	t->depth = depth;
	uf->seq = seq;
	if (!uft_task_advance(uf, t))
		uf->heap[0] = uf->heap[--uf->nheap];
	if (uf->nheap > 1)
		uft_sift_down(uf, 0);
	uft_top_update(uf);
	return (size_t)(e - ev);
}

/*
 * uft_fast_events(), and what the uft_curs it filled hold of the task
 * (uft_fast_slots()), written after: not per record, and only into the
 * slots used.
 */
size_t uft_fast_run(struct source *src, struct uftrace *uf,
		    struct uft_cur *cur, struct event *ev, size_t max)
{
	struct uft_task *t = uf->top;
	const char *comm = t->sess ? t->sess->comm : NULL;
	size_t n = uft_fast_events(src, uf, cur, ev, max);

	if (n) {
		uft_fast_slots(uf, t, comm, (size_t)(cur - uf->bcur), n);
		if (uf->lone)
			uft_dd_after(uf, t->depth);
	}
	return n;
}
