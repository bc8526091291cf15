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
	m->heap = calloc(n ? n : 1, sizeof(*m->heap));
	if (!m->slots || !m->heap) {
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
	free(m->heap);
	free(m);
}

static inline bool merge_less(const struct merge *m, uint32_t a, uint32_t b)
{
	const struct event *x = &m->slots[a].ev, *y = &m->slots[b].ev;

	if (x->ts != y->ts)
		return x->ts < y->ts;
	if (a != b)
		return a < b;
	return x->seq < y->seq;
}

static void merge_sift_down(struct merge *m, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, s = i;
		uint32_t t;

		if (l < m->nheap && merge_less(m, m->heap[l], m->heap[s]))
			s = l;
		if (r < m->nheap && merge_less(m, m->heap[r], m->heap[s]))
			s = r;
		if (s == i)
			return;
		t = m->heap[i];
		m->heap[i] = m->heap[s];
		m->heap[s] = t;
		i = s;
	}
}

static void merge_sift_up(struct merge *m, size_t i)
{
	while (i > 0) {
		size_t p = (i - 1) / 2;
		uint32_t t;

		if (!merge_less(m, m->heap[i], m->heap[p]))
			return;
		t = m->heap[i];
		m->heap[i] = m->heap[p];
		m->heap[p] = t;
		i = p;
	}
}

/*
 * Read the next event of slot i. Returns 1 (pushed or replaced at the
 * root when at_root), 0 (that input ended), or a negative errno.
 */
static int merge_fill(struct merge *m, uint32_t i, bool at_root,
		      struct diag *d)
{
	struct merge_slot *s = &m->slots[i];
	int ret;

	ret = s->src->ops->next(s->src, &s->ev, d);
	if (ret > 0) {
		if (m->map)
			clock_map(m->clock, s->src, &s->ev);
		if (m->n == 1) {
			if (!at_root)
				m->heap[m->nheap++] = i;
		} else if (at_root) {
			merge_sift_down(m, 0);
		} else {
			m->heap[m->nheap++] = i;
			merge_sift_up(m, m->nheap - 1);
		}
		return 1;
	}
	if (at_root) {
		m->heap[0] = m->heap[--m->nheap];
		merge_sift_down(m, 0);
	}
	return ret;
}

int merge_next(struct merge *m, struct event **out, struct diag *d)
{
	struct merge_slot *s;
	struct event *ev;
	int ret, result = MERGE_EVENT;
	uint32_t i;

	/* one input: no heap, no ordering to keep */
	if (m->n == 1 && m->nfill == 1) {
		s = &m->slots[0];
		if (!m->nheap)
			return MERGE_END;
		ret = s->src->ops->next(s->src, &s->ev, d);
		if (ret <= 0) {
			m->nheap = 0;
			return ret;
		}
		if (m->map)
			clock_map(m->clock, s->src, &s->ev);
		*out = &s->ev;
		return MERGE_EVENT;
	}
	while (m->nfill < m->n) {
		i = (uint32_t)m->nfill++;
		ret = merge_fill(m, i, false, d);
		if (ret < 0)
			return ret;
	}
	if (m->pending >= 0) {
		i = (uint32_t)m->pending;
		m->pending = -1;
		ret = merge_fill(m, i, true, d);
		if (ret < 0)
			return ret;
	}
	if (!m->nheap)
		return MERGE_END;
	i = m->heap[0];
	s = &m->slots[i];
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
