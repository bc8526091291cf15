/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --live: the kernel's ring buffers read as they fill, from a tracefs
 * instance of our own (src/sources/live/). A source like the others: its
 * events are trace.dat events (the same libtraceevent records, fields and
 * `trace-cmd report` line as the trace.dat reader's), one at a time as the
 * pages come; next() blocks on the buffers when they are empty.
 *
 * --live-replay=TRACE.dat feeds the ring-buffer pages of a trace.dat
 * through the same page path instead (tests; what --live would have shown
 * of a recording), its intervals cut on the events' time.
 */
#ifndef KTF_LIVE_H
#define KTF_LIVE_H

#include <stdbool.h>
#include <stdint.h>

struct source;
struct diag;

struct live_config {
	const char *events;	/* borrowed: --events, "sys:event" globs
				 * joined by commas; NULL: kvm:* */
	double duration;	/* seconds; 0: until a signal */
	double interval;	/* seconds between tick() calls; 0: none */
	const char *replay;	/* borrowed: a trace.dat to replay; NULL */
	int out_fd;		/* the output: the run ends when it closes */
	/*
	 * Before next() blocks on empty buffers: flush the output. Returns
	 * true when the output is gone (the run ends).
	 */
	bool (*idle)(void *arg);
	/*
	 * An interval ended: every event read before it has been handed out
	 * (live: read by the interval's end on the monotonic clock; replay:
	 * stamped before end, its start + k * interval). end is on the
	 * events' clock; last: the run ends. Returns 0 or a negative errno
	 * (the run stops, d filled).
	 */
	int (*tick)(void *arg, uint64_t end, bool last, struct diag *d);
	/* Before the first event: its time stamp (--time-range origin). */
	void (*start)(void *arg, uint64_t ts);
	void *arg;
};

#ifdef HAVE_TRACEFS
extern const struct source_ops source_live_ops;
#endif

#ifdef HAVE_TRACEFS
/*
 * A live source (opened by source_open(): the instance is made and its
 * events enabled; on failure -EMEDIUMTYPE with d saying what to do: not
 * root, no tracefs, an unknown event; nothing left behind). cfg is
 * copied; its strings are borrowed.
 */
struct source *live_source_create(const struct live_config *cfg);
/*
 * The run is over: tracing stops, and src->note gets what the kernel
 * dropped per CPU (overruns), for the caller to print. The instance goes
 * with source_destroy(), whatever ended the run.
 */
void live_source_stop(struct source *src);
#else
static inline struct source *live_source_create(const struct live_config *c)
{
	(void)c;
	return NULL;
}
static inline void live_source_stop(struct source *src)
{
	(void)src;
}
#endif

#endif
