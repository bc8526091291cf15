// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

void hist_fini(struct hist *h)
{
	free(h->counts);
	memset(h, 0, sizeof(*h));
}

static unsigned hist_group(uint64_t v)
{
	if (v < HIST_SUB)
		return 0;
	return (unsigned)(63 - __builtin_clzll(v)) - (HIST_SUB_BITS - 1);
}

/* The bucket of v within its group. */
static unsigned hist_sub(uint64_t v, unsigned g)
{
	if (!g)
		return (unsigned)v;
	return (unsigned)(v >> (g - 1)) & (HIST_SUB - 1);
}

/* The lowest value of bucket sub of group g, and the bucket's width. */
static uint64_t hist_low(unsigned g, unsigned sub, uint64_t *width)
{
	if (!g) {
		*width = 1;
		return sub;
	}
	*width = 1ull << (g - 1);
	return ((uint64_t)HIST_SUB + sub) << (g - 1);
}

/* Make groups lo..hi exist. */
static int hist_cover(struct hist *h, unsigned lo, unsigned hi)
{
	unsigned nlo, nhi;
	uint64_t *n;

	if (h->counts && lo >= h->lo && hi <= h->hi)
		return 0;
	nlo = h->counts && h->lo < lo ? h->lo : lo;
	nhi = h->counts && h->hi > hi ? h->hi : hi;
	n = calloc((size_t)(nhi - nlo + 1) * HIST_SUB, sizeof(*n));
	if (!n)
		return -ENOMEM;
	if (h->counts) {
		memcpy(n + (size_t)(h->lo - nlo) * HIST_SUB, h->counts,
		       (size_t)(h->hi - h->lo + 1) * HIST_SUB * sizeof(*n));
		free(h->counts);
	}
	h->counts = n;
	h->lo = (uint8_t)nlo;
	h->hi = (uint8_t)nhi;
	return 0;
}

int hist_record(struct hist *h, uint64_t v)
{
	unsigned g = hist_group(v);

	if (hist_cover(h, g, g) < 0)
		return -ENOMEM;
	h->counts[(size_t)(g - h->lo) * HIST_SUB + hist_sub(v, g)]++;
	if (!h->n || v < h->min)
		h->min = v;
	if (!h->n || v > h->max)
		h->max = v;
	h->n++;
	h->total = h->total + v < h->total ? UINT64_MAX : h->total + v;
	return 0;
}

int hist_merge(struct hist *dst, const struct hist *src)
{
	size_t i, n, off;

	if (!src->n)
		return 0;
	if (hist_cover(dst, src->lo, src->hi) < 0)
		return -ENOMEM;
	off = (size_t)(src->lo - dst->lo) * HIST_SUB;
	n = (size_t)(src->hi - src->lo + 1) * HIST_SUB;
	for (i = 0; i < n; i++)
		dst->counts[off + i] += src->counts[i];
	if (!dst->n || src->min < dst->min)
		dst->min = src->min;
	if (!dst->n || src->max > dst->max)
		dst->max = src->max;
	dst->n += src->n;
	dst->total = dst->total + src->total < dst->total
			     ? UINT64_MAX
			     : dst->total + src->total;
	return 0;
}

uint64_t hist_percentile(const struct hist *h, unsigned q)
{
	unsigned __int128 r;
	uint64_t rank, seen = 0, low, width, mid;
	size_t i, n;

	if (!h->n)
		return 0;
	if (q > 1000)
		q = 1000;
	r = ((unsigned __int128)h->n * q + 999) / 1000;
	rank = r ? (uint64_t)r : 1;
	if (rank == 1)
		return h->min;
	if (rank >= h->n)
		return h->max;
	n = (size_t)(h->hi - h->lo + 1) * HIST_SUB;
	for (i = 0; i < n; i++) {
		seen += h->counts[i];
		if (seen >= rank)
			break;
	}
	if (i == n)
		return h->max;
	low = hist_low(h->lo + (unsigned)(i / HIST_SUB),
		       (unsigned)(i % HIST_SUB), &width);
	mid = low + (width - 1) / 2;
	if (mid < h->min)
		return h->min;
	return mid > h->max ? h->max : mid;
}

void hist_log2(const struct hist *h, uint64_t out[65])
{
	size_t i, n;

	memset(out, 0, 65 * sizeof(*out));
	if (!h->counts)
		return;
	n = (size_t)(h->hi - h->lo + 1) * HIST_SUB;
	for (i = 0; i < n; i++) {
		uint64_t width, low = hist_low(h->lo + (unsigned)(i / HIST_SUB),
					       (unsigned)(i % HIST_SUB), &width);

		/* a bucket lies within one power of two */
		out[low ? 64 - __builtin_clzll(low) : 0] += h->counts[i];
	}
}

bool hist_next(const struct hist *h, size_t *pos, uint32_t *index,
	       uint64_t *count)
{
	size_t i, n;

	if (!h->counts)
		return false;
	n = (size_t)(h->hi - h->lo + 1) * HIST_SUB;
	for (i = *pos; i < n; i++) {
		if (h->counts[i]) {
			*index = (uint32_t)(h->lo * HIST_SUB + i);
			*count = h->counts[i];
			*pos = i + 1;
			return true;
		}
	}
	*pos = n;
	return false;
}

void hist_bucket(uint32_t index, uint64_t *low, uint64_t *width)
{
	*low = hist_low(index / HIST_SUB, index % HIST_SUB, width);
}

int hist_add_bucket(struct hist *h, uint32_t index, uint64_t count)
{
	unsigned g = index / HIST_SUB;
	uint64_t *c;

	if (index >= HIST_NBUCKETS)
		return -ERANGE;
	if (hist_cover(h, g, g) < 0)
		return -ENOMEM;
	c = &h->counts[(size_t)(g - h->lo) * HIST_SUB + index % HIST_SUB];
	if (*c + count < *c)
		return -ERANGE;
	*c += count;
	return 0;
}
