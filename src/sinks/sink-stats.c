// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A summary of the (filtered) stream, as kvm_stat and xenalyze give one:
 *
 *  - events: the count of each event (name, or id for kvmtrace), per domain;
 *  - exits: per exit reason, the host time from each exit to the next entry
 *    on the same vCPU: count, total, mean, min, max and p99. Exact: every
 *    duration is kept (8 bytes per exit) and sorted at the end; p99 is the
 *    nearest rank, the ceil(0.99 n)-th smallest. "unpaired" counts exits
 *    that met another exit, or the end, before an entry (not in the times);
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
#include "sink-util.h"
#include "sink.h"
#include "stats-func.h"

#define STATS_MAXCOLS	10
#define STATS_CELL	256	/* bytes of a table cell */

struct stats_cell {
	size_t len;
	char s[STATS_CELL];
};

struct stats_counter {
	enum domain domain;
	bool has_id;
	uint64_t id;
	char *name;		/* owned; NULL: an id without a name */
	uint64_t count;
};

struct stats_type {
	bool init;
	int8_t named;		/* exits: reasons have names (-1: not known) */
	struct sink_type st;
	uint32_t counter;	/* types without has_id */
};

struct stats_src {
	struct stats_type *types;	/* owned, by event_type.index */
	uint32_t n;
	uint64_t events;
	bool any_ts;
	uint64_t first, last;
};

/* One exit reason. */
struct stats_reason {
	uint64_t key;		/* stats_reason_key() */
	char *name;		/* owned; NULL: "exit 0x…" */
	/*
	 * The host time of each paired exit: n values in durs, or while n is
	 * 1 in one (most reasons of a random stream are seen once).
	 */
	uint64_t *durs;		/* owned */
	uint64_t one;
	uint64_t n;
	uint64_t cap;
	uint64_t total;
	uint64_t unpaired;
};

/* reason value, kvm:kvm_exit (not a kvmtrace VMEXIT), domain */
static inline uint64_t stats_reason_key(uint64_t value, bool tracedat,
					enum domain d)
{
	return (value & ((1ull << 61) - 1)) << 2 | (uint64_t)tracedat << 1 |
	       (uint64_t)d;
}

struct sink_stats {
	struct sink sink;
	bool csv;
	double mhz;
	struct sink_time time;
	struct source **srcs;		/* borrowed (begin) */
	size_t nsrcs;
	struct stats_src *ssrcs;	/* owned, by source.index */
	struct stats_counter *counters;	/* owned */
	size_t ncounters;
	size_t cap_counters;
	struct sink_map id_map;		/* (id, domain) -> counter */
	struct stats_reason *reasons;	/* owned */
	size_t nreasons;
	size_t cap_reasons;
	struct sink_map reason_map;	/* stats_reason_key() -> index */
	struct sink_pairs pairs;
	uint64_t events;
	uint64_t entries_unpaired;	/* an entry without an exit before */
	bool any_id;			/* the events table has an id column */
	struct stats_func *func;	/* owned: uftrace functions */
};

static int stats_nomem(struct diag *d)
{
	diag_set(d, "out of memory");
	return -ENOMEM;
}

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

static struct stats_type *stats_type(struct sink_stats *c,
				     const struct event *ev)
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
		if (!ev->type->has_id &&
		    stats_type_counter(c, ev, &st->counter) < 0)
			return NULL;
		st->init = true;
	}
	return st;
}

static int stats_count(struct sink_stats *c, const struct stats_type *st,
		       const struct event *ev)
{
	uint64_t key;
	uint32_t i;

	if (!ev->type->has_id) {
		c->counters[st->counter].count++;
		return 0;
	}
	key = ev->type->id << 1 | ev->src->domain;
	i = sink_map_find(&c->id_map, key);
	if (i == SINK_MAP_EMPTY) {
		if (stats_new_counter(c, ev->src->domain, true, ev->type->id,
				      sink_event_name(c->sink.render, ev),
				      &i) < 0 ||
		    sink_map_add(&c->id_map, key, i) < 0)
			return -ENOMEM;
	}
	c->counters[i].count++;
	return 0;
}

/* -------------------------------------------------------------- exits */

#define STATS_NOREF UINT32_MAX

/*
 * The index of the reason with key, made on first sight; ev (an exit, or
 * NULL) names it.
 */
