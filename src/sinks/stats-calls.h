/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-function statistics of uftrace inputs for --stats, with the figures
 * of `uftrace report`: calls, total and self time, min/avg/max per call.
 */
#ifndef KTF_STATS_CALLS_H
#define KTF_STATS_CALLS_H

struct event;
struct outbuf;
struct sink_time;
struct stats_calls;

enum stats_calls_format {
	STATS_CALLS_TEXT = 0,
	STATS_CALLS_CSV,
	STATS_CALLS_JSON,	/* a member ,"functions":{…} of the report */
};

struct stats_calls *stats_calls_create(void);
void stats_calls_destroy(struct stats_calls *f);
/* Account one event (others than uftrace ones pass). 0 or -ENOMEM. */
int stats_calls_event(struct stats_calls *f, const struct event *ev);
/*
 * The "Functions" table (text or CSV, preceded by an empty line; or a
 * JSON member); nothing when no uftrace function was seen. 0 or -errno.
 */
int stats_calls_write(struct stats_calls *f, struct outbuf *o,
		      enum stats_calls_format fmt, const struct sink_time *t);

#endif
