/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One run of the program (main.c): what it holds from the command line to
 * the last line, and the runs other than reading traces through the merge,
 * in run-modes.c: --live's source and its hooks, and --stats over saved
 * statistics.
 */
#ifndef KTF_RUN_H
#define KTF_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "diag.h"
#include "event.h"
#include "options.h"
#include "outfile.h"

struct clock;
struct clock_span;
struct counters;
struct merge;
struct outbuf;
struct render;
struct rules;
struct sink;
struct source;
struct symtab;

#define EXIT_DATA 1
#define EXIT_USAGE 2

struct run {
	struct options opt;
	char *rules_file;	/* owned: -f NAME as found (formats-path.h) */
	struct rules *rules;
	struct source **srcs;
	size_t nsrcs;
	struct clock *clock;
	struct render *render;
	struct outbuf *out;
	struct sink *sink;
	struct merge *merge;
	struct clock_span *spans;	/* owned: per input, for report_alignment() */
	struct outfile outf;	/* -o */
	struct symtab *syms;	/* --guest-syms */
	struct counters *counters;	/* owned: --counters */
	size_t ncounters;
};

/*
 * A message on standard error after "kvmtrace_format: ", with control
 * bytes other than new lines and tabs escaped (main.c).
 */
void run_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * --live: the one source, the kernel's buffers (or a trace.dat's pages
 * with --live-replay), opened into r. Returns 0, an exit status, or
 * -ENOMEM.
 */
int run_open_live(struct run *r, struct diag *d);
/*
 * --stats A.json B.json …: saved statistics merged (stats-merge.c) and
 * written. Returns an exit status, or -1 when the inputs are traces.
 */
int run_saved(struct run *r);

/*
 * The progress line on a terminal (--progress is implied there): events
 * read, seconds, events a second, once a second has gone.
 */
struct run_progress {
	bool on;
	uint64_t events;
	struct timespec start;
	bool shown;
};

void run_progress_show(struct run_progress *p);
void run_progress_end(struct run_progress *p);

/* One more event: the line every 2^18 of them, once a second has gone */
static inline void run_progress_tick(struct run_progress *p)
{
	if (p->on && !(++p->events & 0x3ffff))
		run_progress_show(p);
}

/* n more events: the line when they pass a multiple of 2^18 */
static inline void run_progress_add(struct run_progress *p, size_t n)
{
	uint64_t before = p->events;

	p->events += n;
	if (p->on && (before >> 18) != (p->events >> 18))
		run_progress_show(p);
}

/*
 * relts as the 2008 tool computed it, on the stream as printed: ticks
 * since the previous event with a time stamp; 0 for the first, for events
 * without one, and after a time stamp of 0.
 */
static inline void run_set_relts(struct event *ev, uint64_t *last)
{
	ev->relts_neg = false;
	ev->relts = 0;
	if (!ev->has_ts)
		return;
	ev->relts = event_relts(ev->ts, *last, &ev->relts_neg);
	*last = ev->ts;
}

/*
 * The event loops that pass events on in batches (run-batch.c), in place
 * of main.c's one event at a time, where nothing needs that: not live; a
 * filter takes its events out of each batch. run_batched(): one input
 * read by its next_batch (its times mapped to the timeline's when it
 * needs it); run_batches() reads it, spans as run_merged()'s.
 * run_merged(): several inputs, each read by its next_batch, merged
 * (merge_batched() said yes); spans: count the events' times for the
 * alignment report. Both return -1 when the inputs ended (the sink's end
 * is the caller's), or the exit status.
 */
bool run_batched(const struct run *r);
int run_batches(struct run *r, struct run_progress *progress,
		bool *bad_data, bool spans);
int run_merged(struct run *r, struct run_progress *progress, bool *bad_data,
	       bool spans);

#endif