static int stats_reason(struct sink_stats *c, const struct stats_type *st,
			const struct event *ev, uint64_t key, uint32_t *out)
{
	uint32_t i = sink_map_find(&c->reason_map, key);
	struct stats_reason *r;
	char name[128];
	void *grown;

	if (i != SINK_MAP_EMPTY) {
		*out = i;
		return 0;
	}
	grown = c->reasons;
	if (sink_reserve(&grown, &c->cap_reasons, c->nreasons, sizeof(*c->reasons)) < 0)
		return -ENOMEM;
	c->reasons = grown;
	r = &c->reasons[c->nreasons];
	memset(r, 0, sizeof(*r));
	r->key = key;
	if (ev && sink_reason_name(c->sink.render, ev, &st->st, key >> 2, name,
				   sizeof(name))) {
		r->name = strdup(name);
		if (!r->name)
			return -ENOMEM;
	}
	i = (uint32_t)c->nreasons;
	if (sink_map_add(&c->reason_map, key, i) < 0) {
		free(r->name);
		return -ENOMEM;
	}
	c->nreasons++;
	*out = i;
	return 0;
}

/* The reason of v's pending exit. */
static int stats_pending_reason(struct sink_stats *c, struct sink_vcpu *v,
				struct stats_reason **out)
{
	if (v->ref == STATS_NOREF &&
	    stats_reason(c, NULL, NULL, v->reason, &v->ref) < 0)
		return -ENOMEM;
	*out = &c->reasons[v->ref];
	return 0;
}

static int stats_exit(struct sink_stats *c, struct stats_type *st,
		      const struct event *ev)
{
	struct sink_vcpu *v = sink_pairs_get(&c->pairs, &st->st, ev);
	struct stats_reason *r;
	uint64_t value;

	if (!v)
		return -ENOMEM;
	if (v->pending) {
		if (stats_pending_reason(c, v, &r) < 0)
			return -ENOMEM;
		r->unpaired++;
	}
	v->pending = false;
	if (sink_field_u64(ev, st->st.reason, &value) < 0)
		value = 0;
	v->reason = stats_reason_key(value, !ev->type->has_id,
				     ev->src->domain);
	v->ref = STATS_NOREF;
	if (st->named < 0)
		st->named = sink_reason_named(c->sink.render, ev, &st->st);
	/*
	 * A reason that can have a name needs this event to get it. Others
	 * are looked up at the entry: the map's slot is on its way by then,
	 * however many reasons a (random) stream holds.
	 */
	if (st->named) {
		if (stats_reason(c, st, ev, v->reason, &v->ref) < 0)
			return -ENOMEM;
	} else {
		sink_map_prefetch(&c->reason_map, v->reason);
	}
	v->pending = true;
	v->exit_ts = ev->ts;
	return 0;
}

