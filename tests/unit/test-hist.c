// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the exit-time histograms (hist.h): percentiles within the
 * documented bound, exact counts, totals, min and max, merges, the bucket
 * layout --stats=json writes, and counts past a byte (each bucket's low
 * byte and the 64-bit rest beside it).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "tap.h"

/* ---------------------------------------------------------- histogram */

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_hist(struct tap *t)
{
	static const unsigned qs[] = { 1, 100, 500, 900, 990, 999, 1000 };
	enum { N = 200000 };
	struct hist h = { 0 }, a = { 0 }, b = { 0 };
	uint64_t *v = malloc(N * sizeof(*v)), x = 88172645463325252ull;
	uint64_t log2[65], want[65] = { 0 }, total = 0;
	double worst = 0;
	bool ok = v != NULL, exact = true;
	size_t i, k;

	tap_ok(t, hist_percentile(&h, 500) == 0 && h.n == 0, "an empty histogram");
	for (i = 0; i < 64; i++)
		ok &= hist_record(&h, i) == 0;
	for (k = 1; k <= 64; k++)
		exact &= hist_percentile(&h, (unsigned)(k * 1000 / 64)) ==
			 (k * 1000 / 64 * 64 + 999) / 1000 - 1;
	tap_ok(t, ok && exact, "values below 64 are exact");
	hist_fini(&h);
	/* log-uniform over 1 .. 2^40, xorshift */
	for (i = 0; ok && i < N; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v[i] = (x >> 24) >> (x % 40);
		total += v[i];
		want[v[i] ? 64 - __builtin_clzll(v[i]) : 0]++;
		ok &= hist_record(&h, v[i]) == 0 &&
		      hist_record(i % 3 ? &a : &b, v[i]) == 0;
	}
	if (ok)
		qsort(v, N, sizeof(*v), u64_cmp);
	for (k = 0; ok && k < sizeof(qs) / sizeof(qs[0]); k++) {
		uint64_t exactv = v[(N * (uint64_t)qs[k] + 999) / 1000 - 1];
		uint64_t got = hist_percentile(&h, qs[k]);
		double err = exactv ? ((double)got - (double)exactv) / (double)exactv : (double)got;

		if (err < 0)
			err = -err;
		if (err > worst)
			worst = err;
	}
	tap_diag("worst relative error of p0.1..p100 over %d values: %.5f %%",
		 N, worst * 100);
	tap_ok(t, ok && worst <= HIST_REL_ERROR_PPM / 1e6,
	       "percentiles within the documented 0.79 %%");
	tap_ok(t, ok && h.n == N && h.total == total && h.min == v[0] &&
		       h.max == v[N - 1],
	       "count, total, min and max are exact");
	hist_log2(&h, log2);
	tap_ok(t, !memcmp(log2, want, sizeof(want)), "log2 buckets are exact");
	ok = hist_merge(&a, &b) == 0 && a.n == h.n && a.total == h.total &&
	     a.min == h.min && a.max == h.max;
	for (k = 0; ok && k < sizeof(qs) / sizeof(qs[0]); k++)
		ok = hist_percentile(&a, qs[k]) == hist_percentile(&h, qs[k]);
	tap_ok(t, ok, "a merge equals recording everything in one");
	ok = hist_record(&b, UINT64_MAX) == 0 && hist_record(&b, UINT64_MAX) == 0;
	tap_ok(t, ok && b.total == UINT64_MAX && hist_percentile(&b, 1000) == UINT64_MAX,
	       "the total saturates; the top bucket holds 2^64-1");
	hist_fini(&h);
	hist_fini(&a);
	hist_fini(&b);
	free(v);
}

/*
 * The bucket layout --stats=json writes: every bucket holds exactly the
 * values hist_bucket() says, in order, and half of it is at most 1/128 of
 * its least value (the 0.79 % bound, exactly 0.78125 %); buckets read
 * back (hist_add_bucket) give the same percentiles.
 */
