// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "clock.h"
#include "diag.h"
#include "merge.h"
#include "source.h"

struct merge *merge_create(struct source **srcs, size_t n,
			   const struct clock *clock)
{
	struct merge *m = calloc(1, sizeof(*m));
	size_t i, k = n ? n : 1;

	if (!m)
		return NULL;
	/* the packed tree's leaves: every leaf as deep as the others */
	m->bits = n > 1 ? 64 - (unsigned)__builtin_clzll((unsigned long long)n - 1) : 0;
	m->pn = (size_t)1 << m->bits;
	/* as many as the packed tree's leaves: merge_fill() copies pn */
	m->slots = calloc(m->pn > k ? m->pn : k, sizeof(*m->slots));
	m->tree = calloc(k, sizeof(*m->tree));
	m->win = calloc(2 * k, sizeof(*m->win));
	m->node = calloc(m->pn, sizeof(*m->node));
	m->pwin = calloc(2 * m->pn, sizeof(*m->pwin));
	m->key = calloc(k, sizeof(*m->key));
	if (!m->slots || !m->tree || !m->win || !m->node || !m->pwin ||
	    !m->key) {
		merge_destroy(m);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		m->slots[i].src = srcs[i];
		m->slots[i].next = srcs[i]->ops->next;
		m->slots[i].ev = &m->slots[i].evs[0];
		m->slots[i].ahead = &m->slots[i].evs[1];
		/* one input goes straight out (merge_single) */
		m->slots[i].look = n > 1 && srcs[i]->ops->two_events;
		if (m->slots[i].look) {
			m->slots[i].ahead_d = malloc(sizeof(struct diag));
			if (!m->slots[i].ahead_d) {
				m->n = n;
				merge_destroy(m);
				return NULL;
			}
		}
	}
	m->n = n;
	m->clock = clock;
	m->cur = MERGE_NONE;
	m->mode = MERGE_MODE_START;
	/* host inputs on the timeline's own clock need no mapping */
	for (i = 0; i < n; i++)
		m->map |= srcs[i]->domain != DOMAIN_HOST ||
			  srcs[i]->clock != clock->timeline;
	for (i = 0; i < n; i++)
		m->slots[i].fast = m->slots[i].look && !m->map;
	return m;
}

void merge_destroy(struct merge *m)
{
	if (!m)
		return;
	for (size_t i = 0; m->slots && i < m->n; i++)
		free(m->slots[i].ahead_d);
	free(m->slots);
	free(m->tree);
	free(m->win);
	free(m->node);
	free(m->pwin);
	free(m->key);
	free(m->bev);
	free(m);
}

bool merge_batched(struct merge *m)
{
	size_t i, nb = 0;

	if (m->n < 2 || m->nfill)
		return false;
	for (i = 0; i < m->n; i++)
		nb += m->slots[i].src->ops->next_batch != NULL;
	/*
	 * an input without next_batch (trace.dat) is read one event at a
	 * time among batched ones: up to MERGE_FILL_MAX inputs
	 * (merge_fill()'s copies of the loop with a depth, which never step
	 * it), one batched
	 */
	if (!nb || (nb < m->n && m->n > MERGE_FILL_MAX))
		return false;
	m->bev = calloc(m->n * (MERGE_BATCH + 1), sizeof(*m->bev));
	if (!m->bev)
		return false;
	for (i = 0; i < m->n; i++) {
		if (!m->slots[i].ahead_d)
			m->slots[i].ahead_d = malloc(sizeof(struct diag));
		if (!m->slots[i].ahead_d)
			return false;
	}
	for (i = 0; i < m->n; i++) {
		struct merge_slot *s = &m->slots[i];

		s->fast = false;
		if (!s->src->ops->next_batch)
			continue;	/* read ahead, as merge_next() reads it */
		s->look = false;
		s->batch = true;
		/* its relts are the merge's (source.merged) */
		s->src->merged = true;
		s->ev = &s->evs[0];
		s->bend = s->ev;
	}
	m->batched = true;
	return true;
}

/*
 * Does key a come before key b? One comparison of two words, high word
 * first; where the compiler has a 128-bit type it is a compare and a
 * subtract-with-borrow, no branch: the order of inputs is a coin toss
 * the predictor loses.
 */
static inline bool merge_key_less(struct merge_key a, struct merge_key b)
{
#ifdef __SIZEOF_INT128__
	__extension__ typedef unsigned __int128 u128;

	return ((u128)a.hi << 64 | a.lo) < ((u128)b.hi << 64 | b.lo);
#else
	return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
#endif
}

