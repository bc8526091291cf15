// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * merge-cost — what the merge itself costs an event, apart from reading
 * and printing, and the floor of its design on this machine.
 *
 * bench-table's merge row compares the tool merging 8 inputs with the 8
 * run one by one; the difference is what merging adds. This program
 * takes the merge alone:
 *
 *   merge     the project's batched merge (merge_batched(), merge_fill(),
 *             merge_next_batch(), driven as run-batch.c's run_merged()
 *             drives it) of 8 inputs of N events, less the same inputs
 *             read alone: the reads are fake (events made on the fly,
 *             times with random gaps, as gen-kvmtrace -r), no rendering
 *   keys      a loser tree of 8 sorted time arrays, keys only, all in L2:
 *             no events, no copy, no relts or spans; the chain from one
 *             winner to the next (its next key's load, the climb, the
 *             winner's index) is all there is
 *   2 chains  the same with the output cut in two at a time found by
 *             binary search, two trees climbed in one loop: two chains
 *             side by side, for the processor to overlap
 *   4         cut in four, four trees in one loop: no faster than two on
 *             this project's machines (2.5 ns both), so the chain no
 *             longer bounds it, the instructions of a step do
 *
 * Usage: merge-cost [N]  (events an input, default 1000000). Prints ns an
 * event of each, the best of 5 runs. The order each tree wrote is checked
 * once, off the clock: out of order, it says where and exits 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "diag.h"
#include "event.h"
#include "merge.h"
#include "source.h"

#define INPUTS 8
#define BATCH  128 /* run-batch.c's RUN_MERGED_BATCH */
#define RUNS   5

/* a fake input: n events, time gaps of 1 to 256 from an xorshift */
struct gen {
	uint64_t x, ts, seq, n;
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static inline uint64_t gen_step(struct gen *g)
{
	g->x ^= g->x << 13;
	g->x ^= g->x >> 7;
	g->x ^= g->x << 17;
	g->ts += 1 + (g->x & 255);
	return g->ts;
}

static int gen_batch(struct source *src, struct event *ev, size_t max,
		     struct diag *d)
{
	struct gen *g = src->priv;
	size_t i;

	(void)d;
	for (i = 0; i < max && g->seq < g->n; i++) {
		memset(&ev[i], 0, sizeof(ev[i]));
		ev[i].ts = ev[i].raw_ts = gen_step(g);
		ev[i].has_ts = true;
		ev[i].seq = g->seq++;
		ev[i].src = src;
	}
	return (int)i;
}

static int gen_next(struct source *src, struct event *ev, struct diag *d)
{
	return gen_batch(src, ev, 1, d);
}

static const struct source_ops gen_ops = {
	.kind = "fake",
	.next = gen_next,
	.next_batch = gen_batch,
	.two_events = true,
};

static struct gen gens[INPUTS];
static struct source srcs[INPUTS];

static void gen_reset(uint64_t n)
{
	for (unsigned i = 0; i < INPUTS; i++) {
		gens[i] = (struct gen){ .x = 0x9e3779b97f4a7c15ull * (i + 1),
					.ts = 1000,
					.n = n };
		memset(&srcs[i], 0, sizeof(srcs[i]));
		srcs[i].ops = &gen_ops;
		srcs[i].name = "fake";
		srcs[i].index = i;
		srcs[i].clock = CLOCK_TSC;
		srcs[i].priv = &gens[i];
	}
}

/* what the caller does with a batch: relts, spans (run_merged_take()) */
static uint64_t take(struct event *ev, size_t n, struct merge_tally *t)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += ev[i].ts + ev[i].relts;
	(void)t;
	return sum;
}

static void take_one(struct event *ev, struct merge_tally *t)
{
	ev->relts = event_relts(ev->ts, t->last_ts, &ev->relts_neg);
	t->last_ts = ev->ts;
	t->top = ev->ts > t->top ? ev->ts : t->top;
	clock_span_add(&t->spans[ev->src->index], ev->ts);
}

/* every input read alone in batches, as one by one */
static uint64_t read_alone(void)
{
	static struct event evs[BATCH];
	struct clock_span spans[INPUTS];
	struct merge_tally t = { .spans = spans };
	struct diag d;
	uint64_t sum = 0;
	int n;

	for (unsigned i = 0; i < INPUTS; i++) {
		spans[i] = (struct clock_span){ UINT64_MAX, 0, 0 };
		t.last_ts = t.top = 0;
		while ((n = gen_batch(&srcs[i], evs, BATCH, &d)) > 0) {
			for (int j = 0; j < n; j++)
				take_one(&evs[j], &t);
			sum += take(evs, (size_t)n, &t);
		}
	}
	return sum;
}

/* the batched merge, as run_merged() drives it */
static uint64_t merged(struct clock *clock)
{
	static struct event evs[BATCH];
	struct source *sp[INPUTS];
	struct clock_span spans[INPUTS];
	struct merge_tally t = { .spans = spans };
	struct merge *m;
	struct event *ev;
	struct diag d;
	uint64_t sum = 0;
	size_t n = 0;
	int ret;

	for (unsigned i = 0; i < INPUTS; i++) {
		sp[i] = &srcs[i];
		spans[i] = (struct clock_span){ UINT64_MAX, 0, 0 };
	}
	m = merge_create(sp, INPUTS, clock);
	if (!m || !merge_batched(m)) {
		fprintf(stderr, "merge-cost: the merge is not batched\n");
		exit(1);
	}
	diag_init(&d);
	for (;;) {
		n += merge_fill(m, evs + n, BATCH - n, &t);
		if (n < BATCH) {
			ret = merge_next_batch(m, &ev, &d);
			if (ret == MERGE_EVENT) {
				evs[n] = *ev;
				take_one(&evs[n++], &t);
				if (n < BATCH)
					continue;
			} else if (ret == MERGE_END) {
				sum += take(evs, n, &t);
				break;
			} else if (ret != MERGE_FLUSH) {
				fprintf(stderr, "merge-cost: %d: %s\n", ret,
					d.msg);
				exit(1);
			}
		}
		sum += take(evs, n, &t);
		n = 0;
		merge_flushed(m);
	}
	merge_destroy(m);
	return sum;
}

/* ------------------------------------------------ the design's floor */

#define KEYS 4096 /* an input's times: 8 x 32 KiB, in L2 */

static uint64_t times[INPUTS][KEYS + 2];

static inline uint64_t level(uint64_t *node, size_t p, uint64_t k)
{
	uint64_t t = node[p], lo = t < k ? t : k;

	node[p] = t < k ? k : t;
	return lo;
}

/* the loser tree of the keys (t << 3 | input) at pos[]; its winner */
static uint64_t build(uint64_t *node, const size_t *pos)
{
	uint64_t w[2 * INPUTS];

	for (size_t i = 0; i < INPUTS; i++)
		w[INPUTS + i] = times[i][pos[i]] << 3 | i;
	for (size_t p = INPUTS - 1; p > 0; p--) {
		uint64_t a = w[2 * p], b = w[2 * p + 1];

		w[p] = a < b ? a : b;
		node[p] = a < b ? b : a;
	}
	return w[1];
}

/* one merge step of a tree: the winner's next key climbs; the new winner */
#define STEP(node, nk, pos, cur, k, out)                                       \
	do {                                                                   \
		*(out)++ = (uint8_t)(cur);                                     \
		(k) = (nk)[cur];                                               \
		(pos)[cur]++;                                                  \
		(nk)[cur] = times[cur][(pos)[cur] + 1] << 3 | (cur);           \
		(k) = level(node, (INPUTS >> 1) + ((cur) >> 1), k);            \
		(k) = level(node, (INPUTS >> 2) + ((cur) >> 2), k);            \
		(k) = level(node, (INPUTS >> 3) + ((cur) >> 3), k);            \
		(cur) = (size_t)((k)&7);                                       \
	} while (0)

static uint8_t order[INPUTS * KEYS];

static void next_keys(uint64_t *nk, const size_t *pos)
{
	for (size_t i = 0; i < INPUTS; i++)
		nk[i] = times[i][pos[i] + 1] << 3 | i;
}

/* keys: one tree over all; events merged */
static size_t keys_one(void)
{
	uint64_t node[INPUTS], nk[INPUTS], k;
	size_t pos[INPUTS] = { 0 }, cur, n = INPUTS * (KEYS - 1);
	uint8_t *o = order;

	k = build(node, pos);
	cur = k & 7;
	next_keys(nk, pos);
	for (size_t j = 0; j < n; j++)
		STEP(node, nk, pos, cur, k, o);
	return n;
}

/*
 * where each input's keys reach the cut, in pos[] (binary search): how
 * many keys are below it
 */
static size_t keys_cut(size_t *pos, uint64_t cut)
{
	size_t below = 0;

	for (size_t i = 0; i < INPUTS; i++) {
		size_t lo = 0, hi = KEYS - 1;

		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if ((times[i][mid] << 3 | i) < cut)
				lo = mid + 1;
			else
				hi = mid;
		}
		pos[i] = lo;
		below += lo;
	}
	return below;
}

