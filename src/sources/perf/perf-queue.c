// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf-order.c's queue: the timestamped records waiting for their round,
 * their bytes in an arena, their entries sorted by (time, file order)
 * when a round lets them out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perf-int.h"

/* The space of records gone out the arena may keep (perf_compact()) */
#define PERF_DEAD_MIN	(256u << 10)

static int perf_qent_cmp(const void *a, const void *b)
{
	const struct perf_qent *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int perf_queue_room(struct perf *p, size_t size, struct diag *d)
{
	struct perf_qent *e;

	if (p->nq == p->capq) {
		size_t cap = p->capq ? 2 * p->capq : 4096;

		e = realloc(p->q, cap * sizeof(*e));
		if (!e)
			goto nomem;
		p->q = e;
		p->capq = cap;
	}
	if (p->alen + size > p->acap) {
		size_t cap = p->acap ? 2 * p->acap : 1u << 20;
		unsigned char *a;

		while (cap < p->alen + size)
			cap *= 2;
		a = realloc(p->arena, cap);
		if (!a)
			goto nomem;
		p->arena = a;
		p->acap = cap;
	}
	return 0;
nomem:
	diag_set(d, "%s: out of memory", p->name);
	return -ENOMEM;
}

static inline bool perf_qent_le(const struct perf_qent *x,
				const struct perf_qent *y)
{
	return x->ts < y->ts || (x->ts == y->ts && x->seq <= y->seq);
}

/* A queue this short is sorted by insertion (perf_qsort()) */
#define PERF_QSMALL	32

/* The end of the run of q (n long) that starts at i. */
static size_t perf_qrun(const struct perf_qent *q, size_t i, size_t n)
{
	for (i++; i < n && perf_qent_le(&q[i - 1], &q[i]); i++)
		;
	return i;
}

/*
 * Sort the queue by (ts, seq): a merge of its runs (each CPU's ring
 * buffer comes in time order, so a round holds about one run a CPU), two
 * by two, into qtmp and back; qsort() when qtmp cannot be had.
 */
static void perf_qsort(struct perf *p)
{
	struct perf_qent *a = p->q, *b;
	size_t n = p->nq, i, m, e, x, y, o, runs;

	/*
	 * a small queue (perf record's rounds of a few records a CPU): the
	 * new entries put in place one by one, each moved past those it
	 * goes before (at most PERF_QSMALL each)
	 */
	if (n <= PERF_QSMALL) {
		for (i = p->qsorted ? p->qsorted : 1; i < n; i++) {
			struct perf_qent t = a[i];

			for (x = i; x && !perf_qent_le(&a[x - 1], &t); x--)
				a[x] = a[x - 1];
			a[x] = t;
		}
		return;
	}
	if (perf_qrun(a, 0, n) == n)
		return;
	if (p->capqtmp != p->capq) {
		b = realloc(p->qtmp, p->capq * sizeof(*b));
		if (!b) {
			qsort(p->q, p->nq, sizeof(*p->q), perf_qent_cmp);
			return;
		}
		p->qtmp = b;
		p->capqtmp = p->capq;
	}
	b = p->qtmp;
	do {
		runs = 0;
		for (i = 0; i < n; i = e, runs++) {
			m = perf_qrun(a, i, n);
			e = m < n ? perf_qrun(a, m, n) : n;
			for (x = i, y = m, o = i; x < m && y < e;)
				/* seq is never the same twice */
				b[o++] = perf_qent_le(&a[y], &a[x]) ? a[y++]
								    : a[x++];
			memcpy(b + o, a + x, (m - x) * sizeof(*a));
			o += m - x;
			memcpy(b + o, a + y, (e - y) * sizeof(*a));
		}
		p->qtmp = a;
		a = b;
		b = p->qtmp;
	} while (runs > 1);
	p->q = a;
}

void perf_flush(struct perf *p, uint64_t limit)
{
	size_t lo = 0, hi;

	if (p->qsorted < p->nq)
		perf_qsort(p);
	p->qsorted = p->nq;
	hi = p->nq;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->q[mid].ts <= limit)
			lo = mid + 1;
		else
			hi = mid;
	}
	p->out = 0;
	p->nout = lo;
}

/*
 * After the flushed records went out: their entries go. The records left
 * move to a fresh arena (may_copy) once those gone take PERF_DEAD_MIN:
 * with perf record's small rounds (a few records a CPU) a copy at every
 * round would copy each record once more. Not while a batch holds
 * records of the arena (next_batch): they stay where they are.
 */
int perf_compact(struct perf *p, bool may_copy, struct diag *d)
{
	size_t i, len = 0, need = 0;
	unsigned char *a;

	for (i = p->nout; i < p->nq; i++)
		need += (perf_u16(p, p->arena + p->q[i].at + 6) + 7u) & ~7u;
	p->alive = need;
	if (!may_copy || p->alen - need < PERF_DEAD_MIN) {
		memmove(p->q, p->q + p->nout, (p->nq - p->nout) * sizeof(*p->q));
		p->nq -= p->nout;
		p->qsorted = p->nq;
		p->out = p->nout = 0;
		return 0;
	}
	if (need > p->acap2) {
		a = realloc(p->arena2, need);
		if (!a) {
			diag_set(d, "%s: out of memory", p->name);
			return -ENOMEM;
		}
		p->arena2 = a;
		p->acap2 = need;
	}
	for (i = p->nout; i < p->nq; i++) {
		struct perf_qent e = p->q[i];
		size_t size = perf_u16(p, p->arena + e.at + 6);

		memcpy(p->arena2 + len, p->arena + e.at, size);
		e.at = (uint32_t)len;
		len += (size + 7) & ~(size_t)7;
		p->q[i - p->nout] = e;
	}
	p->nq -= p->nout;
	p->qsorted = p->nq;
	p->out = p->nout = 0;
	a = p->arena;
	p->arena = p->arena2;
	p->arena2 = a;
	i = p->acap;
	p->acap = p->acap2;
	p->acap2 = i;
	p->alen = len;
	return 0;
}