/*
 * Wide: play slot i's new event from its leaf to the root. The climbing
 * winner's key stays in registers, so that each level only loads its
 * loser's, which does not wait for the comparison below it. The low word
 * of a key holds its slot, so the key is all that climbs; the winner goes
 * up and the loser stays by masks rather than jumps (a jump here
 * mispredicts half the time: 8 inputs merged took 1.4 times as long).
 */
static void merge_replay(struct merge *m, uint32_t i)
{
	struct merge_key kw = m->key[i], kt;
	uint64_t swap, dlo;
	size_t p;

	for (p = (m->n + i) / 2; p > 0; p /= 2) {
		kt = m->key[m->tree[p]];
		/* all ones when the loser stored here beats the climber */
		swap = -(uint64_t)merge_key_less(kt, kw);
		dlo = (kt.lo ^ kw.lo) & swap;
		m->tree[p] = (uint32_t)(kt.lo ^ dlo);
		kw.lo ^= dlo;
		kw.hi ^= (kt.hi ^ kw.hi) & swap;
	}
	m->tree[0] = (uint32_t)kw.lo;
}

/* Wide: the tournament of every slot's key as it stands (n > 0). */
static void merge_build(struct merge *m)
{
	size_t n = m->n, p;
	uint32_t a, b;

	for (p = 0; p < n; p++) {
		m->key[p].hi = m->slots[p].done ? UINT64_MAX :
						  m->slots[p].ev->ts;
		m->key[p].lo = (uint64_t)m->slots[p].done << 32 | p;
		m->win[n + p] = (uint32_t)p;
	}
	for (p = n - 1; p > 0; p--) {
		a = m->win[2 * p];
		b = m->win[2 * p + 1];
		if (merge_key_less(m->key[a], m->key[b])) {
			m->win[p] = a;
			m->tree[p] = b;
		} else {
			m->win[p] = b;
			m->tree[p] = a;
		}
	}
	m->tree[0] = n > 1 ? m->win[1] : 0;
	m->packed = false;
}


/* Packed: slot i's key, or false when its time does not fit one. */
static inline bool merge_pkey(const struct merge *m, uint32_t i,
			      uint64_t *k)
{
	const struct merge_slot *s = &m->slots[i];
	uint64_t rel = s->ev->ts - m->base;

	if (s->done) {
		*k = UINT64_MAX;
		return true;
	}
	if (rel >= m->lim)
		return false;
	*k = rel << m->bits | i;
	return true;
}

/*
 * The first tournament, once every slot holds its first event (n > 0):
 * packed when there are two inputs or more and their times fit, around
 * the earliest first event; else wide. The packed tree's leaves past n,
 * up to pn, hold an ended slot's key: they never win.
 */
static void merge_build_first(struct merge *m)
{
	size_t n = m->n, pn = m->pn, p;
	uint64_t first = UINT64_MAX, a, b;

	m->built = true;
	if (n < 2) {
		merge_build(m);
		return;
	}
	m->mask = pn - 1;
	/* keys below UINT64_MAX, an ended slot's */
	m->lim = UINT64_MAX >> m->bits;
	for (p = 0; p < n; p++)
		if (!m->slots[p].done && m->slots[p].ev->ts < first)
			first = m->slots[p].ev->ts;
	m->base = first > m->lim / 2 ? first - m->lim / 2 : 0;
	/*
	 * the range [base, base + lim) within 64 bits: a time below base
	 * then wraps to lim or more, out of range (the tree goes wide), not
	 * into it (first events near UINT64_MAX had put the range across
	 * 2^64: a time below base ordered after UINT64_MAX)
	 */
	if (m->base > UINT64_MAX - m->lim)
		m->base = UINT64_MAX - m->lim;
	for (p = 0; p < n; p++) {
		if (!merge_pkey(m, (uint32_t)p, &m->pwin[pn + p])) {
			merge_build(m);
			return;
		}
	}
	for (p = n; p < pn; p++)
		m->pwin[pn + p] = UINT64_MAX;
	for (p = pn - 1; p > 0; p--) {
		a = m->pwin[2 * p];
		b = m->pwin[2 * p + 1];
		m->pwin[p] = a < b ? a : b;
		m->node[p] = a < b ? b : a;
	}
	m->node[0] = m->pwin[1];
	m->packed = true;
}

