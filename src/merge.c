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
	m->done = calloc(n ? n : 1, sizeof(*m->done));
	if (!m->slots || !m->tree || !m->win || !m->key || !m->done) {
		merge_destroy(m);
		return NULL;
	}
	for (i = 0; i < n; i++)
		m->slots[i].src = srcs[i];
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
	free(m->slots);
	free(m->tree);
	free(m->win);
	free(m->key);
	free(m->done);
	free(m);
}

/*
 * Does an event of key ka (its slot ended: da) in slot a come before one
 * of key kb in slot b (a != b)? Time, then input order; within one input
 * the sequence is the order of next(). An ended slot (ts UINT64_MAX)
 * loses to every event, even one stamped UINT64_MAX. Computed without
 * branches: the order of inputs is a coin toss the predictor loses.
 */
static inline unsigned merge_less_k(uint64_t ka, unsigned da, uint32_t a,
				    uint64_t kb, unsigned db, uint32_t b)
{
	unsigned differ = da ^ db;
	/* on a tie an ended slot loses, else the lower index wins */
	unsigned tie = (differ & db) | (~differ & (a < b));

	return (ka < kb) | ((ka == kb) & tie);
}

static inline bool merge_less(const struct merge *m, uint32_t a, uint32_t b)
{
	return merge_less_k(m->key[a], m->done[a], a, m->key[b], m->done[b], b);
}

/*
 * Play slot i's new event from its leaf to the root. The climbing winner's
 * key stays in registers, so that each level only loads its loser's,
 * which does not wait for the comparison below it.
 *
 * Until an event stamped UINT64_MAX comes, an ended slot's key (UINT64_MAX)
 * is above every event's, and time then input order is the whole order:
 * with full false the done flags are not loaded (they count as 0), and
 * the comparison folds to that.
 */
static inline __attribute__((always_inline)) void
merge_replay_with(struct merge *m, uint32_t i, bool full)
{
	uint32_t w = i, t;
	uint64_t kw = m->key[i], kt;
	unsigned dw = full ? m->done[i] : 0, dt;
	size_t p;

	for (p = (m->n + i) / 2; p > 0; p /= 2) {
		uint32_t lose;
		uint64_t lose64;

		t = m->tree[p];
		kt = m->key[t];
		dt = full ? m->done[t] : 0;
		/* all ones when t beats w: the winner goes up, the loser
		 * stays, by masks rather than jumps */
		lose = -(uint32_t)merge_less_k(kt, dt, t, kw, dw, w);
		lose64 = (uint64_t)(int64_t)(int32_t)lose;
		m->tree[p] = (w & lose) | (t & ~lose);
		w = (t & lose) | (w & ~lose);
		kw = (kt & lose64) | (kw & ~lose64);
		dw = (dt & lose) | (dw & ~lose);
	}
	m->tree[0] = w;
}

static void merge_replay(struct merge *m, uint32_t i)
{
	if (__builtin_expect(m->max_ts, 0))
		merge_replay_with(m, i, true);
	else
		merge_replay_with(m, i, false);
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
		if (merge_less(m, a, b)) {
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

/*
 * Read the next event of slot i, and replay it once the tree is built.
 * Returns 1, 0 (that input ended), or a negative errno (it failed); an
 * input that ended or failed is done.
 */
static int merge_fill(struct merge *m, uint32_t i, struct diag *d)
{
	struct merge_slot *s = &m->slots[i];
	int ret;

	ret = s->src->ops->next(s->src, &s->ev, d);
	if (ret > 0) {
		if (m->map)
			clock_map(m->clock, s->src, &s->ev);
		m->max_ts |= s->ev.ts == UINT64_MAX;
	} else {
		s->done = true;
		s->ev.ts = UINT64_MAX;
	}
	m->key[i] = s->ev.ts;
	m->done[i] = s->done;
	if (m->built)
		merge_replay(m, i);
	return ret;
}

int merge_next(struct merge *m, struct event **out, struct diag *d)
{
	struct merge_slot *s;
	struct event *ev;
	int ret, result = MERGE_EVENT;
	uint32_t i;

	/* one input: no tree, no ordering to keep */
	if (m->n == 1 && m->nfill == 1) {
		s = &m->slots[0];
		if (s->done)
			return MERGE_END;
		ret = s->src->ops->next(s->src, &s->ev, d);
		if (ret <= 0) {
			s->done = true;
			return ret;
		}
		if (m->map)
			clock_map(m->clock, s->src, &s->ev);
		*out = &s->ev;
		return MERGE_EVENT;
	}
	while (m->nfill < m->n) {
		i = (uint32_t)m->nfill++;
		ret = merge_fill(m, i, d);
		if (ret < 0)
			return ret;
	}
	if (!m->n)
		return MERGE_END;
	if (!m->built)
		merge_build(m);
	if (m->pending >= 0) {
		i = (uint32_t)m->pending;
		m->pending = -1;
		ret = merge_fill(m, i, d);
		if (ret < 0)
			return ret;
	}
	i = m->tree[0];
	s = &m->slots[i];
	if (s->done)
		return MERGE_END;
	ev = &s->ev;
	m->pending = i;
	if (ev->ts < s->last_ts && m->n > 1 && !s->stepped_back) {
		s->stepped_back = true;
		diag_set(d, "%s: event %" PRIu64 ": time stepped backward (%" PRIu64 " after %" PRIu64 "); its events stay in their own order",
			 s->src->name, ev->seq, ev->ts, s->last_ts);
		result = MERGE_WARN;
	}
	s->last_ts = ev->ts;
	*out = ev;
	return result;
}
