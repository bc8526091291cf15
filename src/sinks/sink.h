/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Outputs. Each sink embeds struct sink first-class and recovers its own
 * state with container_of, as uftrace's dump formats do.
 */
#ifndef KTF_SINK_H
#define KTF_SINK_H

#include <stdbool.h>
#include <stddef.h>

#include "event.h"

struct diag;
struct outbuf;
struct render;
struct source;

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

struct sink;

struct sink_ops {
	const char *name;
	/* Before the first event: every input is open. */
	int (*begin)(struct sink *s, struct source **srcs, size_t n,
		     struct diag *d);
	/* One event of the merged stream. <0 stops the run (diag filled). */
	int (*event)(struct sink *s, const struct event *ev, struct diag *d);
	/* After the last event (also after an input failed). */
	int (*end)(struct sink *s, struct diag *d);
	void (*destroy)(struct sink *s);
};

struct counters;

struct sink {
	const struct sink_ops *ops;	/* borrowed, static */
	struct outbuf *out;		/* borrowed */
	struct render *render;		/* borrowed */
	/* --counters (counters.h), for the Chrome and stats sinks at end() */
	struct counters *counters;	/* borrowed */
	size_t ncounters;
	/* a note for standard error while the run goes on, or NULL */
	void (*warn)(void *arg, const char *msg);
	void *warn_arg;
};

struct sink *sink_text_create(struct outbuf *out, struct render *render);
/*
 * Chrome trace-event JSON, or with perfetto Perfetto's protobuf trace of
 * the same timeline (sink-chrome.c); mhz: -c, 0 for none.
 */
struct sink *sink_chrome_create(struct outbuf *out, struct render *render,
				double mhz, bool perfetto);
struct symtab;
/*
 * A summary (sink-stats.c): mode NULL or "table" aligned tables, "csv"
 * CSV sections, "hist" tables and log2 histograms, "json" one JSON
 * document; mhz: -c, 0 for none; syms: guest symbols (--guest-syms) or
 * NULL, borrowed; top: rows per exit table (--stats-top), 0 for the
 * defaults; sort: "time" (NULL), "count", "max" or "p99" (--stats-sort).
 */
struct sink *sink_stats_create(struct outbuf *out, struct render *render,
			       const char *mode, double mhz,
			       const struct symtab *syms, unsigned top,
			       const char *sort);

/*
 * --live --stats (sink-live-stats.c): the --stats report of each interval
 * at sink_live_stats_tick() (last: the run ends; the interval is the
 * last), redrawn in place when tty, one JSON object per line with json;
 * the whole run's report at end(). interval: its length in seconds.
 */
struct sink *sink_live_stats_create(struct outbuf *out, struct render *render,
				    const char *mode, double mhz,
				    const struct symtab *syms, unsigned top,
				    const char *sort, double interval,
				    bool tty);
int sink_live_stats_tick(struct sink *s, bool last, struct diag *d);

/*
 * Statistics saved by --stats=json, the n files paths, printed as one run
 * over all their traces would print them (stats-merge.c), mode, top and
 * sort as sink_stats_create() takes them. 0; -EINVAL with d naming the
 * file and where (unreadable, malformed, of another unit or bucket
 * layout); -ENOMEM.
 */
struct diag;
int stats_merge(struct outbuf *out, const char *mode, unsigned top,
		const char *sort, const char *const *paths, size_t n,
		struct diag *d);

/*
 * One row per exit (sink-exits.c): format "csv" (NULL) or "jsonl"; mhz:
 * -c; syms: --guest-syms or NULL; host: --host or NULL (each input's
 * recorded host name, else its name). All borrowed.
 */
struct sink *sink_exits_create(struct outbuf *out, struct render *render,
			       const char *format, double mhz,
			       const struct symtab *syms, const char *host);

static inline void sink_destroy(struct sink *s)
{
	if (s)
		s->ops->destroy(s);
}

#endif
