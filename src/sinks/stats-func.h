/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-function statistics of uftrace inputs for --stats, with the figures
 * of `uftrace report`: calls, total and self time, min/avg/max per call.
 */
#ifndef KTF_STATS_FUNC_H
#define KTF_STATS_FUNC_H

#include <stddef.h>
#include <stdint.h>

struct event;
struct outbuf;
struct sink_time;
struct stats_func;

/* A row of the table: the calls of one function, by name. */
struct stats_func_row {
	char *name;		/* owned */
	uint64_t calls;
	uint64_t total;		/* not counting recursive calls */
	uint64_t rec;		/* the recursive ones */
	uint64_t self;
	uint64_t min;
	uint64_t max;
};

enum stats_func_format {
	STATS_FUNC_TEXT = 0,
	STATS_FUNC_CSV,
	STATS_FUNC_JSON,	/* a member ,"functions":{…} of the report */
};

struct stats_func *stats_func_create(void);
void stats_func_destroy(struct stats_func *f);
/* Account one event (others than uftrace ones pass). 0 or -ENOMEM. */
int stats_func_event(struct stats_func *f, const struct event *ev);
/*
 * The rows, once the events are in: calls still open end at their task's
 * last event, names without a call go, sorted by total time (the largest
 * first, then by name). Borrowed from f. 0 or -ENOMEM.
 */
int stats_func_rows(struct stats_func *f, const struct stats_func_row **rows,
		    size_t *n);
/*
 * The "Functions" table (text or CSV, preceded by an empty line; or a
 * JSON member); nothing when no uftrace function was seen. 0 or -errno.
 */
int stats_func_write(struct stats_func *f, struct outbuf *o,
		      enum stats_func_format fmt, const struct sink_time *t);

#endif