/* next() of slot s into ev, on the timeline: its result */
static inline int merge_read(const struct merge *m, struct merge_slot *s,
			     struct event *ev, struct diag *d)
{
	int ret = s->next(s->src, ev, d);

	if (ret > 0 && m->map && clock_map(m->clock, s->src, ev) < 0) {
		/* that input stops: its time is past what ns can say */
		clock_map_error(m->clock, s->src, ev, d);
		ret = -ERANGE;
	}
	return ret;
}

/*
 * Slot i holds what its next read gave (ret): mark it done, or note a
 * step back in time, to be said when the event goes out; then replay it
 * once the tree is built. A time that does not fit the packed tree makes
 * it wide, for good.
 */
static void merge_settle(struct merge *m, uint32_t i, int ret)
{
	struct merge_slot *s = &m->slots[i];
	uint64_t k;

	if (ret <= 0) {
		m->ndone += !s->done;
		s->done = true;
		/* not an event of the batch: the caller may hold a copy */
		if (s->batch)
			s->ev = &s->evs[0];
		s->ev->ts = UINT64_MAX;
	} else {
		if (s->ev->ts < s->last_ts && !s->stepped_back) {
			s->stepped_back = true;
			s->warn = true;
			s->warn_last = s->last_ts;
		}
		s->last_ts = s->ev->ts;
	}
	if (!m->built)
		return;
	if (!m->packed) {
		m->key[i].hi = s->ev->ts;
		m->key[i].lo = (uint64_t)s->done << 32 | i;
		merge_replay(m, i);
	} else if (merge_pkey(m, i, &k)) {
		merge_preplay(m, i, k);
	} else {
		merge_build(m);
	}
}

/*
 * Batched slot i's next batch into its array, its times mapped: how many
 * events, 0 at the end, or a negative errno. A time clock_map() refuses
 * ends the batch before it; the error comes at the next read, where
 * merge_read() would give it.
 */
static int merge_batch_read(struct merge *m, uint32_t i, struct diag *d)
{
	struct merge_slot *s = &m->slots[i];
	struct event *bev = m->bev + (size_t)i * (MERGE_BATCH + 1);
	int n, j, ret;

	if (s->ahead_ret < 0) {
		ret = s->ahead_ret;
		s->ahead_ret = 0;
		*d = *s->ahead_d;
		return ret;
	}
	n = s->src->ops->next_batch(s->src, bev, MERGE_BATCH, d);
	for (j = 0; m->map && j < n; j++) {
		if (clock_map(m->clock, s->src, &bev[j]) < 0) {
			/* that input stops: its time is past what ns can say */
			clock_map_error(m->clock, s->src, &bev[j], s->ahead_d);
			s->ahead_ret = -ERANGE;
			n = j;
			break;
		}
	}
	if (n == 0 && s->ahead_ret < 0)
		return merge_batch_read(m, i, d);
	if (n > 0) {
		s->ev = bev;
		s->bend = bev + n;
		/* a time no event of merge_fill()'s has: its loop stops */
		bev[n].ts = UINT64_MAX;
	}
	return n;
}

/*
 * Read the next event of slot i, and replay it once the tree is built.
 * Returns 1, 0 (that input ended), or a negative errno (it failed); an
 * input that ended or failed is done.
 */
static int merge_refill(struct merge *m, uint32_t i, struct diag *d)
{
	struct merge_slot *s = &m->slots[i];
	int ret;

	if (s->batch) {
		/* the time of its event that went out last, before a read */
		s->last_ts = s->ev->ts;
		if (s->ev + 1 < s->bend) {
			s->ev++;
			ret = 1;
		} else {
			ret = merge_batch_read(m, i, d);
		}
		merge_settle(m, i, ret);
		return ret;
	}
	if (s->have_ahead) {
		ret = s->ahead_ret;
		if (ret > 0) {
			struct event *e = s->ev;

			s->ev = s->ahead;
			s->ahead = e;
		} else if (ret < 0)
			*d = *s->ahead_d;
	} else {
		ret = merge_read(m, s, s->ev, d);
	}
	merge_settle(m, i, ret);
	/* the event after this one: s->ev stays whole meanwhile */
	s->have_ahead = s->look && ret > 0;
	if (s->have_ahead)
		s->ahead_ret = merge_read(m, s, s->ahead, s->ahead_d);
	return ret;
}

/*
 * The first call: prime every slot and build the tree. Returns 1 when
 * the tree is built, 0 or a negative errno to return as is.
 */
