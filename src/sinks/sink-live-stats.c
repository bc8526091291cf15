// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --live --stats: the --stats tables of each interval as it ends, and at
 * the end those of the whole run. Two stats sinks (sink-stats.c) take every
 * event: one for the run, one for the interval, made anew at each tick;
 * the interval's report is written to a buffer of its own and then out:
 * on a terminal in place of the previous one (ANSI: cursor home, clear),
 * else one block per interval after a "# interval" line, and with json
 * one object per line, {"interval":N,...,"stats":{the --stats document}}.
 * The run's report at the end is the one --stats prints.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "outbuf.h"
#include "sink.h"

struct sink_live_stats {
	struct sink sink;
	struct sink *whole;	/* owned: the run */
	struct sink *cur;	/* owned: this interval */
	struct outbuf *tmp;	/* owned: cur's report */
	struct outbuf *wtmp;	/* owned: whole's report */
	struct source **srcs;	/* borrowed, from begin */
	size_t nsrcs;
	/* what sink_stats_create() is given, for each new interval */
	const char *mode;
	double mhz;
	const struct symtab *syms;
	unsigned top;
	const char *sort;
	double interval;	/* seconds */
	bool tty;		/* redraw in place */
	bool json;
	uint64_t n;		/* intervals ended */
	uint64_t events;	/* in this interval */
};

static int sls_nomem(struct diag *d)
{
	diag_set(d, "out of memory");
	return -ENOMEM;
}

/* A new interval's sink. */
static int sls_new(struct sink_live_stats *l, struct diag *d)
{
	l->tmp->len = 0;
	l->cur = sink_stats_create(l->tmp, l->sink.render, l->mode, l->mhz,
				   l->syms, l->top, l->sort);
	if (!l->cur)
		return sls_nomem(d);
	l->events = 0;
	return l->cur->ops->begin(l->cur, l->srcs, l->nsrcs, d);
}

static int sls_begin(struct sink *s, struct source **srcs, size_t n,
		     struct diag *d)
{
	struct sink_live_stats *l = container_of(s, struct sink_live_stats,
						 sink);
	int ret;

	l->srcs = srcs;
	l->nsrcs = n;
	l->whole->counters = s->counters;
	l->whole->ncounters = s->ncounters;
	ret = l->whole->ops->begin(l->whole, srcs, n, d);
	return ret < 0 ? ret : sls_new(l, d);
}

static int sls_event(struct sink *s, const struct event *ev, struct diag *d)
{
	struct sink_live_stats *l = container_of(s, struct sink_live_stats,
						 sink);
	int ret = l->whole->ops->event(l->whole, ev, d);

	if (ret < 0)
		return ret;
	l->events++;
	return l->cur->ops->event(l->cur, ev, d);
}

static int sls_printf(struct outbuf *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int sls_printf(struct outbuf *o, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	return outbuf_put(o, buf, (size_t)n < sizeof(buf) ? (size_t)n
							 : sizeof(buf) - 1);
}

/* b onto o, on one line when json: JSON strings hold no raw new line. */
static int sls_copy(struct sink_live_stats *l, struct outbuf *o,
		    const struct outbuf *b)
{
	size_t i, from = 0;
	int ret = 0;

	if (!l->json)
		return outbuf_put(o, b->buf, b->len);
	for (i = 0; !ret && i <= b->len; i++) {
		if (i < b->len && b->buf[i] != '\n')
			continue;
		ret = outbuf_put(o, b->buf + from, i - from);
		from = i + 1;
	}
	return ret;
}

int sink_live_stats_tick(struct sink *s, bool last, struct diag *d)
{
	struct sink_live_stats *l = container_of(s, struct sink_live_stats,
						 sink);
	double from = (double)l->n * l->interval;
	struct outbuf *o = s->out;
	int ret;

	ret = l->cur->ops->end(l->cur, d);
	if (ret < 0)
		return ret;
	if (l->json) {
		ret = sls_printf(o, "{\"interval\":%" PRIu64 ",\"from_s\":%.3f,\"seconds\":%.3f,\"last\":%s,\"events\":%" PRIu64 ",\"stats\":",
				 l->n, from, l->interval,
				 last ? "true" : "false", l->events);
		if (!ret)
			ret = sls_copy(l, o, l->tmp);
		if (!ret)
			ret = outbuf_put(o, "}\n", 2);
	} else {
		if (l->tty)
			ret = outbuf_put(o, "\033[H\033[2J", 7);
		if (!ret)
			ret = sls_printf(o, "# interval %" PRIu64 ": %.3f s + %.3f s%s, %" PRIu64 " event%s\n",
					 l->n, from, l->interval,
					 last ? " (the last)" : "", l->events,
					 l->events == 1 ? "" : "s");
		if (!ret)
			ret = outbuf_put(o, l->tmp->buf, l->tmp->len);
		if (!ret && !l->tty)
			ret = outbuf_put(o, "\n", 1);
	}
	sink_destroy(l->cur);
	l->cur = NULL;
	l->n++;
	if (ret < 0)
		return sls_nomem(d);
	if (outbuf_flush(o) < 0 && !o->closed) {
		diag_set(d, "cannot write: %s", strerror(-o->error));
		return -EIO;
	}
	return last ? 0 : sls_new(l, d);
}

static int sls_end(struct sink *s, struct diag *d)
{
	struct sink_live_stats *l = container_of(s, struct sink_live_stats,
						 sink);

	int ret;

	/* the whole run's warnings are the run's (not each interval's) */
	l->whole->warn = s->warn;
	l->whole->warn_arg = s->warn_arg;
	ret = l->whole->ops->end(l->whole, d);
	if (ret < 0)
		return ret;
	if (!l->json && sls_printf(s->out, "# the whole run\n") < 0)
		return sls_nomem(d);
	if (sls_copy(l, s->out, l->wtmp) < 0 ||
	    (l->json && outbuf_put(s->out, "\n", 1) < 0))
		return sls_nomem(d);
	return 0;
}

static void sls_destroy(struct sink *s)
{
	struct sink_live_stats *l = container_of(s, struct sink_live_stats,
						 sink);

	sink_destroy(l->whole);
	sink_destroy(l->cur);
	outbuf_destroy(l->tmp);
	outbuf_destroy(l->wtmp);
	free(l);
}

static const struct sink_ops sink_live_stats_ops = {
	.name = "live-stats",
	.begin = sls_begin,
	.event = sls_event,
	.end = sls_end,
	.destroy = sls_destroy,
};

struct sink *sink_live_stats_create(struct outbuf *out, struct render *render,
				    const char *mode, double mhz,
				    const struct symtab *syms, unsigned top,
				    const char *sort, double interval,
				    bool tty)
{
	struct sink_live_stats *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->sink.ops = &sink_live_stats_ops;
	l->sink.out = out;
	l->sink.render = render;
	l->mode = mode;
	l->mhz = mhz;
	l->syms = syms;
	l->top = top;
	l->sort = sort;
	l->interval = interval;
	l->json = mode && !strcmp(mode, "json");
	l->tty = tty && !l->json;
	l->tmp = outbuf_create(-1);
	l->wtmp = outbuf_create(-1);
	if (l->wtmp)
		l->whole = sink_stats_create(l->wtmp, render, mode, mhz, syms,
					     top, sort);
	if (!l->whole || !l->tmp) {
		sls_destroy(&l->sink);
		return NULL;
	}
	return &l->sink;
}
