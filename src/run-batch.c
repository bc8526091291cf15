// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The event loops that pass events on in batches (run.h): one input read
 * by its next_batch, or several merged from batches of their own. The
 * same output, messages and exit status as main.c's loop of one event at
 * a time.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "filter.h"
#include "merge.h"
#include "outbuf.h"
#include "render.h"
#include "run.h"
#include "sink.h"
#include "source.h"

void run_progress_show(struct run_progress *p)
{
	struct timespec now;
	double secs;

	clock_gettime(CLOCK_MONOTONIC, &now);
	secs = (double)(now.tv_sec - p->start.tv_sec) +
	       (double)(now.tv_nsec - p->start.tv_nsec) / 1e9;
	if (secs < 1.0)
		return;
	fprintf(stderr, "\rkvmtrace_format: %" PRIu64 " events, %.1f s, %.2f M events/s ",
		p->events, secs, (double)p->events / secs / 1e6);
	p->shown = true;
}

void run_progress_end(struct run_progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
}

/*
 * One input, not live: its reader's batches go to the sink without a
 * call of the merge per event, and as text straight to the renderer,
 * without the sink's call either; an input on another clock (a guest, a
 * TSC input on a nanosecond timeline) has each batch's times mapped first
 * (run_maps()), and a filter's events are taken out of each batch
 * (run_feed()). The same output and messages as run_events()'s loop.
 */
bool run_batched(const struct run *r)
{
	const struct source *s = r->nsrcs == 1 ? r->srcs[0] : NULL;

	return s && s->ops->next_batch && !r->opt.live;
}

/* The input's times need clock_map() (as merge_create() decides it) */
static bool run_maps(const struct run *r)
{
	const struct source *s = r->srcs[0];

	return s->domain != DOMAIN_HOST || s->clock != r->clock->timeline;
}

/*
 * ev[0 .. n - 1] to a sink other than text, as run_events() gives them
 * one by one; *done as render_events() says it
 */
static int run_sink_events(struct run *r, const struct event *ev, size_t n,
			   size_t *done, struct diag *d)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = r->sink->ops->event(r->sink, &ev[i], d);
		if (ret < 0) {
			*done = i;
			return ret;
		}
		if (r->out->closed)
			break;
	}
	*done = i;
	return 0;
}

#define RUN_BATCH 64
/*
 * run_merged()'s: a merge_fill() call and the merge's other calls each
 * batch, 45 k calls for 1.6 M events at 64 (a slot's batch ends every
 * 128 events or so, MERGE_BATCH, and the batch goes then as well)
 */
#define RUN_MERGED_BATCH 128

/*
 * The spans of evs[0 .. n - 1]'s times for the alignment report
 * (clock_span_add()); a span that has no event yet holds first
 * UINT64_MAX and last 0 from run_merged() on (clock.c reads neither
 * while events is 0)
 */
static void run_spans(struct run *r, const struct event *evs, size_t n)
{
	struct clock_span *sp;
	uint64_t ts;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!evs[i].has_ts)
			continue;
		sp = &r->spans[evs[i].src->index];
		ts = evs[i].ts;
		sp->events++;
		sp->first = ts < sp->first ? ts : sp->first;
		sp->last = ts > sp->last ? ts : sp->last;
	}
}

/* Where a batch goes, and what the stream as printed so far says */
struct run_feed {
	struct run_progress *progress;
	uint64_t last_ts;	/* run_set_relts() */
	bool rendered;		/* an event went to the sink */
	bool text;		/* to render_events(), not a sink's call */
	/*
	 * relts are set: by the reader (source_ops.batch_relts), one input
	 * alone; by the merge (merge_fill(), run_merged_take()); or no one
	 * reads them (render_needs_relts())
	 */
	bool relts_set;
	/* the batch's times are in r->spans, as f->save holds them before it */
	bool spans;
	struct clock_span *save;	/* with spans: r->nsrcs of them */
	/*
	 * --events, --vcpu, --pid, --time-range: the events of a batch it
	 * lets through are copied to pass (the array the batch is in stays
	 * as it is: a reader's, kvmtrace.stamped), each with its place in
	 * the batch (orig), and go on together; relts are then set between
	 * them (relts_set false), as run_events() sets them
	 */
	struct filter *filter;
	struct event *pass;		/* with filter: RUN_MERGED_BATCH */
	uint32_t *orig;			/* with filter: RUN_MERGED_BATCH */
};

/*
 * evs[0 .. n - 1] to the sink (those the filter lets through): -1 to go
 * on, or the exit status to return (a rule-file error before any line,
 * bad data, the reader gone)
 */