static void test_hist_layout(struct tap *t)
{
	static const unsigned qs[] = { 1, 500, 900, 990, 999, 1000 };
	struct hist h = { 0 }, back = { 0 };
	uint64_t low, width, next = 0, count, x = 7;
	bool ok = true, bound = true;
	uint32_t i, index;
	size_t pos = 0, k;

	for (i = 0; i < HIST_NBUCKETS; i++) {
		hist_bucket(i, &low, &width);
		ok &= low == next && width;
		if (i >= HIST_SUB)
			bound &= width / 2 * 128 <= low;
		next = low + width;
		/* its first and last values land in it */
		ok &= hist_record(&h, low) == 0 && hist_record(&h, low + width - 1) == 0;
	}
	ok &= next == 0;	/* the last bucket ends at 2^64 */
	for (i = 0; hist_next(&h, &pos, &index, &count); i++)
		ok &= index == i && count == 2;
	tap_ok(t, ok && i == HIST_NBUCKETS,
	       "%u buckets cover 0 .. 2^64 in order, each value in its own", HIST_NBUCKETS);
	tap_ok(t, bound, "half a bucket is at most 1/128 of its values: 0.78125 %%");
	hist_fini(&h);
	for (k = 0; k < 50000; k++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		ok &= hist_record(&h, x >> (x % 64)) == 0;
	}
	pos = 0;
	while (ok && hist_next(&h, &pos, &index, &count))
		ok = hist_add_bucket(&back, index, count) == 0;
	back.n = h.n;
	back.total = h.total;
	back.min = h.min;
	back.max = h.max;
	for (k = 0; ok && k < sizeof(qs) / sizeof(qs[0]); k++)
		ok = hist_percentile(&back, qs[k]) == hist_percentile(&h, qs[k]);
	tap_ok(t, ok && hist_add_bucket(&back, HIST_NBUCKETS, 1) == -ERANGE,
	       "buckets read back give the same percentiles; no bucket beyond");
	hist_fini(&h);
	hist_fini(&back);
}

/* bucket index's count in h, by hist_next(); 0 if empty */
static uint64_t bucket_count(const struct hist *h, uint32_t want)
{
	uint64_t count;
	uint32_t index;
	size_t pos = 0;

	while (hist_next(h, &pos, &index, &count))
		if (index == want)
			return count;
	return 0;
}

/*
 * Counts past 255 carry into the 64-bit rest, and stay exact through a
 * growth of the groups, a merge and buckets read back.
 */
static void test_hist_carry(struct tap *t)
{
	struct hist h = { 0 }, a = { 0 }, b = { 0 }, back = { 0 };
	bool ok = true;
	size_t i;

	for (i = 0; i < 70000; i++)
		ok &= hist_record(&h, 100) == 0;
	for (i = 0; i < 300; i++)
		ok &= hist_record(&h, 5) == 0;
	/* groups below and above the ones held: the counts move */
	ok &= hist_record(&h, 1000000000000ull) == 0 && hist_record(&h, 64) == 0;
	tap_ok(t, ok && bucket_count(&h, 100) == 70000 &&
		       bucket_count(&h, 5) == 300 && h.n == 70302 &&
		       hist_percentile(&h, 4) == 5 && hist_percentile(&h, 500) == 100,
	       "70000 and 300 values in a bucket each, the groups grown: exact");
	for (i = 0; i < 200; i++)
		ok &= hist_record(&a, 7) == 0;
	for (i = 0; i < 100; i++)
		ok &= hist_record(&b, 7) == 0;
	ok &= hist_merge(&a, &b) == 0 && hist_merge(&b, &h) == 0;
	tap_ok(t, ok && bucket_count(&a, 7) == 300 && bucket_count(&b, 7) == 100 &&
		       bucket_count(&b, 100) == 70000,
	       "merges carry: 200 + 100 in one bucket, 70000 into an empty one");
	ok &= hist_add_bucket(&back, 7, 1ull << 40) == 0 &&
	      hist_add_bucket(&back, 7, 255) == 0 && hist_add_bucket(&back, 7, 1) == 0;
	tap_ok(t, ok && bucket_count(&back, 7) == (1ull << 40) + 256 &&
		       hist_add_bucket(&back, 7, UINT64_MAX - (1ull << 40) - 255) == -ERANGE &&
		       bucket_count(&back, 7) == (1ull << 40) + 256,
	       "buckets read back: 2^40 + 255 + 1 exact, past 2^64 refused");
	hist_fini(&h);
	hist_fini(&a);
	hist_fini(&b);
	hist_fini(&back);
}

int main(void)
{
	struct tap t = { 0 };

	tap_plan(13);
	test_hist(&t);
	test_hist_layout(&t);
	test_hist_carry(&t);
	return t.failed ? 1 : 0;
}