static int stats_entry(struct sink_stats *c, const struct stats_type *st,
		       const struct event *ev)
{
	struct sink_vcpu *v = sink_pairs_get(&c->pairs, &st->st, ev);
	struct stats_reason *r;
	uint64_t dur;

	if (!v)
		return -ENOMEM;
	if (!v->pending) {
		c->entries_unpaired++;
		return 0;
	}
	if (stats_pending_reason(c, v, &r) < 0)
		return -ENOMEM;
	v->pending = false;
	dur = ev->ts > v->exit_ts ? ev->ts - v->exit_ts : 0;
	r->total += dur;
	if (!r->n) {
		r->one = dur;
		r->n = 1;
		return 0;
	}
	if (r->n >= r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 8;
		uint64_t *n = realloc(r->durs, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		if (!r->cap)
			n[0] = r->one;
		r->durs = n;
		r->cap = cap;
	}
	r->durs[r->n++] = dur;
	return 0;
}

static int sink_stats_event(struct sink *s, const struct event *ev,
			    struct diag *d)
{
	struct sink_stats *c = container_of(s, struct sink_stats, sink);
	struct stats_src *ss = &c->ssrcs[ev->src->index];
	struct stats_type *st = stats_type(c, ev);
	int ret = 0;

	if (!st || stats_count(c, st, ev) < 0 ||
	    stats_func_event(c->func, ev) < 0)
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
	switch (sink_role(&st->st, ev)) {
	case SINK_EXIT:
		ret = stats_exit(c, st, ev);
		break;
	case SINK_ENTRY:
		ret = stats_entry(c, st, ev);
		break;
	default:
		break;
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
	return 0;
}

/* -------------------------------------------------------------- units */

static void stats_u64(struct stats_cell *cell, uint64_t v)
{
	cell->len = pyfmt_u64_dec(cell->s, v);
}

/* A string into a cell, cut to fit. */
static void stats_str(struct stats_cell *cell, const char *s)
{
	size_t n = strlen(s);

	cell->len = n < STATS_CELL ? n : STATS_CELL - 1;
	memcpy(cell->s, s, cell->len);
}

static void stats_hexid(struct stats_cell *cell, uint64_t id)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[16];
	size_t n = 0;

	do {
		tmp[n++] = hex[id & 15];
		id >>= 4;
	} while (id || n < 8);
	cell->s[0] = '0';
	cell->s[1] = 'x';
	for (cell->len = 2; n; n--)
		cell->s[cell->len++] = tmp[n - 1];
}

/* A duration in the stats unit: µs with three decimals, or ticks. */
static void stats_dur(const struct sink_stats *c, struct stats_cell *cell,
		      uint64_t ticks)
{
	if (c->time.ns)
		cell->len = sink_put_us(cell->s, sink_time_ns(&c->time, ticks));
	else
		cell->len = pyfmt_u64_dec(cell->s, ticks);
}

/* x / n rounded half up, exact. */
static uint64_t stats_div_round(unsigned __int128 x, uint64_t n)
{
	return (uint64_t)((2 * x + n) / (2 * (unsigned __int128)n));
}

/* The mean of n durations: µs with three decimals, or ticks with one. */
static void stats_mean(const struct sink_stats *c, struct stats_cell *cell,
		       uint64_t total, size_t n)
{
	uint64_t x;

	if (c->time.ns) {
		x = stats_div_round(sink_time_ns(&c->time, total), n);
		cell->len = sink_put_us(cell->s, x);
		return;
	}
	x = stats_div_round((unsigned __int128)total * 10, n);
	cell->len = pyfmt_u64_dec(cell->s, x / 10);
	cell->s[cell->len++] = '.';
	cell->s[cell->len++] = (char)('0' + x % 10);
}

/* 100 * count / all with two decimals. */
static void stats_percent(struct stats_cell *cell, uint64_t count,
			  uint64_t all)
{
	uint64_t x = all ? stats_div_round((unsigned __int128)count * 10000,
					   all)
			 : 0;

	cell->len = pyfmt_u64_dec(cell->s, x / 100);
	cell->s[cell->len++] = '.';
	cell->s[cell->len++] = (char)('0' + x / 10 % 10);
	cell->s[cell->len++] = (char)('0' + x % 10);
}

/* A time stamp as the text output's %(ts) prints it. */
static void stats_ts(const struct sink_stats *c, struct stats_cell *cell,
		     uint64_t ts)
{
	static const struct pyfmt_spec repr = { .conv = 'r', .width = -1,
						.prec = -1 };

	if (c->time.timeline == CLOCK_TSC && c->mhz > 0)
		cell->len = (size_t)pyfmt_float(cell->s, &repr,
						(double)ts / (c->mhz * 1000000.0));
	else
		cell->len = pyfmt_u64_dec(cell->s, ts);
}

static const char *stats_dur_unit(const struct sink_stats *c)
{
	return c->time.ns ? "us" : "ticks";
}

static const char *stats_ts_unit(const struct sink_stats *c)
{
	if (c->time.timeline == CLOCK_TSC && c->mhz > 0)
		return "s";
	return c->time.timeline == CLOCK_NS ? "ns" : "ticks";
}

static const char *stats_domain(enum domain d)
{
	return d == DOMAIN_GUEST ? "guest" : "host";
}

/* ------------------------------------------------------------- tables */


/*
 * A table: row() formats a row into fixed cells, nothing is kept per row.
 * The text form measures the columns first: with measure(), which finds
 * the widest cell of each column from the largest values without
 * formatting every row, or else by formatting every row twice.
 */
struct stats_table {
	size_t ncols;
	const char *const *head;	/* borrowed */
	const char *right;		/* 'r' per right-aligned column */
	size_t nrows;
	void (*row)(const struct sink_stats *c, size_t i,
		    struct stats_cell *cells);
	void (*measure)(const struct sink_stats *c, size_t *w);
};

static int stats_put(struct outbuf *o, const char *s, size_t n)
{
	return outbuf_put(o, s, n) < 0 ? -ENOMEM : 0;
}

static int stats_printf(struct outbuf *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int stats_printf(struct outbuf *o, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	return stats_put(o, buf, (size_t)n < sizeof(buf) ? (size_t)n
							 : sizeof(buf) - 1);
}

/* One line: columns padded to w, the last left-aligned one unpadded. */
static int stats_line_text(struct outbuf *o, const struct stats_table *t,
			   const size_t *w, const struct stats_cell *cells)
{
	size_t i, need = 1;
	char *p;

	for (i = 0; i < t->ncols; i++)
		need += w[i] + 2;
	p = outbuf_reserve(o, need);
	if (!p)
		return -ENOMEM;
	for (i = 0; i < t->ncols; i++) {
		size_t n = cells[i].len;

		if (i) {
			*p++ = ' ';
			*p++ = ' ';
		}
		if (t->right[i] == 'r') {
			memset(p, ' ', w[i] - n);
			p += w[i] - n;
		}
		memcpy(p, cells[i].s, n);
		p += n;
		if (t->right[i] != 'r' && i + 1 < t->ncols) {
			memset(p, ' ', w[i] - n);
			p += w[i] - n;
		}
	}
	*p++ = '\n';
	outbuf_commit(o, (size_t)(p - (o->buf + o->len)));
	return 0;
}

static int stats_csv_field(struct outbuf *o, const struct stats_cell *cell)
{
	char *p = outbuf_reserve(o, 2 * cell->len + 3), *start = p;
	size_t i;

	if (!p)
		return -ENOMEM;
	if (!memchr(cell->s, ',', cell->len) && !memchr(cell->s, '"', cell->len) &&
	    !memchr(cell->s, '\n', cell->len) && !memchr(cell->s, '\r', cell->len)) {
		memcpy(p, cell->s, cell->len);
		outbuf_commit(o, cell->len);
		return 0;
	}
	*p++ = '"';
	for (i = 0; i < cell->len; i++) {
		if (cell->s[i] == '"')
			*p++ = '"';
		*p++ = cell->s[i];
	}
	*p++ = '"';
	outbuf_commit(o, (size_t)(p - start));
	return 0;
}

static int stats_line_csv(struct outbuf *o, const struct stats_table *t,
			  const struct stats_cell *cells)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < t->ncols && ret == 0; i++) {
		if (i)
			ret = stats_put(o, ",", 1);
		if (ret == 0)
			ret = stats_csv_field(o, &cells[i]);
	}
	return ret ? ret : stats_put(o, "\n", 1);
}

