// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uftrace: the look-up tables that keep loading linear in the size of the
 * metadata (100 000 tasks, 50 000 sessions, a 50 000-line map): arrays
 * grown by doubling, a hash of names (modules, session ids), the sessions
 * sorted by pid and start.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uftrace-int.h"

/*
 * Room for element n of the array *v of n elements of size bytes: arrays
 * grow by doubling when n reaches a power of two. 0 or -ENOMEM.
 */
int uft_grow(void *v, size_t n, size_t size)
{
	void **p = v, *nv;
	size_t cap;

	if (n & (n - 1))
		return 0;	/* n is not a power of two: there is room */
	cap = n ? 2 * n : 1;
	if (cap > SIZE_MAX / size)
		return -ENOMEM;
	nv = realloc(*p, cap * size);
	if (!nv)
		return -ENOMEM;
	*p = nv;
	return 0;
}

/* FNV-1a, seeded per reader so that names cannot be chosen to collide. */
uint64_t uft_hash_str(const struct uft_hash *h, const char *s, size_t len)
{
	uint64_t x = UINT64_C(0xcbf29ce484222325) ^ h->seed;
	size_t i;

	for (i = 0; i < len; i++) {
		x ^= (unsigned char)s[i];
		x *= UINT64_C(0x100000001b3);
	}
	return x ^ (x >> 29);
}

/* The value whose key (keyof) is s[0..len), or NULL. */
void *uft_hash_find(const struct uft_hash *h, const char *s, size_t len,
		    const char *(*keyof)(const void *val))
{
	uint64_t x;
	size_t i;

	if (!h->cap)
		return NULL;
	x = uft_hash_str(h, s, len);
	for (i = x & (h->cap - 1); h->v[i].val; i = (i + 1) & (h->cap - 1)) {
		const char *k;

		if (h->v[i].h != x)
			continue;
		k = keyof(h->v[i].val);
		if (!strncmp(k, s, len) && !k[len])
			return h->v[i].val;
	}
	return NULL;
}

/* Add val under its key (not there yet). 0 or -ENOMEM. */
int uft_hash_add(struct uft_hash *h, void *val,
		 const char *(*keyof)(const void *val))
{
	const char *key = keyof(val);
	uint64_t x;
	size_t i;

	if (!h->seed)	/* before any hash: the address of h, as good as any */
		h->seed = (uint64_t)(uintptr_t)h ^ UINT64_C(0x9e3779b97f4a7c15);
	if (2 * (h->n + 1) > h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 64, j;
		struct uft_hent *nv = calloc(cap, sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		for (j = 0; j < h->cap; j++) {
			if (!h->v[j].val)
				continue;
			for (i = h->v[j].h & (cap - 1); nv[i].val;
			     i = (i + 1) & (cap - 1))
				;
			nv[i] = h->v[j];
		}
		free(h->v);
		h->v = nv;
		h->cap = cap;
	}
	x = uft_hash_str(h, key, strlen(key));
	for (i = x & (h->cap - 1); h->v[i].val; i = (i + 1) & (h->cap - 1))
		;
	h->v[i].h = x;
	h->v[i].val = val;
	h->n++;
	return 0;
}

static int uft_sess_cmp(const void *a, const void *b, void *arg)
{
	const struct uft_session *v = arg;
	const struct uft_session *x = &v[*(const uint32_t *)a];
	const struct uft_session *y = &v[*(const uint32_t *)b];

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

/* uf->by_pid: the sessions sorted by pid, start, then task.txt order. */
int uft_index_sessions(struct uftrace *uf)
{
	size_t i;

	free(uf->by_pid);
	uf->by_pid = malloc((uf->nsess ? uf->nsess : 1) * sizeof(*uf->by_pid));
	if (!uf->by_pid)
		return -ENOMEM;
	for (i = 0; i < uf->nsess; i++)
		uf->by_pid[i] = (uint32_t)i;
	qsort_r(uf->by_pid, uf->nsess, sizeof(*uf->by_pid), uft_sess_cmp,
		uf->sess);
	return 0;
}

/* The range [*lo, *hi) of uf->by_pid that holds the sessions of pid. */
void uft_pid_range(const struct uftrace *uf, int64_t pid, size_t *lo,
		   size_t *hi)
{
	size_t a = 0, b = uf->nsess;

	while (a < b) {
		size_t m = a + (b - a) / 2;

		if (uf->sess[uf->by_pid[m]].pid < pid)
			a = m + 1;
		else
			b = m;
	}
	*lo = a;
	b = uf->nsess;
	while (a < b) {
		size_t m = a + (b - a) / 2;

		if (uf->sess[uf->by_pid[m]].pid <= pid)
			a = m + 1;
		else
			b = m;
	}
	*hi = a;
}

/* In [lo, hi) of one pid: the first position whose start is after ts. */
size_t uft_after(const struct uftrace *uf, size_t lo, size_t hi, uint64_t ts)
{
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (uf->sess[uf->by_pid[m]].start <= ts)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}
