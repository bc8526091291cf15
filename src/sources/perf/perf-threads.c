// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The threads of a perf.data as perf script names them: COMM and FORK
 * records (handed out in perf-order.c's order) name them (perf's
 * thread__comm_str()): a thread never named prints as ":TID", a forked
 * one takes its parent's name, TID 0 is "swapper".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf-int.h"

/*
 * The slot of a tid: every bit of it mixed into the low ones that pick
 * the slot (murmur3's finaliser), so that tids alike in their low bits
 * (multiples of 2^17) spread like any others.
 */
static size_t perf_tid_hash(int32_t tid)
{
	uint32_t h = (uint32_t)tid;

	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

static struct perf_thread *perf_thread_find(struct perf *p, int32_t tid,
					    bool create)
{
	size_t mask, i;

	if (create && p->nthreads * 2 >= p->capthreads) {
		size_t cap = p->capthreads ? 2 * p->capthreads : 1024, k;
		struct perf_thread *t;

		t = calloc(cap, sizeof(*t));
		if (!t)
			return NULL;
		for (k = 0; k < p->capthreads; k++) {
			struct perf_thread *o = &p->threads[k];

			if (!o->used)
				continue;
			for (i = perf_tid_hash(o->tid) & (cap - 1);
			     t[i].used; i = (i + 1) & (cap - 1))
				;
			t[i] = *o;
		}
		free(p->threads);
		p->threads = t;
		p->capthreads = cap;
		memset(p->tcache, 0, sizeof(p->tcache));
	}
	if (!p->capthreads)
		return NULL;
	mask = p->capthreads - 1;
	for (i = perf_tid_hash(tid) & mask; p->threads[i].used;
	     i = (i + 1) & mask)
		if (p->threads[i].tid == tid)
			return &p->threads[i];
	if (!create)
		return NULL;
	p->threads[i].used = true;
	p->threads[i].tid = tid;
	p->threads[i].comm_set = false;
	p->threads[i].headlen = 0;
	p->threads[i].len = (uint8_t)snprintf(p->threads[i].comm,
					      sizeof(p->threads[i].comm),
					      ":%d", tid);
	p->nthreads++;
	return &p->threads[i];
}

static void perf_thread_set(struct perf_thread *t, const char *comm,
			    size_t len)
{
	if (len >= sizeof(t->comm))
		len = sizeof(t->comm) - 1;
	memcpy(t->comm, comm, len);
	t->comm[len] = '\0';
	t->len = (uint8_t)len;
	t->comm_set = true;
	t->headlen = 0;
}

int perf_threads_init(struct perf *p)
{
	struct perf_thread *t = perf_thread_find(p, 0, true);

	if (!t)
		return -ENOMEM;
	perf_thread_set(t, "swapper", 7);
	return 0;
}

struct perf_thread *perf_thread_get(struct perf *p, int32_t tid)
{
	struct perf_thread *t = perf_thread_find(p, tid, true);

	p->tcache[(uint32_t)tid & 7] = t;
	return t;
}

const char *perf_comm(struct perf *p, int32_t tid, size_t *len)
{
	struct perf_thread *t = perf_thread_find(p, tid, true);

	if (!t) {
		*len = 0;
		return "";
	}
	*len = t->len;
	return t->comm;
}

/* COMM: u32 pid, tid, comm; FORK: u32 pid, ppid, tid, ptid, u64 time */
int perf_task(struct perf *p, uint32_t type, const unsigned char *r,
	      size_t len)
{
	struct perf_thread *t, *parent;
	int32_t tid;

	if (type == PERF_R_COMM && len >= 8) {
		const char *c = (const char *)r + 8;
		const char *z = memchr(c, '\0', len - 8);

		t = perf_thread_find(p, (int32_t)perf_u32(p, r + 4), true);
		if (!t)
			return -ENOMEM;
		perf_thread_set(t, c, z ? (size_t)(z - c) : len - 8);
	} else if (type == PERF_R_FORK && len >= 16) {
		char comm[sizeof(t->comm)];
		size_t n = 0;
		bool set;

		parent = perf_thread_find(p, (int32_t)perf_u32(p, r + 12),
					  true);
		if (!parent)
			return -ENOMEM;
		set = parent->comm_set;
		if (set) {
			n = parent->len;
			memcpy(comm, parent->comm, n);
		}
		tid = (int32_t)perf_u32(p, r + 8);
		/* perf drops a thread of the same tid and makes a new one */
		t = perf_thread_find(p, tid, true);
		if (!t)
			return -ENOMEM;
		if (set) {
			perf_thread_set(t, comm, n);
		} else {
			t->len = (uint8_t)snprintf(t->comm, sizeof(t->comm),
						   ":%d", tid);
			t->comm_set = false;
			t->headlen = 0;
		}
	}
	return 0;
}
