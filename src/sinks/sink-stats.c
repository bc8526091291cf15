// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A summary of the (filtered) stream, as kvm_stat and xenalyze give one:
 *
 *  - events: the count of each event (name, or id for kvmtrace), per domain;
 *  - exits: per exit reason, the host time from each exit to the next entry
 *    on the same vCPU (exits.h): count, total, mean, min and max exact;
 *    p50 … p99.9 the nearest rank read from a log-linear histogram (hist.h,
 *    within 0.79 %), which --stats=json writes so that runs add up
 *    (stats-merge.c). "unpaired" counts exits that met another exit, or
 *    the end, before an entry (not in the times);
 *  - inputs: events and the first and last time stamp of each input.
 *
 * Time stamps print as the text output prints ts (ticks, ns, or seconds
 * with -c); durations in µs when the timeline converts to ns (-c MHZ on a
 * TSC timeline, or a ns clock), else in ticks. The headers say which.
 *
 * An aligned table by default; with csv one CSV section per table, each
 * with a header line, separated by empty lines.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "outbuf.h"
#include "pyfmt.h"
#include "render.h"
#include "stats.h"
#include "stats-func.h"

/* ------------------------------------------------------------- events */

static int stats_new_counter(struct sink_stats *c, enum domain dom,
			     bool has_id, uint64_t id, const char *name,
			     uint32_t *out)
{
	struct stats_counter *k;

	if (c->ncounters == c->cap_counters) {
		size_t cap = c->cap_counters ? c->cap_counters * 2 : 64;
		struct stats_counter *n = realloc(c->counters, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		c->counters = n;
		c->cap_counters = cap;
	}
	k = &c->counters[c->ncounters];
	memset(k, 0, sizeof(*k));
	k->domain = dom;
	k->has_id = has_id;
	k->id = id;
	if (name) {
		k->name = strdup(name);
		if (!k->name)
			return -ENOMEM;
	}
	*out = (uint32_t)c->ncounters++;
	return 0;
}

/* The counter of a type without an id: one per (domain, system:name). */
static int stats_type_counter(struct sink_stats *c, const struct event *ev,
			      uint32_t *out)
{
	const struct event_type *t = ev->type;
	const char *name = sink_event_name(c->sink.render, ev);
	char buf[256];
	size_t i;

	if (t->system && t->name)
		snprintf(buf, sizeof(buf), "%s:%s", t->system, t->name);
	else
		snprintf(buf, sizeof(buf), "%s", name ? name : "?");
	for (i = 0; i < c->ncounters; i++) {
		const struct stats_counter *k = &c->counters[i];

		if (!k->has_id && k->domain == ev->src->domain && k->name &&
		    !strcmp(k->name, buf)) {
			*out = (uint32_t)i;
			return 0;
		}
	}
	return stats_new_counter(c, ev->src->domain, false, t->id, buf, out);
}

/* stats_type() of a type not looked at yet. */
static __attribute__((noinline)) struct stats_type *
stats_type_new(struct sink_stats *c, const struct event *ev)
{
	struct stats_src *ss = &c->ssrcs[ev->src->index];
	uint32_t ti = ev->type->index;
	struct stats_type *st;
	void *grown;

	grown = ss->types;
	if (sink_grow(&grown, &ss->n, ti, sizeof(*ss->types)) < 0)
		return NULL;
	ss->types = grown;
	st = &ss->types[ti];
	if (!st->init) {
		sink_type_init(&st->st, ev->src, ev->type);
		st->named = -1;
		/* stats_func_event() looks at uftrace inputs alone */
		st->calls = !strcmp(ev->src->ops->kind, "uftrace");
		if (!ev->type->has_id &&
		    stats_type_counter(c, ev, &st->counter) < 0)
			return NULL;
		st->init = true;
	}
	return st;
}

static inline struct stats_type *stats_type(struct sink_stats *c,
					    const struct event *ev)
{
	struct stats_src *ss = &c->ssrcs[ev->src->index];
	uint32_t ti = ev->type->index;

	if (__builtin_expect(ti < ss->n && ss->types[ti].init, 1))
		return &ss->types[ti];
	return stats_type_new(c, ev);
}

/*
 * The entry of id_hits for key (id << 1 | domain): kvmtrace's ids are a
 * class above bit 16 and a number below 32 (KVM_TRC_*), the class moved
 * next to the number, so that no two of them share an entry.
 */
static inline size_t stats_id_slot(uint64_t key)
{
	return (size_t)(key ^ (key >> 11 & ~(uint64_t)0x3f)) % STATS_ID_HITS;
}

/* The counter of an event with an id, made on first sight. */
static __attribute__((noinline)) int stats_count_id(struct sink_stats *c,
						    const struct event *ev,
						    uint64_t key)
{
	uint32_t i = sink_map_find(&c->id_map, key);

	if (i == SINK_MAP_EMPTY && c->id_map.n >= SINK_MAXKEYS) {
		/* beyond the cap: one counter for the rest */
		if (c->counter_other == SINK_MAP_EMPTY &&
		    stats_new_counter(c, ev->src->domain, false, 0,
				      "(other event ids)", &c->counter_other) < 0)
			return -ENOMEM;
		i = c->counter_other;
	} else if (i == SINK_MAP_EMPTY) {
		if (stats_new_counter(c, ev->src->domain, true, ev->type->id,
				      sink_event_name(c->sink.render, ev),
				      &i) < 0 ||
		    sink_map_add(&c->id_map, key, i) < 0)
			return -ENOMEM;
	}
	c->id_hits[stats_id_slot(key)].key = key;
	c->id_hits[stats_id_slot(key)].counter = i;
	c->counters[i].count++;
	return 0;
}

static inline int stats_count(struct sink_stats *c,
			      const struct stats_type *st,
			      const struct event *ev)
{
	uint64_t key;
	struct stats_id_hit *hit;

	if (!ev->type->has_id) {
		c->counters[st->counter].count++;
		return 0;
	}
	key = ev->type->id << 1 | ev->src->domain;
	hit = &c->id_hits[stats_id_slot(key)];
	if (__builtin_expect(hit->key == key && key, 1)) {
		c->counters[hit->counter].count++;
		return 0;
	}
	return stats_count_id(c, ev, key);
}

static int sink_stats_event(struct sink *s, const struct event *ev,
			    struct diag *d)
{
	struct sink_stats *c = container_of(s, struct sink_stats, sink);
	struct stats_src *ss = &c->ssrcs[ev->src->index];
	struct stats_type *st = stats_type(c, ev);
	int ret = 0;

	if (!st || stats_count(c, st, ev) < 0 ||
	    (st->calls && stats_func_event(c->func, ev) < 0))
		return stats_nomem(d);
	c->events++;
	ss->events++;
	if (ev->has_ts) {
		if (!ss->any_ts) {
			ss->any_ts = true;
			ss->first = ss->last = ev->ts;
		} else if (ev->ts > ss->last) {
			ss->last = ev->ts;
		} else if (ev->ts < ss->first) {
			ss->first = ev->ts;
		}
	}
	/* exits_event(), the callbacks called directly */
	switch (sink_role(&st->st, ev)) {
	case SINK_EXIT:
		ret = exits_exit_with(&c->x, &st->st, ev, stats_exit_begin,
				      stats_exit_end);
		break;
	case SINK_ENTRY:
		ret = exits_entry_with(&c->x, &st->st, ev, stats_exit_end);
		break;
	case SINK_CALL:
		ret = stats_guest_call(c, st, ev);
		break;
	default:
		ret = exits_kind(&c->x, &st->st, ev);
	}
	return ret < 0 ? stats_nomem(d) : 0;
}

static int sink_stats_begin(struct sink *s, struct source **srcs, size_t n,
			    struct diag *d)
{
	struct sink_stats *c = container_of(s, struct sink_stats, sink);

	c->srcs = srcs;
	c->nsrcs = n;
	c->ssrcs = calloc(n ? n : 1, sizeof(*c->ssrcs));
	if (!c->ssrcs)
		return stats_nomem(d);
	sink_time_init(&c->time, s->render ? s->render->timeline : CLOCK_TSC,
		       c->mhz);
	/* without --guest-syms, a guest input's own symbols (kallsyms) */
	for (size_t i = 0; !c->syms && !c->sym_src && i < n; i++)
		if (srcs[i]->domain == DOMAIN_GUEST && srcs[i]->ops->func_at)
			c->sym_src = srcs[i];
	c->x.ops = &stats_exits_ops;
	c->x.time = &c->time;
	c->x.syms = c->syms;
	c->x.sym_src = c->sym_src;
	return 0;
}
static int sink_stats_end(struct sink *s, struct diag *d)
{
	struct sink_stats *c = container_of(s, struct sink_stats, sink);

	if (stats_report(c) < 0)
		return stats_nomem(d);
	exits_warn_unpaired(&c->x, "--stats", s->warn, s->warn_arg);
	return 0;
}

static void sink_stats_destroy(struct sink *s)
{
	struct sink_stats *c;
	size_t i;

	if (!s)
		return;
	c = container_of(s, struct sink_stats, sink);
	for (i = 0; c->ssrcs && i < c->nsrcs; i++)
		free(c->ssrcs[i].types);
	free(c->ssrcs);
	for (i = 0; i < c->ncounters; i++)
		free(c->counters[i].name);
	free(c->counters);
	sink_map_fini(&c->id_map);
	stats_exits_fini(c);
	stats_longest_fini(c);
	stats_guest_fini(c);
	exits_fini(&c->x);
	stats_func_destroy(c->func);
	stats_merge_free(c->merged);
	free(c);
}

static const struct sink_ops sink_stats_ops = {
	.name = "stats",
	.begin = sink_stats_begin,
	.event = sink_stats_event,
	.end = sink_stats_end,
	.destroy = sink_stats_destroy,
};

struct sink *sink_stats_create(struct outbuf *out, struct render *render,
			       const char *mode, double mhz,
			       const struct symtab *syms, unsigned top,
			       const char *sort)
{
	struct sink_stats *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->sink.ops = &sink_stats_ops;
	c->sink.out = out;
	c->sink.render = render;
	c->mode = STATS_TABLE;
	if (mode && !strcmp(mode, "csv"))
		c->mode = STATS_CSV;
	else if (mode && !strcmp(mode, "hist"))
		c->mode = STATS_HIST;
	else if (mode && !strcmp(mode, "json"))
		c->mode = STATS_JSON;
	c->csv = c->mode == STATS_CSV || c->mode == STATS_JSON;
	c->top = top;
	c->cap_longest = top ? top : STATS_LONGEST;
	if (sort && !strcmp(sort, "count"))
		c->sort = STATS_SORT_COUNT;
	else if (sort && !strcmp(sort, "max"))
		c->sort = STATS_SORT_MAX;
	else if (sort && !strcmp(sort, "p99"))
		c->sort = STATS_SORT_P99;
	c->mhz = mhz;
	c->syms = syms;
	c->counter_other = SINK_MAP_EMPTY;
	c->func = stats_func_create();
	if (!c->func) {
		free(c);
		return NULL;
	}
	return &c->sink;
}