static int stats_table_out(const struct sink_stats *c,
			   const struct stats_table *t)
{
	struct stats_cell cells[STATS_MAXCOLS];
	size_t w[STATS_MAXCOLS] = { 0 }, r, i;
	int ret;

	for (i = 0; i < t->ncols; i++)
		stats_str(&cells[i], t->head[i]);
	if (c->csv) {
		ret = stats_line_csv(c->sink.out, t, cells);
		for (r = 0; r < t->nrows && ret == 0; r++) {
			t->row(c, r, cells);
			ret = stats_line_csv(c->sink.out, t, cells);
		}
		return ret;
	}
	for (i = 0; i < t->ncols; i++)
		w[i] = cells[i].len;
	if (t->measure) {
		t->measure(c, w);
	} else {
		for (r = 0; r < t->nrows; r++) {
			t->row(c, r, cells);
			for (i = 0; i < t->ncols; i++)
				if (cells[i].len > w[i])
					w[i] = cells[i].len;
		}
		for (i = 0; i < t->ncols; i++)
			stats_str(&cells[i], t->head[i]);
	}
	ret = stats_line_text(c->sink.out, t, w, cells);
	for (r = 0; r < t->nrows && ret == 0; r++) {
		t->row(c, r, cells);
		ret = stats_line_text(c->sink.out, t, w, cells);
	}
	return ret;
}

/* ------------------------------------------------------------ summary */

/*
 * Tables are sorted through compact keys, then their rows are put in that
 * order: a random stream can hold a million reasons or ids, and sorting
 * pointers to them would chase each one through memory.
 */
