/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-function statistics of uftrace inputs for --stats, with the figures
 * of `uftrace report`: calls, total and self time, min/avg/max per call.
 */
#ifndef KTF_STATS_FUNC_H
#define KTF_STATS_FUNC_H

struct event;
struct outbuf;
struct sink_time;
struct stats_func;

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
 * The "Functions" table (text or CSV, preceded by an empty line; or a
 * JSON member); nothing when no uftrace function was seen. 0 or -errno.
 */
int stats_func_write(struct stats_func *f, struct outbuf *o,
		      enum stats_func_format fmt, const struct sink_time *t);

#endif
