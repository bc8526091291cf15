// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The merge's order against a plain sort on (ts, input order, sequence):
 * inputs of scripted timestamps with many ties, 1 to 9 inputs, 17, 40 and 65
 * (trees of every shape, merge_fill()'s loop of depth 5, 6 and any depth), an input that fails half-way, one that steps back in time,
 * an event stamped UINT64_MAX, inputs that are empty; each read ahead
 * (two_events) or not, near 0 or near 2^62, in the packed tree all
 * through or made wide on the way (merge.h), their times mapped
 * (clock_map) or not; read one by one or in batches (merge_batched():
 * batches of 1 to 32 events, their records overwritten by the next
 * batch, held by the test in a batch of its own until MERGE_FLUSH or
 * full, and checked then, as main.c's run_merged() does).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "diag.h"
#include "merge.h"
#include "source.h"
#include "merge-fake.h"
#include "tap.h"

#define MAXEV 64
/* inputs at most: 65 makes a tree of 128 leaves, past merge_fill()'s
 * unrolled depths (MERGE_FILL_MAX leaves) */
#define MAXIN FAKE_MAXIN

/* how run() scripts its inputs */
enum {
	RUN_LOOK = 1,	/* read ahead (two_events) */
	RUN_BIG = 2,	/* times near 2^62, not 0 */
	RUN_NOMAX = 4,	/* no event stamped UINT64_MAX: the tree stays packed */
	RUN_MAP = 8,	/* TSC inputs on a ns timeline at 500 MHz: mapped
			 * (clock_map), times doubled; UINT64_MAX does not
			 * fit, its input stops there with an error */
	RUN_BATCHED = 16,	/* next_batch, merge_batched() */
};

/* the test's own batch of events, as run_merged() holds them */
#define HOLD 5

struct seen {
	unsigned src;
	uint64_t ts, seq;
	/* batched: as the stream says (merge_fill(), take()) */
	bool has_ts, relts_neg;
	uint64_t relts;
};

static struct seen seen_of(const struct event *ev)
{
	return (struct seen){ ev->src->index, ev->ts, ev->seq, ev->has_ts,
			      ev->relts_neg, ev->relts };
}

/*
 * The relts and spans of a batched merge's events as got, against those
 * computed anew over the stream
 */
static bool tally_ok(const struct seen *got, size_t ngot,
		     const struct clock_span *spans, size_t k)
{
	struct fake_stream want;
	uint64_t rel;
	bool neg, ok = true;
	size_t i;

	fake_stream_init(&want);
	for (i = 0; i < ngot; i++) {
		const struct seen *g = &got[i];

		rel = fake_stream_add(&want, g->src, g->ts, g->has_ts, &neg);
		ok = ok && g->relts == rel && g->relts_neg == neg;
	}
	for (i = 0; i < k; i++)
		ok = ok && !memcmp(&want.spans[i], &spans[i], sizeof(spans[i]));
	return ok;
}

static int cmp_seen(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* xorshift: scripted, repeatable */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Merge k fake inputs; compare with the sorted expectation. Input fail
 * (if < k) fails after half its events; back (if < k) has one step back,
 * which the merge reports once and keeps in input order.
 */
static bool run(struct tap *t, size_t k, uint64_t seed, size_t fail,
		size_t back, unsigned how)
{
	uint64_t off = how & RUN_BIG ? (uint64_t)1 << 62 : 0;
	struct source src[MAXIN], *srcs[MAXIN];
	struct fake fk[MAXIN];
	struct seen want[MAXIN * MAXEV], got[MAXIN * MAXEV + 1];
	size_t nwant = 0, ngot = 0, i, j, nerr = 0, nwarn = 0, experr = 0;
	struct clock *clock = clock_create();
	struct merge *m;
	struct event *ev, hold[HOLD], c;
	struct clock_span spans[MAXIN];
	struct merge_tally tally = { .spans = spans };
	struct diag d;
	uint64_t s = seed;
	bool ok, packed, batched;
	size_t nhold = 0, bad = 0, flushes = 0, filled = 0;
	uint64_t warn_seq = UINT64_MAX, back_seq = UINT64_MAX;
	static const size_t bmax[] = { 1, 2, 3, 5, 7, 32, 64 };
	int ret;

	memset(src, 0, sizeof(src));
	for (i = 0; i < MAXIN; i++)
		spans[i] = (struct clock_span){ UINT64_MAX, 0, 0 };
	for (i = 0; i < k; i++) {
		fk[i].n = next_rand(&s) % MAXEV;
		if (i == 2)
			fk[i].n = 0;	/* an empty input */
		fk[i].at = 0;
		fk[i].fail_at = i == fail ? fk[i].n / 2 : fk[i].n;
		for (j = 0; j < fk[i].n; j++) {	/* few values: many ties */
			fk[i].ts[j] = (j ? fk[i].ts[j - 1] : off) + next_rand(&s) % 3;
			/* a few without a stamp */
			fk[i].has_ts[j] = j % 7 != 3;
		}
		if (i == 0 && fk[i].n && !(how & RUN_NOMAX))
			fk[i].ts[fk[i].n - 1] = UINT64_MAX;
		fk[i].bmax = bmax[(i + seed) % 7];
		fk[i].kind = how & RUN_BATCHED ? FAKE_BATCH :
			     how & RUN_LOOK    ? FAKE_LOOK :
						 FAKE_PLAIN;
		fake_poison(&fk[i]);
		fake_source(&src[i], &fk[i], (unsigned)i);
		srcs[i] = &src[i];
	}
	if (back < k && fk[back].n > 4) {
		j = fk[back].n / 2;
		if (fk[back].ts[j] < off + 5)
			fk[back].ts[j] = off + 5;
		/* near 2^62, far below the others: the tree goes wide */
		fk[back].ts[j + 1] = 0;
	}
	for (i = 0; i < k; i++) {
		size_t upto = i == fail ? fk[i].n / 2 : fk[i].n;

		for (j = 0; j < upto; j++) {
			uint64_t ts = fk[i].ts[j];

			if (how & RUN_MAP) {
				if (ts > UINT64_MAX / 2) {
					experr++;
					break;
				}
				ts *= 2;
			}
			want[nwant++] = (struct seen){ .src = (unsigned)i,
						       .ts = ts, .seq = j };
		}
	}
	/* an input that steps back keeps its own order: sort the others around it */
	if (back >= k || fk[back].n <= 4)
		qsort(want, nwant, sizeof(*want), cmp_seen);

	clock->timeline = CLOCK_TSC;
	if (how & RUN_MAP) {
		clock->timeline = CLOCK_NS;
		clock->tsc_mhz = 500.0;
	}
	m = merge_create(srcs, k, clock);
	batched = (how & RUN_BATCHED) && merge_batched(m);
	for (;;) {
		if (batched) {
			/* the common case in a loop, as run_merged() takes it */
			size_t nf = merge_fill(m, hold + nhold, HOLD - nhold,
					       &tally);

			for (i = nhold; i < nhold + nf && ngot < MAXIN * MAXEV; i++)
				got[ngot++] = seen_of(&hold[i]);
			nhold += nf;
			filled += nf;
			if (nhold == HOLD) {
				for (i = 0; i < nhold; i++) {
					const uint64_t *r = hold[i].rec;

					bad += !r || *r != hold[i].seq;
				}
				nhold = 0;
				merge_flushed(m);
				continue;
			}
		}
		diag_init(&d);
		ret = batched ? merge_next_batch(m, &ev, &d) :
				merge_next(m, &ev, &d);
		if (batched && (ret == MERGE_EVENT || ret == MERGE_WARN)) {
			c = *ev;
			fake_take(&c, &tally);
		}
		if (batched && ret == MERGE_EVENT && nhold < HOLD)
			hold[nhold++] = c;
		if (batched && (ret != MERGE_EVENT || nhold == HOLD)) {
			/* the held events' records are still theirs */
			for (i = 0; i < nhold; i++) {
				const uint64_t *r = hold[i].rec;

				bad += !r || *r != hold[i].seq;
			}
			nhold = 0;
			flushes += ret == MERGE_FLUSH;
			/* not with an event to hold after them */
			if (ret != MERGE_WARN)
				merge_flushed(m);
		}
		if (ret == MERGE_FLUSH)
			continue;
		if (ret == MERGE_END)
			break;
		if (ret < 0) {
			nerr++;
			continue;
		}
		if (ret == MERGE_WARN) {
			nwarn++;
			warn_seq = ev->seq;
		}
		if (batched && ret == MERGE_WARN)
			hold[nhold++] = c;
		if (ngot < MAXIN * MAXEV)
			got[ngot++] = batched ? seen_of(&c) : seen_of(ev);
	}
	packed = m->packed;
	merge_destroy(m);
	clock_destroy(clock);
	if (back < k && fk[back].n > 4) {
		/* the input that stepped back: its events in its own order */
		struct seen *p = got;

		ok = nwarn == (k > 1);
		/* said with the first event of it that stepped back */
		for (j = 1; j < fk[back].n && back_seq == UINT64_MAX; j++)
			if (fk[back].ts[j] < fk[back].ts[j - 1])
				back_seq = j;
		ok = ok && (k < 2 || warn_seq == back_seq);
		for (i = 0, j = 0; i < ngot; i++)
			if (p[i].src == back)
				ok = ok && p[i].seq == j++;
		ok = ok && ngot == nwant;
	} else {
		ok = ngot == nwant && nwarn == 0;
		for (i = 0; ok && i < ngot; i++)
			ok = !cmp_seen(&got[i], &want[i]);
	}
	ok = ok && nerr == experr + (fail < k && fk[fail].n / 2 < fk[fail].n);
	/* batched: every held record whole; batches of more than one read */
	ok = ok && !bad && batched == ((how & RUN_BATCHED) && k > 1);
	/* batched: relts and spans as the stream says */
	ok = ok && (!batched || tally_ok(got, ngot, spans, k));
	/* (not when the first input's one event is UINT64_MAX: the tree is
	 * wide from the start, merge_fill() takes none) */
	if (batched && ngot > 2 * MAXEV && (fk[0].n > 1 || (how & RUN_NOMAX)))
		ok = ok && flushes > 0 && filled > 0;
	/* the form the tree ended in: packed unless a time did not fit */
	if (k > 1 && (how & RUN_NOMAX) && (!(how & RUN_BIG) || back >= k))
		ok = ok && packed;
	if (k > 1 && !(how & (RUN_NOMAX | RUN_MAP)) && fk[0].n)
		ok = ok && !packed;
	return tap_ok(t, ok, "%zu inputs, seed %llu%s%s%s%s%s%s%s: %zu events in order",
		      k, (unsigned long long)seed, fail < k ? ", one fails" : "",
		      back < k ? ", one steps back" : "",
		      how & RUN_LOOK ? ", read ahead" : "",
		      how & RUN_BIG ? ", near 2^62" : "",
		      how & RUN_NOMAX ? ", packed" : "",
		      how & RUN_MAP ? ", mapped" : "",
		      how & RUN_BATCHED ? ", batched" : "", ngot);
}

/*
 * Every input's first time near UINT64_MAX, then two of them step back
 * to small times: the tournament on the inputs' current events, a step
 * back said once per input (read ahead or not). The packed tree's range
 * around the first times had crossed 2^64, and a time below it wrapped
 * into it: 1000 ordered after UINT64_MAX - 7.
 */
static void huge_first(struct tap *t, enum fake_kind kind)
{
	static const uint64_t M = UINT64_MAX;
	static const uint64_t ts[3][3] = {
		{ M - 10, 1000, 2000 }, { M - 5, 1500, 2500 }, { M - 7, M - 6 }
	};
	static const size_t n[3] = { 3, 3, 2 };
	/* input, event, said with a step back */
	static const unsigned want[8][3] = {
		{ 0, 0, 0 }, { 0, 1, 1 }, { 0, 2, 0 }, { 2, 0, 0 },
		{ 2, 1, 0 }, { 1, 0, 0 }, { 1, 1, 1 }, { 1, 2, 0 },
	};
	static struct fake fk[3];
	struct source src[3], *srcs[3];
	struct clock *clock = clock_create();
	struct merge *m;
	struct event *ev;
	struct diag d;
	size_t i, j, got = 0;
	bool ok = clock != NULL;
	int ret;

	for (i = 0; i < 3; i++) {
		memset(&fk[i], 0, sizeof(fk[i]));
		fk[i].n = n[i];
		fk[i].fail_at = n[i];
		fk[i].bmax = 2;
		fk[i].kind = kind;
		for (j = 0; j < n[i]; j++) {
			fk[i].ts[j] = ts[i][j];
			fk[i].has_ts[j] = true;
		}
		fake_poison(&fk[i]);
		fake_source(&src[i], &fk[i], (unsigned)i);
		srcs[i] = &src[i];
	}
	if (ok)
		clock->timeline = CLOCK_TSC;
	m = ok ? merge_create(srcs, 3, clock) : NULL;
	ok = m != NULL;
	while (ok) {
		diag_init(&d);
		ret = merge_next(m, &ev, &d);
		if (ret == MERGE_END)
			break;
		ok = ret > 0 && got < 8 && ev->src->index == want[got][0] &&
		     ev->seq == want[got][1] &&
		     (ret == MERGE_WARN) == (want[got][2] != 0);
		got++;
	}
	merge_destroy(m);
	clock_destroy(clock);
	tap_ok(t, ok && got == 8,
	       "first times near UINT64_MAX, two inputs stepping back (%s): in order, %zu events",
	       kind == FAKE_LOOK ? "read ahead" : "one at a time", got);
}

int main(void)
{
	struct tap t = { 0 };
	static const size_t ks[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 17, 40, MAXIN };
	const size_t nk = sizeof(ks) / sizeof(ks[0]);
	size_t j, k;
	unsigned how;

	tap_plan(32 * (int)nk * 3 + 2);
	huge_first(&t, FAKE_PLAIN);
	huge_first(&t, FAKE_LOOK);
	for (how = 0; how < 32; how++) {
		for (j = 0; j < nk; j++) {
			k = ks[j];
			run(&t, k, 0x9e3779b97f4a7c15ull + k + how, 99, 99, how);
			run(&t, k, 0x2545f4914f6cdd1dull * k + how, k - 1, 99,
			    how);
			run(&t, k, 0x5851f42d4c957f2dull ^ (k + 16 * how), 99,
			    k / 2, how);
		}
	}
	return t.failed ? 1 : 0;
}
