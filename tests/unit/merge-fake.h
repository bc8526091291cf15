/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fake inputs for the merge's tests (tests/unit/test-merge.c) and its fuzz
 * target (tests/fuzz/fuzz-merge.c): scripted times, read one at a time
 * (next) or in batches (next_batch), and records that show a read over
 * them: each read poisons the records source.h lets it overwrite. And
 * what run-batch.c's run_merged() sets of an event merge_next_batch()
 * hands out, which the tests do as it does.
 */
#ifndef KTF_TESTS_MERGE_FAKE_H
#define KTF_TESTS_MERGE_FAKE_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "clock.h"
#include "diag.h"
#include "event.h"
#include "merge.h"
#include "source.h"

#define FAKE_MAXEV 256
/* a record read over: what a rec borrowed too long would show */
#define FAKE_POISON 0xdeadbeefdeadbeefull

enum fake_kind {
	FAKE_BATCH = 0,	/* next_batch, and next() two_events */
	FAKE_LOOK,	/* next() two_events: read ahead */
	FAKE_PLAIN,	/* next() alone (trace.dat's kind) */
};

struct fake {
	uint64_t ts[FAKE_MAXEV];
	bool has_ts[FAKE_MAXEV];	/* without: a kvmtrace record without TSC */
	size_t n;
	size_t at;
	size_t fail_at;		/* next() fails here; n or more: never */
	size_t bmax;		/* next_batch gives at most this many */
	enum fake_kind kind;
	/* the records of the reads still whole; the others poisoned */
	uint64_t rec[FAKE_MAXEV];
};

static inline void fake_poison(struct fake *f)
{
	for (size_t i = 0; i < FAKE_MAXEV; i++)
		f->rec[i] = FAKE_POISON;
}

static inline int fake_read(struct source *src, struct event *ev,
			    struct diag *d)
{
	struct fake *f = src->priv;

	if (f->at == f->fail_at && f->at < f->n) {
		diag_set(d, "%s %u: fails", src->name, src->index);
		f->at = f->n;
		return -EIO;
	}
	if (f->at >= f->n)
		return 0;
	memset(ev, 0, sizeof(*ev));
	ev->ts = ev->raw_ts = f->ts[f->at];
	ev->has_ts = f->has_ts[f->at];
	ev->seq = f->at++;
	ev->src = src;
	return 1;
}

/* next(): with two_events, the event before stays whole */
static inline int fake_next(struct source *src, struct event *ev,
			    struct diag *d)
{
	struct fake *f = src->priv;
	/* the last event's record, if next() gave it (a batch's is not
	 * kept: two_events is next()'s) */
	size_t last = (f->at + 1) % 2;
	bool keep = f->kind != FAKE_PLAIN && f->at && f->rec[last] == f->at - 1;
	int ret;

	fake_poison(f);
	if (keep)
		f->rec[last] = f->at - 1;
	ret = fake_read(src, ev, d);
	if (ret > 0) {
		f->rec[ev->seq % 2] = ev->seq;
		ev->rec = &f->rec[ev->seq % 2];
	}
	return ret;
}

/*
 * As source.h says: up to max events, each whole until the next call; a
 * batch stops before the record next() fails on
 */
static inline int fake_next_batch(struct source *src, struct event *ev,
				  size_t max, struct diag *d)
{
	struct fake *f = src->priv;
	size_t i, lim = max < f->bmax ? max : f->bmax;
	int ret;

	fake_poison(f);
	for (i = 0; i < lim; i++) {
		if (f->at == f->fail_at && f->at < f->n && i)
			break;
		ret = fake_read(src, &ev[i], d);
		if (ret <= 0)
			return i ? (int)i : ret;
		f->rec[i] = ev[i].seq;
		ev[i].rec = &f->rec[i];
	}
	return (int)i;
}

static const struct source_ops fake_ops[] = {
	[FAKE_BATCH] = { .kind = "fake", .next = fake_next, .two_events = true,
			 .next_batch = fake_next_batch },
	[FAKE_LOOK] = { .kind = "fake", .next = fake_next, .two_events = true },
	[FAKE_PLAIN] = { .kind = "fake", .next = fake_next },
};

/* the fake f as input i of a merge, in src */
static inline void fake_source(struct source *src, struct fake *f,
			       unsigned i)
{
	memset(src, 0, sizeof(*src));
	src->ops = &fake_ops[f->kind];
	src->name = "fake";
	src->index = i;
	src->clock = CLOCK_TSC;
	src->priv = f;
}

/*
 * What run_merged() sets of an event merge_next_batch() hands out, as
 * merge_fill() does of its own (run_merged_take()): relts
 * (run_set_relts()), the span, the stream's top
 */
static inline void fake_take(struct event *ev, struct merge_tally *t)
{
	struct clock_span *sp = &t->spans[ev->src->index];

	ev->relts_neg = false;
	ev->relts = 0;
	if (!ev->has_ts)
		return;
	ev->relts = event_relts(ev->ts, t->last_ts, &ev->relts_neg);
	t->last_ts = ev->ts;
	t->top = ev->ts > t->top ? ev->ts : t->top;
	clock_span_add(sp, ev->ts);
}

/*
 * inputs a merge of the tests takes at most: a tree of 128 leaves, past
 * merge_fill()'s copies with a depth (MERGE_FILL_MAX leaves)
 */
#define FAKE_MAXIN 65

/*
 * The stream a batched merge gave, worked out anew from its events in
 * order: what each one's relts must be, and each input's span, as the
 * tests check merge_fill()'s and fake_take()'s against
 */
struct fake_stream {
	uint64_t last;			/* the last time stamp */
	struct clock_span spans[FAKE_MAXIN];
};

/* spans without events as run-batch.c's run_spans_init() leaves them */
static inline void fake_stream_init(struct fake_stream *s)
{
	s->last = 0;
	for (size_t i = 0; i < FAKE_MAXIN; i++)
		s->spans[i] = (struct clock_span){ UINT64_MAX, 0, 0 };
}

/* input src's next event in the stream: its relts (and *neg) */
static inline uint64_t fake_stream_add(struct fake_stream *s, unsigned src,
				       uint64_t ts, bool has_ts, bool *neg)
{
	uint64_t rel;

	*neg = false;
	if (!has_ts)
		return 0;
	rel = event_relts(ts, s->last, neg);
	s->last = ts;
	clock_span_add(&s->spans[src], ts);
	return rel;
}

#endif
