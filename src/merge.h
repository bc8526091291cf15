/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The k-way merge: one event in flight per input, a tournament (loser)
 * tree on (host ts, input order, sequence): each event taken costs one
 * comparison per level on the way from its input's leaf to the root,
 * against the loser stored there. Memory is O(inputs). An input whose
 * time goes backwards is reported once and otherwise left in its own
 * order: nothing is silently reordered.
 *
 * Two forms of the same tree. Packed: a node holds the key itself, one
 * word, (ts - base) << bits | input, and an ended input is UINT64_MAX;
 * each level is a load, a compare and two conditional moves. Wide: the
 * key as two words (ts, ended << 32 | input), nodes hold inputs; taken
 * for good when a time does not fit the packed word (more than 2^(63 -
 * bits) from the first events' time, an event stamped near UINT64_MAX).
 * Both give one order: a key is unique (the input is in it), so the
 * winner does not depend on the tree's form or history.
 */
#ifndef KTF_MERGE_H
#define KTF_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "source.h"

struct clock;
struct clock_span;
struct diag;
struct source;

/*
 * The order of two slots' events as one pair of words, compared high word
 * first: ts, then (done << 32 | slot index). An ended slot (ts UINT64_MAX,
 * done) loses to every event, even one stamped UINT64_MAX; at equal times
 * the lower input wins; within one input the order is that of next().
 */
struct merge_key {
	uint64_t lo;		/* done << 32 | slot index */
	uint64_t hi;		/* host ts */
};

struct merge_slot {
	/* the fields the event path reads first, together */
	struct source *src;	/* borrowed */
	/* src->ops->next, one load away */
	int (*next)(struct source *src, struct event *ev, struct diag *d);
	struct event *ev;	/* one of evs: its event */
	/*
	 * An input whose events stay whole while the next one is read
	 * (source_ops.two_events) is read one event ahead: the tree then
	 * replays a key already at hand, and the read that follows it is
	 * off the path to the next event. The two take turns in evs (the
	 * pointers swap; the events are not copied).
	 */
	union {
		struct event *ahead;	/* the other of evs */
		/*
		 * batch: the end of its events. A slot whose source has
		 * next_batch (merge_batched()) reads a batch into an array
		 * of its own (merge.bev) and takes its events in turn: ev
		 * steps to the next one, no call.
		 */
		struct event *bend;
	};
	int ahead_ret;		/* what next() returned for it; batch: an
				 * error left after the batch's events
				 * (a time clock_map() refused), or 0 */
	bool look;
	bool fast;		/* look, on the timeline's clock: what
				 * merge_next_fast() takes itself */
	bool have_ahead;	/* ahead_ret and ahead hold the next read */
	bool batch;		/* read by next_batch (merge_batched()) */
	bool done;		/* ended or failed: loses to every event */
	bool warn;		/* ev stepped back: say so when it goes out */
	uint64_t last_ts;	/* host time of its previous event; batch:
				 * set as it reads the next batch, the
				 * previous one's time being ev->ts till
				 * then (merge_fill() does not store it) */
	uint64_t warn_last;	/* with warn: last_ts before ev */
	bool stepped_back;	/* reported already */
	struct diag *ahead_d;	/* owned, with look or batch: its message */
	struct event evs[2];
} __attribute__((aligned(64)));	/* whole lines; 256 bytes today */

enum merge_mode {
	MERGE_MODE_START = 0,	/* not primed yet (or priming stopped at
				 * an input that failed) */
	MERGE_MODE_FAST,	/* packed tree, cur to refill first */
	MERGE_MODE_ONE,		/* one input, no mapping: inline */
	MERGE_MODE_SLOW,	/* anything else: an input that ended or
				 * failed, the wide tree, the end */
	MERGE_MODE_BATCH,	/* packed tree, batched slots, cur to step
				 * first (merge_next_batch()) */
};

#define MERGE_NONE UINT32_MAX

struct merge {
	enum merge_mode mode;
	uint32_t cur;			/* slot whose event went out last, to
					 * refill first; MERGE_NONE */
	/* packed: [0] the winner's key, [p] the loser's at node p */
	uint64_t *node;			/* owned */
	struct merge_slot *slots;	/* owned */
	uint64_t base;			/* packed: time of key 0 */
	uint64_t lim;			/* packed: keys hold ts - base < lim;
					 * base + lim is UINT64_MAX at most */
	uint64_t mask;			/* packed: the input bits of a key */
	unsigned bits;			/* packed: how many */
	size_t pn;			/* packed: leaves, 1 << bits: the
					 * tree's node[pn + i] is slot i's,
					 * those from n on never win */
	bool packed;			/* else wide */
	bool built;			/* the tree holds every slot */
	bool map;			/* some input needs clock_map() */
	size_t n;
	size_t nfill;			/* slots primed so far */
	size_t ndone;			/* slots ended or failed (merge_settle()) */
	/*
	 * wide: slot indices; [0] the winner, [1 .. n-1] the loser of the
	 * match at that node. The leaf of slot i is node n + i, the parent
	 * of node p is p / 2 (the packed tree's shape too).
	 */
	uint32_t *tree;			/* owned */
	uint32_t *win;			/* owned: 2n, scratch of the build */
	uint64_t *pwin;			/* owned: 2n, scratch (packed) */
	struct merge_key *key;		/* owned, wide: per slot the key of
					 * its event, side by side for the
					 * comparisons */
	const struct clock *clock;	/* borrowed */
	/*
	 * merge_batched(): each slot's events, MERGE_BATCH a slot and one
	 * after them, stamped UINT64_MAX (merge_fill() stops there); held:
	 * events went out since the caller's last merge_flushed(), and
	 * a slot at the end of its batch may read over none of them
	 * (the slot to read is the one whose event went out last: its
	 * own would be among them but for a flush just then)
	 */
	struct event *bev;		/* owned */
	bool held;
	bool batched;
};

/* Events a batched slot reads at a time (merge_batched()) */
#define MERGE_BATCH 128

/*
 * The deepest packed tree merge_fill() has a copy of its loop for, the
 * depth a constant, the climb unrolled: 64 inputs. Deeper ones take its
 * loop of any depth (each copy moves its trees' slots' words in and out
 * at every call: at 128 inputs 5 % slower than that loop).
 */
#define MERGE_FILL_DEPTH 6
#define MERGE_FILL_MAX (1u << MERGE_FILL_DEPTH)

enum merge_result {
	MERGE_END = 0,
	MERGE_EVENT = 1,
	MERGE_WARN = 2,		/* an event, and a warning in diag */
	/*
	 * batched: no event; the slot to read next would overwrite the
	 * records of events handed out since the last merge_flushed():
	 * consume them, call merge_flushed(), then merge_next_batch() again
	 */
	MERGE_FLUSH = 3,
};

struct merge *merge_create(struct source **srcs, size_t n,
			   const struct clock *clock);
void merge_destroy(struct merge *m);

/*
 * Read every input in batches (source_ops.next_batch), for a caller that
 * holds the events it is given (copies of them: their rec and type
 * borrowed) until it passes them on in a batch of its own, and calls
 * merge_next_batch(), not merge_next(). Only when there are two inputs or
 * more and one has next_batch; one without (trace.dat) is read an event
 * at a time among them, the caller's batch passed on before each read
 * (MERGE_FLUSH), up to MERGE_FILL_MAX inputs. Call before the first event. Returns
 * whether the merge is batched now. The order of events, the messages and
 * where they come are those of merge_next().
 */
bool merge_batched(struct merge *m);

/*
 * Batched: was the event handed out last of an input read an event at a
 * time (no next_batch)? Its next read will want the events handed out
 * so far consumed (MERGE_FLUSH).
 */
static inline bool merge_slow_out(const struct merge *m)
{
	return m->cur != MERGE_NONE && !m->slots[m->cur].batch;
}

/*
 * Batched, the events handed out so far consumed: is the one input left
 * one read an event at a time (a host trace.dat that outlasts the guests
 * merged with it)? Its events then go one by one, as it hands them out
 * (merge_next_batch()), no batch of the caller's around them.
 */
static inline bool merge_tail_slow(const struct merge *m)
{
	return !m->held && m->cur != MERGE_NONE && m->ndone + 1 == m->n &&
	       !m->slots[m->cur].batch && !m->slots[m->cur].done;
}

/*
 * Batched: the events handed out so far have been consumed (rendered):
 * the slots may read over their records.
 */
static inline void merge_flushed(struct merge *m)
{
	m->held = false;
}

/*
 * The ways of merge_next() out of line: every case (priming, an input
 * that ended or failed, the wide tree); the slots merge_next_fast() does
 * not take (not read ahead, or mapped); a step back said.
 */
int merge_next_many(struct merge *m, struct event **ev, struct diag *d);
int merge_next_other(struct merge *m, struct event **ev, struct diag *d);
int merge_warn(struct merge_slot *s, struct diag *d);

/*
 * Packed: play key k of slot i from its leaf to the root. Keys are
 * unique but for ended slots' (UINT64_MAX, alike in every way), so the
 * smaller climbs and the larger stays: conditional moves, no jump.
 */
static inline __attribute__((always_inline)) void
merge_preplay(struct merge *m, uint32_t i, uint64_t k)
{
	uint64_t *node = m->node, t, lo;
	size_t p;

	for (p = (m->pn + i) / 2; p > 0; p /= 2) {
		t = node[p];
		lo = t < k ? t : k;
		node[p] = t ^ k ^ lo;
		k = lo;
	}
	node[0] = k;
}

/*
 * The packed tree's common case, for slot i, which went out last, and
 * its next event, in s->ev: in order and in range, it climbs the tree
 * and the winner goes out. Returns MERGE_EVENT or MERGE_WARN.
 */
static inline __attribute__((always_inline)) int
merge_climb(struct merge *m, uint32_t i, uint64_t ts, struct event **out,
	    struct diag *d)
{
	struct merge_slot *s;

	m->slots[i].last_ts = ts;
	merge_preplay(m, i, (ts - m->base) << m->bits | i);
	/* a live key went in: the winner is one */
	i = (uint32_t)(m->node[0] & m->mask);
	s = &m->slots[i];
	m->cur = i;
	m->held = true;
	*out = s->ev;
	if (__builtin_expect(s->warn, 0))
		return merge_warn(s, d);
	return MERGE_EVENT;
}

/* merge_climb() of slot i's event read ahead, in order and in range */
static inline __attribute__((always_inline)) int
merge_climb_ahead(struct merge *m, uint32_t i, uint64_t ts,
		  struct event **out, struct diag *d)
{
	struct merge_slot *s = &m->slots[i];
	struct event *e = s->ahead;

	s->ahead = s->ev;
	s->ev = e;
	return merge_climb(m, i, ts, out, d);
}

/*
 * The packed tree's common case: the slot whose event went out last has
 * its next one, read ahead, in order and in range; it climbs the tree
 * and the winner goes out. Anything else takes the way of
 * merge_next_other() or merge_next_many(), before anything is changed.
 */
static inline int merge_next_fast(struct merge *m, struct event **out,
				  struct diag *d)
{
	struct merge_slot *s = &m->slots[m->cur];
	uint64_t ts = s->ahead->ts;
	int ret;

	if (!s->fast)
		return merge_next_other(m, out, d);
	if (__builtin_expect(s->ahead_ret <= 0 || ts < s->last_ts ||
			     ts - m->base >= m->lim, 0))
		return merge_next_many(m, out, d);
	ret = merge_climb_ahead(m, m->cur, ts, out, d);
	/*
	 * The read ahead last, when all else is done, off the path to the
	 * winner. The event that goes out is not s->ahead, which was s->ev
	 * before: its event went out the last time.
	 */
	s->ahead_ret = s->next(s->src, s->ahead, s->ahead_d);
	return ret;
}

/*
 * The next event in time order. Returns MERGE_EVENT or MERGE_WARN with
 * *ev, MERGE_END, or a negative errno with diag filled when an input
 * failed: that input is dropped, the others go on; call again.
 *
 * One input whose time needs no mapping, once primed, goes straight out,
 * inline in the caller's loop: no tree, no ordering to keep, no call but
 * the reader's. Several, in the packed tree's common case, are merged
 * inline too (merge_next_fast()).
 */
static inline int merge_next(struct merge *m, struct event **ev,
			     struct diag *d)
{
	struct merge_slot *s = m->slots;
	int ret;

	if (m->mode == MERGE_MODE_FAST)
		return merge_next_fast(m, ev, d);
	if (m->mode != MERGE_MODE_ONE)
		return merge_next_many(m, ev, d);
	if (s->done)
		return MERGE_END;
	ret = s->next(s->src, s->ev, d);
	if (ret <= 0) {
		s->done = true;
		return ret;
	}
	*ev = s->ev;
	return MERGE_EVENT;
}

/*
 * What the stream as printed says of each event, kept by the caller of a
 * batched merge across its events: relts after last_ts (run_set_relts()),
 * and the span of each input's times (clock_span_add(); spans[i] is that
 * of slot i, srcs[i] of merge_create(); a span without events holds
 * first UINT64_MAX, last 0). The events merge_next_batch() hands out
 * go through the same: relts, span, and top the greater of it and ts.
 */
struct merge_tally {
	uint64_t last_ts;		/* the stream's last time stamp */
	uint64_t top;			/* its latest: above the event that
					 * went out last after a step back */
	struct clock_span *spans;	/* borrowed, n of them */
};

/*
 * Batched: the packed tree's common case for up to max events, copied to
 * out[0 ..] in order (their rec and type borrowed, as merge_next_batch()
 * hands them out), with their relts set and counted in the spans
 * (tally): how many. It stops, before changing anything, at the first
 * event it does not take (a slot at the end of its batch, a step back in
 * time, a time out of range, anything but the packed tree):
 * merge_next_batch() takes that one, whose relts and span are the
 * caller's, with the same tally. It never meets an event with a message
 * (warn): a slot's step back is found as it reads (merge_settle()), and
 * that event, below every other input's (the one before it went out
 * last), goes out at once, with its message (merge_pick()), before the
 * mode is batched again. (merge-batch.c)
 */
size_t merge_fill(struct merge *m, struct event *out, size_t max,
		  struct merge_tally *tally);

/*
 * merge_next() of a batched merge (merge_batched()): also MERGE_FLUSH.
 * The common case inline: the slot whose event went out last steps to
 * its next event, in order and in range, which climbs the packed tree.
 */
static inline int merge_next_batch(struct merge *m, struct event **out,
				   struct diag *d)
{
	struct merge_slot *s;
	struct event *e;
	uint64_t ts;

	if (__builtin_expect(m->mode != MERGE_MODE_BATCH, 0))
		return merge_next_many(m, out, d);
	s = &m->slots[m->cur];
	e = s->ev + 1;
	/*
	 * a slot read one event at a time (a trace.dat among batched
	 * inputs): its next read goes over the event it handed out, which
	 * is consumed first; then read, it climbs as in merge_next_fast()
	 */
	if (__builtin_expect(!s->batch, 0))
		return m->held ? MERGE_FLUSH : merge_next_other(m, out, d);
	if (__builtin_expect(e >= s->bend, 0))
		return merge_next_many(m, out, d);
	ts = e->ts;
	if (__builtin_expect(ts < s->ev->ts || ts - m->base >= m->lim, 0))
		return merge_next_many(m, out, d);
	s->ev = e;
	return merge_climb(m, m->cur, ts, out, d);
}

#endif
