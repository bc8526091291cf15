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
	size_t i;

	if (!m)
		return NULL;
	m->slots = calloc(n ? n : 1, sizeof(*m->slots));
	m->tree = calloc(n ? n : 1, sizeof(*m->tree));
	m->win = calloc(2 * (n ? n : 1), sizeof(*m->win));
	m->key = calloc(n ? n : 1, sizeof(*m->key));
	if (!m->slots || !m->tree || !m->win || !m->key) {
		merge_destroy(m);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		m->slots[i].src = srcs[i];
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
	m->pending = -1;
	/* host inputs on the timeline's own clock need no mapping */
	for (i = 0; i < n; i++)
		m->map |= srcs[i]->domain != DOMAIN_HOST ||
			  srcs[i]->clock != clock->timeline;
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
	free(m->key);
	free(m);
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
 * Play slot i's new event from its leaf to the root. The climbing winner's
 * key stays in registers, so that each level only loads its loser's,
 * which does not wait for the comparison below it. The low word of a key
 * holds its slot, so the key is all that climbs; the winner goes up and
 * the loser stays by masks rather than jumps (a jump here mispredicts
 * half the time: 8 inputs merged took 1.4 times as long).
 */
static inline void merge_replay(struct merge *m, uint32_t i)
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

/* The first tournament, once every slot holds its first event (n > 0). */
static void merge_build(struct merge *m)
{
	size_t n = m->n, p;
	uint32_t a, b;

	for (p = 0; p < n; p++)
		m->win[n + p] = (uint32_t)p;
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
	m->built = true;
}

/* next() of slot s into ev, on the timeline: its result */
static inline int merge_read(const struct merge *m, struct merge_slot *s,
			     struct event *ev, struct diag *d)
{
	int ret = s->src->ops->next(s->src, ev, d);

	if (ret > 0 && m->map && clock_map(m->clock, s->src, ev) < 0) {
		/* that input stops: its time is past what ns can say */
		clock_map_error(m->clock, s->src, ev, d);
		ret = -ERANGE;
	}
	return ret;
}

/*
 * Read the next event of slot i, and replay it once the tree is built.
 * Returns 1, 0 (that input ended), or a negative errno (it failed); an
 * input that ended or failed is done.
 */
static inline __attribute__((always_inline)) int
merge_fill(struct merge *m, uint32_t i, struct diag *d)
{
	struct merge_slot *s = &m->slots[i];
	int ret;

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
	if (ret <= 0) {
		s->done = true;
		s->ev->ts = UINT64_MAX;
	}
	m->key[i].hi = s->ev->ts;
	m->key[i].lo = (uint64_t)s->done << 32 | i;
	if (m->built)
		merge_replay(m, i);
	/* the event after this one: s->ev stays whole meanwhile */
	s->have_ahead = s->look && ret > 0;
	if (s->have_ahead)
		s->ahead_ret = merge_read(m, s, s->ahead, s->ahead_d);
	return ret;
}

/*
 * The first call: prime every slot and build the tree. One input needs
 * neither; its events go straight out (see merge_next). Returns 1 when
 * the tree is built, 0 or a negative errno to return as is.
 */
static int merge_start(struct merge *m, struct diag *d)
{
	int ret;
	uint32_t i;

	while (m->nfill < m->n) {
		i = (uint32_t)m->nfill++;
		ret = merge_fill(m, i, d);
		if (ret < 0)
			return ret;
	}
	if (!m->n)
		return MERGE_END;
	merge_build(m);
	return 1;
}

/* One input: no tree, no ordering to keep. */
static __attribute__((noinline)) int merge_single(struct merge *m,
						  struct event **out,
						  struct diag *d)
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

static __attribute__((noinline)) int merge_next_tree(struct merge *m,
						     struct event **out,
						     struct diag *d)
{
	struct merge_slot *s;
	int ret;
	uint32_t i;

	if (__builtin_expect(m->pending >= 0, 1)) {
		/* the slot whose event went out last takes its next one */
		i = (uint32_t)m->pending;
		m->pending = -1;
		ret = merge_fill(m, i, d);
		if (ret < 0)
			return ret;
	} else if (!m->built) {
		ret = merge_start(m, d);
		if (ret <= 0)
			return ret;
	}
	i = m->tree[0];
	s = &m->slots[i];
	if (s->done)
		return MERGE_END;
	/* one input takes its next event in merge_single() */
	m->pending = m->n > 1 ? (long)i : -1;
	*out = s->ev;
	ret = MERGE_EVENT;
	if (__builtin_expect(s->ev->ts < s->last_ts, 0) && !s->stepped_back) {
		s->stepped_back = true;
		diag_set(d, "%s: event %" PRIu64 ": time stepped backward (%" PRIu64 " after %" PRIu64 "); its events stay in their own order",
			 s->src->name, s->ev->seq, s->ev->ts, s->last_ts);
		ret = MERGE_WARN;
	}
	s->last_ts = s->ev->ts;
	return ret;
}

/*
 * One input, once primed (merge_next() takes the events of one that needs
 * no mapping itself), goes straight out; a call of its own, so that its
 * few instructions save no registers for the tree's many.
 */
int merge_next_many(struct merge *m, struct event **out, struct diag *d)
{
	if (m->n == 1 && m->nfill == 1)
		return merge_single(m, out, d);
	return merge_next_tree(m, out, d);
}