static int run_feed(struct run *r, struct run_feed *f, struct event *evs,
		    size_t n)
{
	uint64_t last = f->last_ts;
	struct event *out = evs;
	size_t i, m = n, done, upto;
	struct diag d;
	int ret;

	if (f->filter) {
		/* in the stream's order: the filter counts what it sees */
		for (i = m = 0; i < n; i++) {
			if (filter_match(f->filter, &evs[i])) {
				f->pass[m] = evs[i];
				f->orig[m++] = (uint32_t)i;
			}
		}
		out = f->pass;
	}
	if (!m)
		return -1;
	if (!f->relts_set) {
		/* last in a register, not reloaded after each event's stores */
		for (i = 0; i < m; i++)
			run_set_relts(&out[i], &last);
		f->last_ts = last;
	}
	diag_init(&d);
	if (f->text)
		ret = render_events(r->render, out, m, r->out, &done, &d);
	else
		ret = run_sink_events(r, out, m, &done, &d);
	/* the failed event's place in the batch */
	upto = ret < 0 && f->filter ? f->orig[done] : done;
	if (ret < 0 && f->spans && upto + 1 < n) {
		/* the events run_events() would have counted: up to the
		 * failed one, those the filter left out too */
		memcpy(r->spans, f->save, r->nsrcs * sizeof(*f->save));
		run_spans(r, evs, upto + 1);
	}
	if (ret < 0) {
		run_progress_end(f->progress);
		run_say("%s", d.msg);
		/* as run_events(): a rule-file error before any line */
		if (!f->rendered && !done && ret == -EINVAL) {
			r->out->len = 0;
			return EXIT_USAGE;
		}
		return EXIT_DATA;
	}
	f->rendered = true;
	if (r->out->closed)
		return 0;
	run_progress_add(f->progress, m);
	return -1;
}

/*
 * A batch begins: the spans as they are before its events are counted,
 * should the sink stop in it (run_feed())
 */
static inline void run_feed_save(struct run *r, struct run_feed *f)
{
	if (f->spans)
		memcpy(f->save, r->spans, r->nsrcs * sizeof(*f->save));
}

/*
 * spans[0 .. r->nsrcs - 1] ready for run_spans(): one without events
 * holds first UINT64_MAX and last 0, so that the first time is the
 * smaller (clock.c reads neither while events is 0)
 */
static void run_spans_init(const struct run *r, struct clock_span *spans)
{
	for (size_t i = 0; i < r->nsrcs; i++) {
		if (!spans[i].events) {
			spans[i].first = UINT64_MAX;
			spans[i].last = 0;
		}
	}
}

int run_batches(struct run *r, struct run_progress *progress, bool *bad_data,
		bool spans)
{
	struct source *src = r->srcs[0];
	const bool map = run_maps(r);
	struct filter *flt = r->opt.filter;
	struct run_feed f = {
		.progress = progress,
		.text = !r->opt.chrome && !r->opt.stats && !r->opt.exits,
		/*
		 * the reader set relts, or no rule prints it; a mapped
		 * input's are set on the mapped times, a filtered one's
		 * between the events it lets through (run_feed()), its
		 * reader's left out (source.merged)
		 */
		.relts_set = (src->ops->batch_relts && !map && !flt) ||
			     !r->render || !render_needs_relts(r->render),
		.spans = spans,
		.filter = flt,
	};
	struct clock_span save = { 0 };	/* f.save: one input, r->nsrcs 1 */
	struct event evs[RUN_BATCH], pass[RUN_BATCH];
	uint32_t orig[RUN_BATCH];
	struct diag d, derr;
	int n, j, ret;
	bool failed;

	src->merged = map || flt;
	f.save = &save;
	f.pass = pass;
	f.orig = orig;
	if (spans)
		run_spans_init(r, r->spans);
	memset(evs, 0, sizeof(evs));
	for (;;) {
		diag_init(&d);
		n = src->ops->next_batch(src, evs, RUN_BATCH, &d);
		if (n == 0)
			return -1;
		if (n < 0) {
			/* the input is finished */
			run_progress_end(progress);
			run_say("%s", d.msg);
			*bad_data = true;
			return -1;
		}
		failed = false;
		for (j = 0; map && j < n; j++) {
			if (clock_map(r->clock, src, &evs[j]) < 0) {
				/* the input stops after the events before
				 * it: its time is past what ns can say */
				diag_init(&derr);
				clock_map_error(r->clock, src, &evs[j], &derr);
				failed = true;
				n = j;
				break;
			}
		}
		/* a guest's spans, for the alignment report */
		run_feed_save(r, &f);
		if (spans)
			run_spans(r, evs, (size_t)n);
		ret = run_feed(r, &f, evs, (size_t)n);
		if (ret >= 0)
			return ret;
		if (failed) {
			run_progress_end(progress);
			run_say("%s", derr.msg);
			*bad_data = true;
			return -1;
		}
	}
}

/*
 * What merge_fill() sets of its own events (merge_tally), set on e, which
 * the merge handed out (merge_next_batch()): its relts, its time in its
 * input's span, the stream's top
 */
static void run_merged_tally(struct run *r, const struct run_feed *f,
			     struct merge_tally *t, struct event *e)
{
	run_set_relts(e, &t->last_ts);
	if (f->spans)
		run_spans(r, e, 1);
	if (e->has_ts && e->ts > t->top)
		t->top = e->ts;
}

/* ev, which the merge handed out, to e of a batch, tallied */
static void run_merged_take(struct run *r, struct run_feed *f,
			    struct merge_tally *t, struct event *e,
			    const struct event *ev)
{
	*e = *ev;
	run_merged_tally(r, f, t, e);
}

