/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A log-linear histogram of durations (u64 ticks or ns), fixed in size
 * whatever the number of values: count, total, exact min and max, and
 * percentiles to within a documented relative error.
 *
 * Values below 2^HIST_SUB_BITS (64) have a bucket each: exact. Above,
 * every power of two [2^e, 2^(e+1)) is cut into 64 buckets of width
 * 2^(e-6). A percentile is the midpoint of the bucket that holds the
 * nearest-rank value, clamped to [min, max]; its distance from the exact
 * value is at most half a bucket, 2^(e-7) <= value / 128: a relative error
 * of at most 0.79 % (HIST_REL_ERROR_PPM).
 *
 * Buckets are kept for the powers of two seen, from the lowest to the
 * highest: at most 59 x 64 counters, typically a few hundred. A counter is
 * a byte, and beside it, once any counter of the histogram passes 255, a
 * 64-bit word for the rest: exact, and a ninth of the memory a word each
 * took where counts stay low (--stats keeps a histogram per vCPU and
 * reason: thousands, written to at random, in the cache or not).
 */
#ifndef KTF_HIST_H
#define KTF_HIST_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS		6
#define HIST_SUB		(1u << HIST_SUB_BITS)
/* group 0: values 0..63; group g >= 1: [2^(g+5), 2^(g+6)) */
#define HIST_GROUPS		(64 - HIST_SUB_BITS + 1)
/* the bound on |reported - exact| / exact, in parts per million */
#define HIST_REL_ERROR_PPM	7813

struct hist {
	uint64_t n;
	uint64_t total;		/* saturates at UINT64_MAX */
	uint64_t min, max;
	/*
	 * Bucket i's count is low[i] + high[i]: HIST_SUB per group lo..hi;
	 * high NULL while every count is below 256, else multiples of 256.
	 */
	uint8_t *low;		/* owned */
	uint64_t *high;		/* owned */
	uint8_t lo, hi;		/* groups held; low NULL: none */
};

void hist_fini(struct hist *h);

/* hist_record() of a value outside the groups held. */
int hist_record_slow(struct hist *h, uint64_t v);

/* Carry bucket i's low byte (wrapped to 0) into high. 0 or -ENOMEM. */
int hist_carry(struct hist *h, size_t i);

/* The group of v: 0 below HIST_SUB, else 1 + log2(v) - HIST_SUB_BITS. */
static inline unsigned hist_group(uint64_t v)
{
	if (v < HIST_SUB)
		return 0;
	return (unsigned)(63 - __builtin_clzll(v)) - (HIST_SUB_BITS - 1);
}

/* Add one value. 0 or -ENOMEM (then h is unchanged). */
static inline int hist_record(struct hist *h, uint64_t v)
{
	unsigned g = hist_group(v);
	size_t i;

	if (__builtin_expect(!h->low || g < h->lo || g > h->hi, 0))
		return hist_record_slow(h, v);
	i = (size_t)(g - h->lo) * HIST_SUB +
	    (g ? (unsigned)(v >> (g - 1)) & (HIST_SUB - 1) : (unsigned)v);
	if (__builtin_expect(!++h->low[i], 0) && hist_carry(h, i) < 0) {
		h->low[i]--;
		return -ENOMEM;
	}
	if (!h->n || v < h->min)
		h->min = v;
	if (!h->n || v > h->max)
		h->max = v;
	h->n++;
	h->total = h->total + v < h->total ? UINT64_MAX : h->total + v;
	return 0;
}

/* Add every value of src to dst. 0 or -ENOMEM. */
int hist_merge(struct hist *dst, const struct hist *src);

/*
 * The nearest-rank percentile q / 1000 (q in 1..1000: 500 p50, 999
 * p99.9): the ceil(q n / 1000)-th smallest value, to within
 * HIST_REL_ERROR_PPM. 0 when h is empty.
 */
uint64_t hist_percentile(const struct hist *h, unsigned q);

/*
 * The buckets as --stats=json writes them: bucket index 64 g + s is
 * bucket s of group g, HIST_NBUCKETS in all, the same for every run.
 */
#define HIST_NBUCKETS		(HIST_GROUPS * HIST_SUB)

/* The non-empty bucket at or after *pos: true with it, *pos past it. */
bool hist_next(const struct hist *h, size_t *pos, uint32_t *index,
	       uint64_t *count);

/* The values of bucket index: [*low, *low + *width). */
void hist_bucket(uint32_t index, uint64_t *low, uint64_t *width);

/*
 * Add count values to bucket index (< HIST_NBUCKETS), leaving n, total,
 * min and max to the caller (a histogram read back). 0, -ENOMEM or
 * -ERANGE (the count overflows).
 */
int hist_add_bucket(struct hist *h, uint32_t index, uint64_t count);

/*
 * Counts per power of two: out[0] the zeros, out[k] (1..64) the values in
 * [2^(k-1), 2^k). Exact.
 */
void hist_log2(const struct hist *h, uint64_t out[65]);

#endif
