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
 * compares; and once the stream has a stamp other than 0, relts is ts
 * minus the last. Else the loop of the general case, run_set_relts()
 * and clock_span_add() as they are, until the stream has caught up.
 */
#include <stddef.h>
#include <string.h>

#include "clock.h"
#include "merge.h"

/* One level of the climb (merge_preplay()): the smaller key goes on */
static inline __attribute__((always_inline)) uint64_t
merge_fill_level(uint64_t *node, size_t p, uint64_t k)
{
	uint64_t t = node[p], lo = t < k ? t : k;

	node[p] = t < k ? k : t;
	return lo;
}

/*
 * Slot i's key k from its leaf (node pn + i) to the root, as many levels
 * as bits (every leaf's: the tree is padded); bits == depth, a constant
 * (up to MERGE_FILL_DEPTH, merge.h) in each copy of the loop, the levels
 * unrolled, each node's index (pn >> l) + (i >> l), one shift from i, so
 * that the node's load is no further from the last winner than the key (a
 * table of the nodes' addresses put a load before it, on the chain from
 * one winner to the next: 2.4 % of an 8-input merge's time); depth 0: a
 * loop.
 * Returns the winner's key.
 */
static inline __attribute__((always_inline)) uint64_t
merge_fill_climb(uint64_t *node, size_t pn, size_t i, uint64_t k,
		 const unsigned depth, unsigned bits)
{
	unsigned l;

	if (!depth) {
		for (l = 1; l <= bits; l++)
			k = merge_fill_level(node, (pn + i) >> l, k);
		return k;
	}
	/* as the loop, unrolled ((pn + i) >> l: pn is a multiple of 2^l) */
	k = merge_fill_level(node, (pn >> 1) + (i >> 1), k);
	if (depth >= 2)
		k = merge_fill_level(node, (pn >> 2) + (i >> 2), k);
	if (depth >= 3)
		k = merge_fill_level(node, (pn >> 3) + (i >> 3), k);
	if (depth >= 4)
		k = merge_fill_level(node, (pn >> 4) + (i >> 4), k);
	if (depth >= 5)
		k = merge_fill_level(node, (pn >> 5) + (i >> 5), k);
	if (depth >= 6)
		k = merge_fill_level(node, (pn >> 6) + (i >> 6), k);
	return k;
}

/*
 * The slots' ev to evp[0 .. pn - 1] (in), or back: pn (2 to
 * MERGE_FILL_MAX, slots allocated for as many) a constant where it is
 * called, the copies written out, no loop, up to 16; a loop past them
 */
static inline __attribute__((always_inline)) void
merge_fill_evp(struct event **evp, struct merge_slot *slots, const size_t pn,
	       const bool in)
{
#define MERGE_FILL_EVP(i)                                              \
	do {                                                           \
		if ((i) < pn && in)                                    \
			evp[i] = slots[i].ev;                          \
		else if ((i) < pn)                                     \
			slots[i].ev = evp[i];                          \
	} while (0)
	MERGE_FILL_EVP(0);
	MERGE_FILL_EVP(1);
	MERGE_FILL_EVP(2);
	MERGE_FILL_EVP(3);
	MERGE_FILL_EVP(4);
	MERGE_FILL_EVP(5);
	MERGE_FILL_EVP(6);
	MERGE_FILL_EVP(7);
	MERGE_FILL_EVP(8);
	MERGE_FILL_EVP(9);
	MERGE_FILL_EVP(10);
	MERGE_FILL_EVP(11);
	MERGE_FILL_EVP(12);
	MERGE_FILL_EVP(13);
	MERGE_FILL_EVP(14);
	MERGE_FILL_EVP(15);
#undef MERGE_FILL_EVP
	for (size_t i = 16; i < pn; i++) {
		if (in)
			evp[i] = slots[i].ev;
		else
			slots[i].ev = evp[i];
	}
}

