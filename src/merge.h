/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The k-way merge: one event in flight per input, a tournament (loser)
 * tree on (host ts, input order, sequence): each event taken costs one
 * comparison per level on the way from its input's leaf to the root,
 * against the loser stored there. Memory is O(inputs). An input whose
 * time goes backwards is reported once and otherwise left in its own
 * order: nothing is silently reordered.
 */
#ifndef KTF_MERGE_H
#define KTF_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "source.h"

struct clock;
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
	struct source *src;	/* borrowed */
	struct event *ev;	/* one of evs: its event */
	/*
	 * An input whose events stay whole while the next one is read
	 * (source_ops.two_events) is read one event ahead: the tree then
	 * replays a key already at hand, and the read that follows it is
	 * off the path to the next event. The two take turns in evs (the
	 * pointers swap; the events are not copied).
	 */
	bool look;
	bool have_ahead;	/* ahead_ret and ahead hold the next read */
	int ahead_ret;		/* what next() returned for it */
	struct event *ahead;	/* the other of evs */
	struct event evs[2];
	struct diag *ahead_d;	/* owned, with look: its message */
	uint64_t last_ts;	/* host time of its previous event */
	bool stepped_back;	/* reported already */
	bool done;		/* ended or failed: loses to every event */
};

struct merge {
	struct merge_slot *slots;	/* owned */
	size_t n;
	/*
	 * owned: slot indices; [0] the winner, [1 .. n-1] the loser of the
	 * match at that node. The leaf of slot i is node n + i, the parent
	 * of node p is p / 2.
	 */
	uint32_t *tree;
	uint32_t *win;			/* owned: 2n, scratch of the build */
	struct merge_key *key;		/* owned: per slot the key of its
					 * event, side by side for the
					 * comparisons */
	bool built;			/* the tree holds every slot */
	long pending;			/* slot to refill before the next pop */
	size_t nfill;			/* slots primed so far */
	const struct clock *clock;	/* borrowed */
	bool map;			/* some input needs clock_map() */
};

enum merge_result {
	MERGE_END = 0,
	MERGE_EVENT = 1,
	MERGE_WARN = 2,		/* an event, and a warning in diag */
};

struct merge *merge_create(struct source **srcs, size_t n,
			   const struct clock *clock);
void merge_destroy(struct merge *m);

/* merge_next() but for one input on the timeline's clock, once primed */
int merge_next_many(struct merge *m, struct event **ev, struct diag *d);

/*
 * The next event in time order. Returns MERGE_EVENT or MERGE_WARN with
 * *ev, MERGE_END, or a negative errno with diag filled when an input
 * failed: that input is dropped, the others go on; call again.
 *
 * One input whose time needs no mapping, once primed, goes straight out,
 * inline in the caller's loop: no tree, no ordering to keep, no call but
 * the reader's.
 */
static inline int merge_next(struct merge *m, struct event **ev,
			     struct diag *d)
{
	struct merge_slot *s = m->slots;
	int ret;

	if (!(m->n == 1 && m->nfill == 1 && !m->map))
		return merge_next_many(m, ev, d);
	if (s->done)
		return MERGE_END;
	ret = s->src->ops->next(s->src, s->ev, d);
	if (ret <= 0) {
		s->done = true;
		return ret;
	}
	*ev = s->ev;
	return MERGE_EVENT;
}

#endif