struct stats_key {
	uint64_t a, b;		/* compared in order */
	uint32_t idx;
};

static inline unsigned stats_key_byte(const struct stats_key *k,
				      unsigned pass)
{
	return (unsigned)(((pass < 8 ? k->b : k->a) >> (8 * (pass & 7))) & 0xff);
}

/*
 * Sort keys by (a, b): least significant byte first, counted all in one
 * pass; a byte whose value all keys share is not moved on. 0 or -ENOMEM.
 */
static int stats_radix(struct stats_key *keys, size_t n)
{
	struct stats_key *tmp = malloc((n ? n : 1) * sizeof(*tmp)), *from = keys,
			 *to = tmp, *t;
	size_t (*count)[256] = calloc(16, sizeof(*count));
	unsigned pass;
	size_t i;

	if (!tmp || !count) {
		free(tmp);
		free(count);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		for (pass = 0; pass < 16; pass++)
			count[pass][stats_key_byte(&keys[i], pass)]++;
	for (pass = 0; pass < 16; pass++) {
		size_t sum = 0, *cnt = count[pass];

		if (n && cnt[stats_key_byte(&keys[0], pass)] == n)
			continue;
		for (i = 0; i < 256; i++) {
			size_t c = cnt[i];

			cnt[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			to[cnt[stats_key_byte(&from[i], pass)]++] = from[i];
		t = from;
		from = to;
		to = t;
	}
	if (from != keys)
		memcpy(keys, from, n * sizeof(*keys));
	free(tmp);
	free(count);
	return 0;
}

/* Named counters with the same count: by name. */
static int stats_name_cmp(const void *x, const void *y, void *arg)
{
	const struct stats_key *p = x, *q = y;
	const struct stats_counter *counters = arg;
	const char *m = counters[p->idx].name, *n = counters[q->idx].name;

	return m && n ? strcmp(m, n) : 0;
}

/*
 * Put the n elements of size sz at *base in the order of keys: one pass
 * that many loads can overlap, where writing rows in that order would
 * wait for each. 0 or -ENOMEM.
 */
static int stats_permute(void *base, size_t n, size_t sz,
			 const struct stats_key *keys)
{
	char *from = *(char **)base, *to = malloc(n ? n * sz : 1);
	size_t i;

	if (!to)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		memcpy(to + i * sz, from + keys[i].idx * sz, sz);
	free(from);
	*(char **)base = to;
	return 0;
}

/* Events by count (most first), then domain, ids before names. */
static int stats_sort_counters(struct sink_stats *c)
{
	struct stats_key *keys = malloc((c->ncounters + 1) * sizeof(*keys));
	size_t i;
	int ret;

	if (!keys)
		return -ENOMEM;
	for (i = 0; i < c->ncounters; i++) {
		const struct stats_counter *k = &c->counters[i];

		keys[i].a = ~k->count;
		keys[i].b = (uint64_t)k->domain << 63 |
			    (uint64_t)!k->has_id << 62 |
			    (k->has_id ? k->id & ((1ull << 62) - 1) : 0);
		keys[i].idx = (uint32_t)i;
	}
	ret = stats_radix(keys, c->ncounters);
	for (i = 0; ret == 0 && i < c->ncounters;) {
		size_t j = i + 1;

		while (j < c->ncounters && keys[j].a == keys[i].a &&
		       keys[j].b == keys[i].b)
			j++;
		if (j - i > 1)
			qsort_r(keys + i, j - i, sizeof(*keys), stats_name_cmp,
				c->counters);
		i = j;
	}
	if (ret == 0)
		ret = stats_permute(&c->counters, c->ncounters,
				    sizeof(*c->counters), keys);
	free(keys);
	if (ret == 0)
		c->cap_counters = c->ncounters;
	return ret;
}

/* Reasons by exits (most first), then domain, kvmtrace first, value. */
static int stats_sort_reasons(struct sink_stats *c)
{
	struct stats_key *keys = malloc((c->nreasons + 1) * sizeof(*keys));
	size_t i;
	int ret;

	if (!keys)
		return -ENOMEM;
	for (i = 0; i < c->nreasons; i++) {
		const struct stats_reason *r = &c->reasons[i];

		/* domain, kvmtrace before trace.dat, then the value */
		keys[i].a = ~(r->n + r->unpaired);
		keys[i].b = (r->key & 1) << 63 | (r->key >> 1 & 1) << 62 |
			    r->key >> 2;
		keys[i].idx = (uint32_t)i;
	}
	ret = stats_radix(keys, c->nreasons);
	if (ret == 0)
		ret = stats_permute(&c->reasons, c->nreasons,
				    sizeof(*c->reasons), keys);
	free(keys);
	if (ret == 0)
		c->cap_reasons = c->nreasons;
	return ret;
}

static int stats_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool stats_any_id(const struct sink_stats *c)
{
	size_t i;

	if (c->csv)
		return true;
	for (i = 0; i < c->ncounters; i++)
		if (c->counters[i].has_id)
			return true;
	return false;
}

static void stats_event_row(const struct sink_stats *c, size_t i,
			    struct stats_cell *cells)
{
	const struct stats_counter *k = &c->counters[i];
	size_t col = 0;

	stats_str(&cells[col++], stats_domain(k->domain));
	if (k->name)
		stats_str(&cells[col++], k->name);
	else
		stats_hexid(&cells[col++], k->id);
	if (c->any_id) {
		if (k->has_id)
			stats_hexid(&cells[col++], k->id);
		else
			stats_str(&cells[col++], c->csv ? "" : "-");
	}
	stats_u64(&cells[col], k->count);
	col++;
	stats_percent(&cells[col], k->count, c->events);
}

static void stats_max(size_t *w, size_t len)
{
	if (len > *w)
		*w = len;
}

/* The widest cells of the events table, from its largest values. */
static void stats_event_measure(const struct sink_stats *c, size_t *w)
{
	struct stats_cell cell;
	uint64_t count = 0;
	size_t i, col = 2;

	for (i = 0; i < c->ncounters; i++) {
		const struct stats_counter *k = &c->counters[i];

		stats_max(&w[0], strlen(stats_domain(k->domain)));
		stats_max(&w[1], k->name ? strlen(k->name) : 10);
		if (k->count > count)
			count = k->count;
	}
	if (c->any_id)
		stats_max(&w[col++], 10);
	stats_u64(&cell, count);
	stats_max(&w[col++], cell.len);
	stats_percent(&cell, count, c->events);
	stats_max(&w[col], cell.len);
}

static int stats_events_table(struct sink_stats *c)
{
	static const char *const head_id[] = { "domain", "event", "id", "count",
					       "percent" };
	static const char *const head[] = { "domain", "event", "count",
					    "percent" };
	bool any_id = c->any_id = stats_any_id(c);
	struct stats_table t = {
		.ncols = any_id ? 5 : 4,
		.head = any_id ? head_id : head,
		.right = any_id ? "lllrr" : "llrr",
		.nrows = c->ncounters,
		.row = stats_event_row,
		.measure = stats_event_measure,
	};
	int ret = stats_sort_counters(c);

	if (ret < 0)
		return ret;

	if (!c->csv)
		ret = stats_printf(c->sink.out, "Events: %" PRIu64 " from %zu input%s\n",
				   c->events, c->nsrcs, c->nsrcs == 1 ? "" : "s");
	return ret ? ret : stats_table_out(c, &t);
}

static void stats_exit_row(const struct sink_stats *c, size_t i,
			   struct stats_cell *cells)
{
	const struct stats_reason *r = &c->reasons[i];
	const char *none = c->csv ? "" : "-";
	size_t col = 0;

	stats_str(&cells[col++], stats_domain((enum domain)(r->key & 1)));
	if (r->name)
		stats_str(&cells[col], r->name);
	else
		cells[col].len = sink_reason_default(cells[col].s, r->key >> 2);
	col++;
	if (c->csv) {
		stats_u64(&cells[col], r->key >> 2);
		col++;
	}
	stats_u64(&cells[col], r->n);
	col++;
	if (r->n) {
		/* nearest rank: the ceil(0.99 n)-th smallest */
		size_t rank = (99 * r->n + 99) / 100;

		stats_dur(c, &cells[col++], r->total);
		stats_mean(c, &cells[col++], r->total, r->n);
		const uint64_t *v = r->n > 1 ? r->durs : &r->one;

		stats_dur(c, &cells[col++], v[0]);
		stats_dur(c, &cells[col++], v[r->n - 1]);
		stats_dur(c, &cells[col++], v[rank - 1]);
	} else {
		for (; col < (c->csv ? 9u : 8u); col++)
			stats_str(&cells[col], none);
	}
	stats_u64(&cells[col], r->unpaired);
}

/* The widest cells of the exits table (text), from its largest values. */
static void stats_exit_measure(const struct sink_stats *c, size_t *w)
{
	uint64_t n = 0, total = 0, mean = 0, min = 0, max = 0, p99 = 0,
		 unpaired = 0, x;
	struct stats_cell cell;
	size_t i;

	for (i = 0; i < c->nreasons; i++) {
		const struct stats_reason *r = &c->reasons[i];
		const uint64_t *v = r->n > 1 ? r->durs : &r->one;
		uint64_t hex = r->key >> 2;
		size_t len = 7;

		stats_max(&w[0], strlen(stats_domain((enum domain)(r->key & 1))));
		if (r->name) {
			len = strlen(r->name);
		} else {
			do {
				len++;
				hex >>= 4;
			} while (hex);
		}
		stats_max(&w[1], len);
		if (r->unpaired > unpaired)
			unpaired = r->unpaired;
		if (!r->n)
			continue;
		if (r->n > n)
			n = r->n;
		if (r->total > total)
			total = r->total;
		x = c->time.ns ? stats_div_round(sink_time_ns(&c->time, r->total),
						 r->n)
			       : stats_div_round((unsigned __int128)r->total * 10,
						 r->n);
		if (x > mean)
			mean = x;
		if (v[0] > min)
			min = v[0];
		if (v[r->n - 1] > max)
			max = v[r->n - 1];
		x = v[(99 * r->n + 99) / 100 - 1];
		if (x > p99)
			p99 = x;
	}
	stats_u64(&cell, n);
	stats_max(&w[2], cell.len);
	stats_dur(c, &cell, total);
	stats_max(&w[3], cell.len);
	if (c->time.ns) {
		cell.len = sink_put_us(cell.s, mean);
	} else {
		cell.len = pyfmt_u64_dec(cell.s, mean / 10) + 2;
	}
	stats_max(&w[4], cell.len);
	stats_dur(c, &cell, min);
	stats_max(&w[5], cell.len);
	stats_dur(c, &cell, max);
	stats_max(&w[6], cell.len);
	stats_dur(c, &cell, p99);
	stats_max(&w[7], cell.len);
	stats_u64(&cell, unpaired);
	stats_max(&w[8], cell.len);
	for (i = 3; i < 8; i++)
		stats_max(&w[i], 1);	/* "-" */
}

static int stats_exits_table(struct sink_stats *c)
{
	static const char *const head_text[] = { "domain", "reason", "count",
						 "total", "mean", "min", "max",
						 "p99", "unpaired" };
	static const char *const head_us[] = { "domain", "reason", "value",
					       "count", "total_us", "mean_us",
					       "min_us", "max_us", "p99_us",
					       "unpaired" };
	static const char *const head_ticks[] = { "domain", "reason", "value",
						  "count", "total_ticks",
						  "mean_ticks", "min_ticks",
						  "max_ticks", "p99_ticks",
						  "unpaired" };
	struct stats_table t = {
		.ncols = c->csv ? 10 : 9,
		.head = c->csv ? (c->time.ns ? head_us : head_ticks) : head_text,
		.right = c->csv ? "llrrrrrrrr" : "llrrrrrrr",
		.nrows = c->nreasons,
		.row = stats_exit_row,
		.measure = stats_exit_measure,
	};
	size_t i;
	int ret = 0;

	/* exits still waiting at the end met no entry */
	for (i = 0; i < c->pairs.n; i++) {
		struct stats_reason *r;

		if (!c->pairs.v[i].pending)
			continue;
		if (stats_pending_reason(c, &c->pairs.v[i], &r) < 0)
			return -ENOMEM;
		r->unpaired++;
		c->pairs.v[i].pending = false;
	}
	if (stats_sort_reasons(c) < 0)
		return -ENOMEM;
	t.nrows = c->nreasons;

	for (i = 0; i < c->nreasons; i++)
		if (c->reasons[i].n > 1)
			qsort(c->reasons[i].durs, c->reasons[i].n,
			      sizeof(*c->reasons[i].durs), stats_u64_cmp);
	if (!c->csv)
		ret = stats_printf(c->sink.out,
				   "\nExits: host time from an exit to the next entry on the same vCPU, in %s%s\n"
				   "(p99: nearest rank, the ceil(0.99 n)-th smallest; unpaired: exits that met another exit or the end first)\n",
				   c->time.ns ? "µs" : "ticks",
				   c->time.ns ? "" : c->time.timeline == CLOCK_TSC ? " (pass -c MHZ for µs)" : "");
	if (ret == 0 && !c->nreasons && !c->csv)
		ret = stats_printf(c->sink.out, "no exits\n");
	else if (ret == 0)
		ret = stats_table_out(c, &t);
	if (ret == 0 && c->entries_unpaired && !c->csv)
		ret = stats_printf(c->sink.out, "%" PRIu64 " entr%s without an exit before (not counted)\n",
				   c->entries_unpaired,
				   c->entries_unpaired == 1 ? "y" : "ies");
	return ret;
}

static void stats_input_row(const struct sink_stats *c, size_t i,
			    struct stats_cell *cells)
{
	const struct stats_src *ss = &c->ssrcs[i];
	const char *none = c->csv ? "" : "-";

	stats_str(&cells[0], c->srcs[i]->name);
	stats_str(&cells[1], c->srcs[i]->ops->kind);
	stats_str(&cells[2], stats_domain(c->srcs[i]->domain));
	stats_u64(&cells[3], ss->events);
	if (ss->any_ts) {
		stats_ts(c, &cells[4], ss->first);
		stats_ts(c, &cells[5], ss->last);
		stats_dur(c, &cells[6], ss->last - ss->first);
	} else {
		stats_str(&cells[4], none);
		stats_str(&cells[5], none);
		stats_str(&cells[6], none);
	}
}

static int stats_inputs_table(struct sink_stats *c)
{
	static const char *const head_text[] = { "input", "kind", "domain",
						 "events", "first", "last",
						 "span" };
	char h_first[32], h_last[32], h_span[32];
	const char *const head_csv[] = { "input", "kind", "domain", "events",
					 h_first, h_last, h_span };
	struct stats_table t = {
		.ncols = 7,
		.head = c->csv ? head_csv : head_text,
		.right = "lllrrrr",
		.nrows = c->nsrcs,
		.row = stats_input_row,
	};
	int ret = 0;

	snprintf(h_first, sizeof(h_first), "first_%s", stats_ts_unit(c));
	snprintf(h_last, sizeof(h_last), "last_%s", stats_ts_unit(c));
	snprintf(h_span, sizeof(h_span), "span_%s", stats_dur_unit(c));
	if (!c->csv)
		ret = stats_printf(c->sink.out, "\nInputs: first and last ts in %s%s, span in %s\n",
				   stats_ts_unit(c),
				   c->time.timeline == CLOCK_NS ? " (as ts prints)" : "",
				   c->time.ns ? "µs" : "ticks");
	return ret ? ret : stats_table_out(c, &t);
}

static int sink_stats_end(struct sink *s, struct diag *d)
{
	struct sink_stats *c = container_of(s, struct sink_stats, sink);
	int ret;

	ret = stats_events_table(c);
	if (ret == 0 && c->csv)
		ret = stats_put(s->out, "\n", 1);
	if (ret == 0)
		ret = stats_exits_table(c);
	if (ret == 0)
		ret = stats_func_write(c->func, s->out, c->csv, &c->time);
	if (ret == 0 && c->csv)
		ret = stats_put(s->out, "\n", 1);
	if (ret == 0)
		ret = stats_inputs_table(c);
	return ret < 0 ? stats_nomem(d) : 0;
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
	for (i = 0; i < c->nreasons; i++) {
		free(c->reasons[i].name);
		free(c->reasons[i].durs);
	}
	free(c->reasons);
	sink_map_fini(&c->reason_map);
	sink_pairs_fini(&c->pairs);
	stats_func_destroy(c->func);
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
			       bool csv, double mhz)
{
	struct sink_stats *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->sink.ops = &sink_stats_ops;
	c->sink.out = out;
	c->sink.render = render;
	c->csv = csv;
	c->mhz = mhz;
	c->func = stats_func_create();
	if (!c->func) {
		free(c);
		return NULL;
	}
	return &c->sink;
}