/*
 * run_merged() once the one input left is read an event at a time
 * (merge_tail_slow()): each event goes to the sink as the merge hands it
 * out, tallied in place (run_merged_tally()), not copied into a batch
 * first (its slot's event is the merge's and stays whole until the next
 * read); messages, damaged records and the end as in run_merged().
 * A batch of one restores no span on a failure (run_feed()): no
 * run_feed_save(). Returns as run_merged().
 */
static int run_merged_tail(struct run *r, struct run_feed *f,
			   struct merge_tally *t, bool skip_damaged,
			   bool *bad_data)
{
	struct merge *m = r->merge;
	struct event *ev;
	struct diag d;
	int ret, status;

	for (;;) {
		diag_init(&d);
		ret = merge_next_batch(m, &ev, &d);
		if (ret == MERGE_END)
			return -1;
		if (ret == MERGE_FLUSH) {
			merge_flushed(m);
			continue;
		}
		if (ret < 0 || ret == MERGE_WARN) {
			run_progress_end(f->progress);
			run_say("%s", d.msg);
		}
		if (ret < 0) {
			/* that input is finished */
			*bad_data = true;
			continue;
		}
		if (!ev->damaged || !skip_damaged) {
			run_merged_tally(r, f, t, ev);
			status = run_feed(r, f, ev, 1);
			if (status >= 0)
				return status;
		}
		merge_flushed(m);
	}
}

/*
 * The merge's events, copied into a batch (their rec and type borrowed
 * from the readers), to the sink when it is full, when a slot of the
 * merge is to read over the records of events in it (MERGE_FLUSH), and
 * before any message, which so comes after the events before it, as in
 * run_events()'s loop. merge_fill()'s events are not checked for damage:
 * next_batch never gives a damaged one.
 */
int run_merged(struct run *r, struct run_progress *progress, bool *bad_data,
	       bool spans)
{
	struct run_feed f = {
		.progress = progress,
		.text = !r->opt.chrome && !r->opt.stats && !r->opt.exits,
		/* the merge's, on the whole stream: with a filter, between
		 * the events it lets through (run_feed()) */
		.relts_set = !r->opt.filter,
		.spans = spans,
		.filter = r->opt.filter,
	};
	struct merge_tally tally = { 0 };
	/* a damaged record: only the reference tool's line shows it */
	bool skip_damaged = r->rules_file || r->opt.chrome || r->opt.stats ||
			    r->opt.exits;
	struct merge *m = r->merge;
	struct event evs[RUN_MERGED_BATCH], pass[RUN_MERGED_BATCH], *ev;
	uint32_t orig[RUN_MERGED_BATCH];
	size_t n = 0;
	struct diag d;
	int ret, status = -1;

	f.pass = pass;
	f.orig = orig;
	f.save = calloc(r->nsrcs, sizeof(*f.save));
	if (!f.save) {
		run_say("out of memory");
		return EXIT_DATA;
	}
	/* the merge counts spans; without them (not met: two inputs or
	 * more), in save, which is then nothing else */
	tally.spans = spans ? r->spans : f.save;
	run_spans_init(r, tally.spans);
	diag_init(&d);
	for (;;) {
		/* one input left, read an event at a time: no batch */
		if (!n && merge_tail_slow(m)) {
			status = run_merged_tail(r, &f, &tally, skip_damaged,
						 bad_data);
			break;
		}
		if (!n)
			run_feed_save(r, &f);
		/* the common case, a loop of its own; what it leaves, here */
		n += merge_fill(m, evs + n, RUN_MERGED_BATCH - n, &tally);
		if (n == RUN_MERGED_BATCH || (n && merge_slow_out(m))) {
			/* full, or its last event's input reads over it
			 * next (below) */
			ret = MERGE_EVENT;
		} else {
			ret = merge_next_batch(m, &ev, &d);
			if (__builtin_expect(ret == MERGE_EVENT, 1)) {
				if (__builtin_expect(ev->damaged, 0) &&
				    skip_damaged)
					continue;
				run_merged_take(r, &f, &tally, &evs[n++], ev);
				/* an input read an event at a time reads
				 * over it next: the batch goes now, not at
				 * the MERGE_FLUSH that read would give */
				if (n < RUN_MERGED_BATCH &&
				    !merge_slow_out(m))
					continue;
			}
		}
		status = run_feed(r, &f, evs, n);
		if (status >= 0)
			break;
		n = 0;
		/* every event handed out is consumed, unless one comes now */
		if (ret != MERGE_WARN)
			merge_flushed(m);
		if (ret == MERGE_EVENT || ret == MERGE_FLUSH)
			continue;
		if (ret == MERGE_END)
			break;
		run_progress_end(progress);
		run_say("%s", d.msg);
		diag_init(&d);
		if (ret < 0) {
			/* that input is finished; the others go on */
			*bad_data = true;
			continue;
		}
		/* MERGE_WARN: the event that stepped back */
		if (!ev->damaged || !skip_damaged) {
			run_feed_save(r, &f);
			run_merged_take(r, &f, &tally, &evs[n++], ev);
		}
	}
	free(f.save);
	return status;
}
