// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

void hist_fini(struct hist *h)
{
	free(h->low);
	free(h->high);
	memset(h, 0, sizeof(*h));
}

/* Bucket i's count. */
static inline uint64_t hist_count(const struct hist *h, size_t i)
{
	return h->low[i] + (h->high ? h->high[i] : 0);
}

/* Make high exist. 0 or -ENOMEM. */
static int hist_high(struct hist *h)
{
	if (!h->high)
		h->high = calloc((size_t)(h->hi - h->lo + 1) * HIST_SUB,
				 sizeof(*h->high));
	return h->high ? 0 : -ENOMEM;
}

/* Set bucket i's count to c (high made if c needs it). 0 or -ENOMEM. */
static int hist_set(struct hist *h, size_t i, uint64_t c)
{
	if (c > 0xff && hist_high(h) < 0)
		return -ENOMEM;
	h->low[i] = (uint8_t)c;
	if (h->high)
		h->high[i] = c & ~(uint64_t)0xff;
	return 0;
}

int hist_carry(struct hist *h, size_t i)
{
	if (hist_high(h) < 0)
		return -ENOMEM;
	h->high[i] += 0x100;
	return 0;
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
	size_t off, n, old;
	uint8_t *l;
	uint64_t *w = NULL;

	if (h->low && lo >= h->lo && hi <= h->hi)
		return 0;
	nlo = h->low && h->lo < lo ? h->lo : lo;
	nhi = h->low && h->hi > hi ? h->hi : hi;
	n = (size_t)(nhi - nlo + 1) * HIST_SUB;
	l = calloc(n, sizeof(*l));
	if (h->high)
		w = calloc(n, sizeof(*w));
	if (!l || (h->high && !w)) {
		free(l);
		free(w);
		return -ENOMEM;
	}
	if (h->low) {
		off = (size_t)(h->lo - nlo) * HIST_SUB;
		old = (size_t)(h->hi - h->lo + 1) * HIST_SUB;
		memcpy(l + off, h->low, old * sizeof(*l));
		if (w)
			memcpy(w + off, h->high, old * sizeof(*w));
		free(h->low);
		free(h->high);
	}
	h->low = l;
	h->high = w;
	h->lo = (uint8_t)nlo;
	h->hi = (uint8_t)nhi;
	return 0;
}

int hist_record_slow(struct hist *h, uint64_t v)
{
	unsigned g = hist_group(v);

	if (hist_cover(h, g, g) < 0)
		return -ENOMEM;
	return hist_record(h, v);
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
	/* below 256 values in all, no count needs more than its byte */
	if ((src->high || dst->n + src->n > 0xff) && hist_high(dst) < 0)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		uint64_t c = hist_count(src, i);

		if (!c)
			continue;
		c += hist_count(dst, off + i);
		dst->low[off + i] = (uint8_t)c;
		if (dst->high)
			dst->high[off + i] = c & ~(uint64_t)0xff;
	}
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
		seen += h->high ? h->low[i] + h->high[i] : h->low[i];
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
	if (!h->low)
		return;
	n = (size_t)(h->hi - h->lo + 1) * HIST_SUB;
	for (i = 0; i < n; i++) {
		uint64_t width, low = hist_low(h->lo + (unsigned)(i / HIST_SUB),
					       (unsigned)(i % HIST_SUB), &width);

		/* a bucket lies within one power of two */
		out[low ? 64 - __builtin_clzll(low) : 0] += hist_count(h, i);
	}
}

bool hist_next(const struct hist *h, size_t *pos, uint32_t *index,
	       uint64_t *count)
{
	size_t i, n;

	if (!h->low)
		return false;
	n = (size_t)(h->hi - h->lo + 1) * HIST_SUB;
	for (i = *pos; i < n; i++) {
		if (hist_count(h, i)) {
			*index = (uint32_t)(h->lo * HIST_SUB + i);
			*count = hist_count(h, i);
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
	size_t i;
	uint64_t c;

	if (index >= HIST_NBUCKETS)
		return -ERANGE;
	if (hist_cover(h, g, g) < 0)
		return -ENOMEM;
	i = (size_t)(g - h->lo) * HIST_SUB + index % HIST_SUB;
	c = hist_count(h, i);
	if (c + count < c)
		return -ERANGE;
	return hist_set(h, i, c + count);
}