/* 2 chains: cut at input 0's middle time, two trees in one loop */
static size_t keys_two(void)
{
	uint64_t na[INPUTS], nb[INPUTS], ka, kb, ak[INPUTS], bk[INPUTS];
	size_t pa[INPUTS] = { 0 }, pb[INPUTS], ca, cb, low, high, n;
	uint8_t *oa = order, *ob;

	low = keys_cut(pb, times[0][KEYS / 2] << 3);
	high = INPUTS * (KEYS - 1) - low;
	ob = order + low;
	ka = build(na, pa);
	kb = build(nb, pb);
	ca = ka & 7;
	cb = kb & 7;
	next_keys(ak, pa);
	next_keys(bk, pb);
	n = low < high ? low : high;
	for (size_t j = 0; j < n; j++) {
		STEP(na, ak, pa, ca, ka, oa);
		STEP(nb, bk, pb, cb, kb, ob);
	}
	return 2 * n;
}

/*
 * 4 chains: cut at input 0's times at 1/4, 1/2 and 3/4, four trees in
 * one loop, as many steps each as the shortest part has events
 */
static size_t keys_four(void)
{
	uint64_t node[4][INPUTS], nk[4][INPUTS], k[4];
	size_t pos[4][INPUTS] = { { 0 } }, cur[4], start[5] = { 0 };
	size_t n = SIZE_MAX;
	uint8_t *o[4];

	for (unsigned c = 1; c < 4; c++)
		start[c] = keys_cut(pos[c], times[0][KEYS * c / 4] << 3);
	start[4] = INPUTS * (KEYS - 1);
	for (unsigned c = 0; c < 4; c++) {
		o[c] = order + start[c];
		if (start[c + 1] - start[c] < n)
			n = start[c + 1] - start[c];
		k[c] = build(node[c], pos[c]);
		cur[c] = k[c] & 7;
		next_keys(nk[c], pos[c]);
	}
	for (size_t j = 0; j < n; j++) {
		STEP(node[0], nk[0], pos[0], cur[0], k[0], o[0]);
		STEP(node[1], nk[1], pos[1], cur[1], k[1], o[1]);
		STEP(node[2], nk[2], pos[2], cur[2], k[2], o[2]);
		STEP(node[3], nk[3], pos[3], cur[3], k[3], o[3]);
	}
	return 4 * n;
}

