// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The statistics sink's summary: the events, exits and inputs tables,
 * their rows sorted through compact keys.
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

int stats_report(struct sink_stats *c)
{
	int ret;

	ret = stats_events_table(c);
	if (ret == 0 && c->csv)
		ret = stats_put(c->sink.out, "\n", 1);
	if (ret == 0)
		ret = stats_exits_table(c);
	if (ret == 0 && c->csv)
		ret = stats_put(c->sink.out, "\n", 1);
	if (ret == 0)
		ret = stats_inputs_table(c);
	return ret;
}