static int merge_start(struct merge *m, struct diag *d)
{
	int ret;
	uint32_t i;

	while (m->nfill < m->n) {
		i = (uint32_t)m->nfill++;
		ret = merge_refill(m, i, d);
		if (ret < 0)
			return ret;
	}
	if (!m->n)
		return MERGE_END;
	merge_build_first(m);
	return 1;
}

/* One input: no tree, no ordering to keep. */
static int merge_single(struct merge *m, struct event **out, struct diag *d)
{
	struct merge_slot *s = &m->slots[0];
	int ret;

	if (s->done)
		return MERGE_END;
	ret = merge_read(m, s, s->ev, d);
	if (ret <= 0) {
		s->done = true;
		return ret;
	}
	*out = s->ev;
	return MERGE_EVENT;
}

__attribute__((noinline, cold)) int merge_warn(struct merge_slot *s,
					       struct diag *d)
{
	s->warn = false;
	diag_set(d, "%s: event %" PRIu64 ": time stepped backward (%" PRIu64 " after %" PRIu64 "); its events stay in their own order",
		 s->src->name, s->ev->seq, s->ev->ts, s->warn_last);
	return MERGE_WARN;
}

/* The winner goes out; its slot is the one to refill next time. */
static int merge_pick(struct merge *m, struct event **out, struct diag *d)
{
	struct merge_slot *s;
	uint32_t i;

	if (m->packed) {
		if (m->node[0] == UINT64_MAX)
			return MERGE_END;
		i = (uint32_t)(m->node[0] & m->mask);
	} else {
		i = m->tree[0];
		if (m->slots[i].done)
			return MERGE_END;
	}
	s = &m->slots[i];
	m->held = true;
	*out = s->ev;
	if (m->n > 1) {
		m->cur = i;
		m->mode = !m->packed ? MERGE_MODE_SLOW :
			  m->batched ? MERGE_MODE_BATCH : MERGE_MODE_FAST;
	} else {
		/* one input takes its next event in merge_single() */
		m->mode = m->map ? MERGE_MODE_SLOW : MERGE_MODE_ONE;
	}
	if (__builtin_expect(s->warn, 0))
		return merge_warn(s, d);
	return MERGE_EVENT;
}

/* Every case: priming, an input that ended or failed, the wide tree. */
int merge_next_many(struct merge *m, struct event **out, struct diag *d)
{
	uint32_t i;
	int ret;

	if (m->n == 1 && m->nfill == 1)
		return merge_single(m, out, d);
	if (m->cur != MERGE_NONE) {
		/* the slot whose event went out last takes its next one */
		i = m->cur;
		/*
		 * a new batch would overwrite records the caller holds; so
		 * would a read of an input without one (its event and the one
		 * read ahead stay whole, not the one it handed out before)
		 */
		if (m->held && (m->slots[i].batch ?
				m->slots[i].ev + 1 >= m->slots[i].bend :
				m->batched))
			return MERGE_FLUSH;
		m->cur = MERGE_NONE;
		m->mode = MERGE_MODE_SLOW;
		ret = merge_refill(m, i, d);
		if (ret < 0)
			return ret;
	} else if (!m->built) {
		ret = merge_start(m, d);
		if (ret <= 0)
			return ret;
	}
	return merge_pick(m, out, d);
}



/*
 * merge_next_fast() for a slot it does not take itself: one not read
 * ahead, read now; one read ahead whose time is mapped.
 */
int merge_next_other(struct merge *m, struct event **out, struct diag *d)
{
	uint32_t i = m->cur;
	struct merge_slot *s = &m->slots[i];
	uint64_t ts;
	int ret;

	if (s->look) {
		ts = s->ahead->ts;
		if (s->ahead_ret <= 0 || ts < s->last_ts ||
		    ts - m->base >= m->lim)
			return merge_next_many(m, out, d);
		ret = merge_climb_ahead(m, i, ts, out, d);
		s->ahead_ret = merge_read(m, s, s->ahead, s->ahead_d);
		return ret;
	}
	ret = merge_read(m, s, s->ev, d);
	ts = s->ev->ts;
	if (ret <= 0 || ts < s->last_ts || ts - m->base >= m->lim) {
		m->cur = MERGE_NONE;
		m->mode = MERGE_MODE_SLOW;
		merge_settle(m, i, ret);
		if (ret < 0)
			return ret;
		return merge_pick(m, out, d);
	}
	return merge_climb(m, i, ts, out, d);
}


_Static_assert(sizeof(struct merge_slot) == 256,
	       "a slot's address is a shift of its index");
