// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The batched merge's common case as a loop (merge.h, merge_fill()): the
 * tree's words in registers across the events of a batch, not loaded
 * again for each through the merge.
 */
#include <stddef.h>
#include <string.h>

#include "merge.h"

size_t merge_fill(struct merge *m, struct event *out, size_t max)
{
	struct merge_slot *slots = m->slots, *s;
	uint64_t *node = m->node;
	const uint64_t base = m->base, lim = m->lim, mask = m->mask;
	const unsigned bits = m->bits;
	const size_t n = m->n;
	uint32_t cur = m->cur;
	struct event *e, *o = out, *end = out + max;
	uint64_t ts, k, t, lo;
	size_t p;

	if (m->mode != MERGE_MODE_BATCH)
		return 0;
	for (; o < end; o++) {
		/* the slot whose event went out last steps to its next one */
		s = &slots[cur];
		e = s->ev + 1;
		if (__builtin_expect(e >= s->bend, 0))
			break;
		ts = e->ts;
		if (__builtin_expect(ts < s->last_ts || ts - base >= lim, 0))
			break;
		s->ev = e;
		s->last_ts = ts;
		/* it climbs (merge_preplay()) */
		k = (ts - base) << bits | cur;
		for (p = (n + cur) / 2; p > 0; p /= 2) {
			t = node[p];
			lo = t < k ? t : k;
			node[p] = t < k ? k : t;
			k = lo;
		}
		node[0] = k;
		/* a live key went in: the winner is one */
		cur = (uint32_t)(k & mask);
		s = &slots[cur];
		if (__builtin_expect(s->warn, 0)) {
			/*
			 * merge_pick() hands it out, with its message (not
			 * met today: an event that steps back is below every
			 * other input's, and goes out at once, from there)
			 */
			m->cur = MERGE_NONE;
			m->mode = MERGE_MODE_SLOW;
			m->held |= o > out;
			return (size_t)(o - out);
		}
		/* relts_neg and relts are the caller's (run_set_relts()) */
		memcpy(o, s->ev, offsetof(struct event, relts));
	}
	m->cur = cur;
	m->held |= o > out;
	return (size_t)(o - out);
}