/*
 * nt[i]: the time of the event after slot i's (its batch ends with one
 * stamped UINT64_MAX); an ended slot or a leaf past the inputs never wins,
 * and its ev may be none: UINT64_MAX, never read; so for a slot read an
 * event at a time (not batch): the loop stops when it is to step it
 */
static inline __attribute__((always_inline)) void
merge_fill_next(uint64_t *nt, struct event *const *evp,
		const struct merge_slot *slots, size_t n, const size_t pn)
{
	size_t i;

	for (i = 0; i < pn; i++)
		nt[i] = i < n && !slots[i].done && slots[i].batch ?
				evp[i][1].ts :
				UINT64_MAX;
}

/*
 * The spans of the events a mono loop took (merge_fill_loop(), lazy):
 * slot i's went out from ein[i] on (after it, for slot cin, whose event
 * had gone out already) up to evp[i] (the last one out, for slot cout;
 * for the others their next, not out yet); nots[i] of them had no stamp.
 * What the loop's clock_span_add() did per event: events counted, the
 * first stamp if the span had none, the last stamp (mono: the latest).
 */
static void merge_fill_spans(struct clock_span *span, struct event *const *ein,
			     struct event *const *evp, const uint32_t *nots,
			     size_t n, size_t cin, size_t cout)
{
	for (size_t i = 0; i < n; i++) {
		const struct event *a = ein[i] + (i == cin);
		const struct event *z = evp[i] + (i == cout);	/* past */
		struct clock_span *sp = &span[i];
		ptrdiff_t stamped = z - a - (ptrdiff_t)nots[i];

		if (stamped <= 0)
			continue;	/* none out, or none stamped */
		if (!sp->events) {
			while (!a->has_ts)
				a++;
			sp->first = a->ts;
		}
		while (!z[-1].has_ts)
			z--;
		sp->last = z[-1].ts;
		sp->events += (uint64_t)stamped;
	}
}

/*
 * merge_fill() with the tree's depth a constant in each copy (the climb
 * unrolled, and the slots' events in an array of the loop's own; 0: the
 * merge's own depth, a loop, the events in the slots), mono (above) or
 * not
 */
