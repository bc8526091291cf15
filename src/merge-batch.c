// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The batched merge's common case as a loop (merge.h, merge_fill()): the
 * tree's words in registers across the events of a batch, not loaded
 * again for each through the merge; and what the stream as printed says
 * of each event (its relts, its input's span) set there, while its time
 * is at hand, not in a pass of its own over the batch.
 *
 * Each event the loop takes is at or after the one before it (its slot's
 * previous event went out last, so was at or below every other key), so
 * the stream it writes never steps back. When the stream so far never
 * went above the event that went out last (tally.top: no step back since
 * that the merge let through), its relts are never negative and each
 * input's span ends at its latest event: "mono", fewer loads and
 * compares. Else the loop of the general case, run_set_relts() and
 * clock_span_add() as they are, until the stream has caught up.
 */
#include <stddef.h>
#include <string.h>

#include "clock.h"
#include "merge.h"

/*
 * merge_fill() with the tree's depth a constant in each copy (the climb
 * unrolled; 0: the merge's own, a loop), mono (above) or not
 */
static inline __attribute__((always_inline)) size_t
merge_fill_loop(struct merge *m, struct event *out, size_t max,
		struct merge_tally *tally, const unsigned depth,
		const bool mono)
{
	struct merge_slot *slots = m->slots, *s;
	struct clock_span *span = tally->spans, *sp;
	uint64_t *node = m->node;
	const uint64_t base = m->base, lim = m->lim;
	const unsigned bits = depth ? depth : m->bits;
	const size_t pn = (size_t)1 << bits;
	uint32_t cur = m->cur;
	/* the event that went out last, and its time */
	struct event *e = slots[cur].ev, *o = out, *end = out + max;
	uint64_t ts = e->ts, k = node[0], t, lo;
	uint64_t last = tally->last_ts, top = tally->top;
	unsigned l;
	size_t p;

	for (; o < end; o++) {
		/* the slot whose event went out last steps to its next one */
		s = &slots[cur];
		if (__builtin_expect(e + 1 >= s->bend, 0))
			break;
		/* in order within its input, and in the packed tree's range */
		if (__builtin_expect(e[1].ts < ts || e[1].ts - base >= lim, 0))
			break;
		s->ev = ++e;
		ts = e->ts;
		/* it climbs (merge_preplay()), as many levels as any leaf */
		k = (ts - base) << bits | cur;
		for (p = pn + cur, l = 0; l < bits; l++) {
			p /= 2;
			t = node[p];
			lo = t < k ? t : k;
			node[p] = t < k ? k : t;
			k = lo;
		}
		/* a live key went in: the winner is one */
		cur = (uint32_t)(k & (pn - 1));
		e = slots[cur].ev;
		ts = e->ts;
		memcpy(o, e, offsetof(struct event, relts));
		/* run_set_relts() and clock_span_add(), its time at hand */
		if (__builtin_expect(!e->has_ts, 0)) {
			o->relts_neg = false;
			o->relts = 0;
			continue;
		}
		sp = &span[cur];
		sp->events++;
		sp->first = ts < sp->first ? ts : sp->first;
		if (mono) {
			o->relts_neg = false;
			o->relts = last ? ts - last : 0;
			sp->last = ts;
		} else {
			o->relts = event_relts(ts, last, &o->relts_neg);
			sp->last = ts > sp->last ? ts : sp->last;
			top = ts > top ? ts : top;
		}
		last = ts;
	}
	node[0] = k;
	m->cur = cur;
	m->held |= o > out;
	tally->last_ts = last;
	tally->top = last > top ? last : top;
	return (size_t)(o - out);
}

size_t merge_fill(struct merge *m, struct event *out, size_t max,
		  struct merge_tally *tally)
{
	if (m->mode != MERGE_MODE_BATCH)
		return 0;
	/* the last event out is below the stream's top: a step back */
	if (tally->top > m->slots[m->cur].ev->ts)
		return merge_fill_loop(m, out, max, tally, 0, false);
	switch (m->bits) {
	case 1:
		return merge_fill_loop(m, out, max, tally, 1, true);
	case 2:
		return merge_fill_loop(m, out, max, tally, 2, true);
	case 3:
		return merge_fill_loop(m, out, max, tally, 3, true);
	case 4:
		return merge_fill_loop(m, out, max, tally, 4, true);
	default:
		return merge_fill_loop(m, out, max, tally, 0, true);
	}
}