/*
 * The order the last keys_one(), keys_two() (chains 2) or keys_four()
 * wrote, cut in parts at input 0's times as they cut it, steps a part
 * of them: each part's keys, taken from its inputs' positions at its
 * cut, never go down (else the figure is of no merge). Off the clock.
 */
static void keys_verify(unsigned chains, size_t steps)
{
	size_t start = 0, pos[INPUTS];
	uint64_t last, k;

	for (unsigned c = 0; c < chains; c++) {
		memset(pos, 0, sizeof(pos));
		if (c)
			start = keys_cut(pos, times[0][KEYS * c / chains] << 3);
		last = 0;
		for (size_t j = 0; j < steps; j++) {
			uint8_t i = order[start + j];

			k = times[i][pos[i]++] << 3 | i;
			if (k < last) {
				fprintf(stderr, "merge-cost: %u chains: part %u "
					"out of order at %zu\n", chains, c, j);
				exit(1);
			}
			last = k;
		}
	}
}

/* best: the least of it and t */
static void keep_best(double *best, double t)
{
	if (t < *best)
		*best = t;
}

/* keys (keys_one(), keys_two(), keys_four()) run reps times: s an event */
static double keys_time(size_t (*keys)(void), int reps)
{
	size_t done = 0;
	double t0 = now();

	for (int q = 0; q < reps; q++)
		done += keys();
	return (now() - t0) / (double)done;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
	double best[5] = { 1e9, 1e9, 1e9, 1e9, 1e9 }, t0, t1;
	struct clock *clock = clock_create();
	volatile uint64_t sink = 0;
	int reps = (int)(n * INPUTS / (INPUTS * KEYS)) + 1;

	if (!clock || n < 1)
		return 1;
	clock->timeline = CLOCK_TSC;
	for (size_t i = 0; i < INPUTS; i++) {
		struct gen g = { .x = 0x9e3779b97f4a7c15ull * (i + 1),
				 .ts = 1000,
				 .n = KEYS };

		for (size_t j = 0; j < KEYS; j++)
			times[i][j] = gen_step(&g);
		times[i][KEYS] = times[i][KEYS + 1] = UINT64_MAX >> 3;
	}
	/* each tree's order checked once, off the clock */
	keys_verify(1, keys_one());
	keys_verify(2, keys_two() / 2);
	keys_verify(4, keys_four() / 4);
	for (int r = 0; r < RUNS; r++) {
		gen_reset(n);
		t0 = now();
		sink += read_alone();
		t1 = now();
		keep_best(&best[0], t1 - t0);
		gen_reset(n);
		t0 = now();
		sink += merged(clock);
		t1 = now();
		keep_best(&best[1], t1 - t0);
		keep_best(&best[2], keys_time(keys_one, reps));
		keep_best(&best[3], keys_time(keys_two, reps));
		keep_best(&best[4], keys_time(keys_four, reps));
		sink += order[(size_t)r % sizeof(order)];
	}
	clock_destroy(clock);
	printf("merge alone: %.2f ns an event (8 x %llu events: merged "
	       "%.1f ms, read apart %.1f ms); the design's floor, keys "
	       "only: %.2f ns, in 2 chains %.2f ns, in 4 %.2f ns\n",
	       (best[1] - best[0]) / (double)(n * INPUTS) * 1e9,
	       (unsigned long long)n, best[1] * 1e3, best[0] * 1e3,
	       best[2] * 1e9, best[3] * 1e9, best[4] * 1e9);
	return sink == 42;
}