static inline __attribute__((always_inline)) size_t
merge_fill_loop(struct merge *m, struct event *out, size_t max,
		struct merge_tally *tally, const unsigned depth,
		const bool mono)
{
	struct merge_slot *slots = m->slots;
	struct clock_span *span = tally->spans, *sp;
	uint64_t *node = m->node;
	const uint64_t base = m->base;
	/*
	 * the last time in the packed tree's range (ts - base < lim: no
	 * time of the loop's is below base), and never UINT64_MAX, the
	 * time after a slot's batch (merge_batch_read()): base + lim is
	 * UINT64_MAX at most (merge_build_first())
	 */
	const uint64_t tmax = base + m->lim - 1;
	const unsigned bits = depth ? depth : m->bits;
	const size_t pn = (size_t)1 << bits;
	/* with depth: each slot's ev, one load away, written back at the end */
	struct event *evp[MERGE_FILL_MAX];
	/*
	 * with depth: the time of each live slot's event after its ev: the
	 * next key is one load from the winner's index, not two (its ev,
	 * then the event), off the L1 where its batch may be: the loop's
	 * chain from winner to winner is what bounds it
	 */
	uint64_t nt[MERGE_FILL_MAX];
	size_t cur = m->cur;
	struct event *e, *o = out, *end = out + max;
	uint64_t ts, k = node[0];
	uint64_t last = tally->last_ts, top = tally->top;

	/*
	 * lazy (depth and mono): each input's span is counted once, after
	 * the loop, from how far its ev went (merge_fill_spans()); the loop
	 * counts only the events without a stamp, which no span counts. Up
	 * to 16 inputs: past them that pass over every slot, and its loads
	 * of their first and last events out, long gone from the L1, cost
	 * more than a store to the span per event (32 and 64 kvmtrace
	 * inputs merged: 0.934 and 0.920 of the time; 16 alike either way)
	 */
	const bool lazy = depth && mono && depth <= 4;
	struct event *ein[MERGE_FILL_MAX];
	uint32_t nots[MERGE_FILL_MAX];
	const size_t cin = cur;

	if (depth) {
		merge_fill_evp(evp, slots, pn, true);
		merge_fill_next(nt, evp, slots, m->n, pn);
	}
	if (lazy) {
		memcpy(ein, evp, pn * sizeof(*ein));
		memset(nots, 0, pn * sizeof(*nots));
	}
	/* the event that went out last, and its time */
	e = slots[cur].ev;
	ts = e->ts;
	for (; o < end; o++) {
		/*
		 * the slot whose event went out last steps to its next one,
		 * in order within its input, in the packed tree's range, and
		 * not past its batch
		 */
		uint64_t t = depth		 ? nt[cur] :
			     slots[cur].batch ? e[1].ts :
						UINT64_MAX;

		if (__builtin_expect(t < ts || t > tmax, 0))
			break;
		e++;
		if (depth) {
			evp[cur] = e;
			nt[cur] = e[1].ts;
		} else {
			slots[cur].ev = e;
		}
		ts = t;
		/* it climbs (merge_preplay()), as many levels as any leaf */
		k = (ts - base) << bits | cur;
		k = merge_fill_climb(node, pn, cur, k, depth, bits);
		/* a live key went in: the winner is one */
		cur = (size_t)(k & (pn - 1));
		e = depth ? evp[cur] : slots[cur].ev;
		ts = e->ts;
		memcpy(o, e, offsetof(struct event, relts));
		/* run_set_relts() and clock_span_add(), its time at hand */
		if (__builtin_expect(!e->has_ts, 0)) {
			o->relts_neg = false;
			o->relts = 0;
			if (lazy)
				nots[cur]++;
			continue;
		}
		sp = &span[cur];
		if (lazy) {
			o->relts_neg = false;
			o->relts = ts - last;
		} else if (mono) {
			/*
			 * at or after every time before it: its input's
			 * span's first if it has none, and its last (stored
			 * apart from events, not in one vector store the
			 * compiler would build from two registers)
			 */
			sp->last = ts;
			if (__builtin_expect(!sp->events, 0))
				sp->first = ts;
			sp->events++;
			o->relts_neg = false;
			o->relts = ts - last;
		} else {
			sp->events++;
			sp->first = ts < sp->first ? ts : sp->first;
			sp->last = ts > sp->last ? ts : sp->last;
			o->relts = event_relts(ts, last, &o->relts_neg);
			top = ts > top ? ts : top;
		}
		last = ts;
	}
	if (lazy)
		merge_fill_spans(span, ein, evp, nots, m->n, cin, cur);
	if (depth)
		merge_fill_evp(evp, slots, pn, false);
	node[0] = k;
	m->cur = (uint32_t)cur;
	m->held |= o > out;
	tally->last_ts = last;
	tally->top = last > top ? last : top;
	return (size_t)(o - out);
}

size_t merge_fill(struct merge *m, struct event *out, size_t max,
		  struct merge_tally *tally)
{
	/* nor when the slot to step is read an event at a time */
	if (m->mode != MERGE_MODE_BATCH || !m->slots[m->cur].batch)
		return 0;
	/*
	 * the last event out is below the stream's top (a step back), or
	 * no time stamp yet (relts 0, not ts - 0): not mono
	 */
	if (tally->top > m->slots[m->cur].ev->ts || !tally->last_ts)
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
	case 5:
		return merge_fill_loop(m, out, max, tally, 5, true);
	case 6:
		return merge_fill_loop(m, out, max, tally, 6, true);
	default:
		return merge_fill_loop(m, out, max, tally, 0, true);
	}
}
