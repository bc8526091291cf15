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
#include "stats-func.h"
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
		.name = "events",
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
		ret = stats_printf(c->sink.out, "%sEvents: %" PRIu64 " from %zu input%s\n",
				   c->exits_first ? "\n" : "",
				   c->events, c->nsrcs, c->nsrcs == 1 ? "" : "s");
	return ret ? ret : stats_table_out(c, &t);
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
		stats_dur(c, &cells[6], c->time.ns ? sink_time_ns(&c->time,
							     ss->last - ss->first)
						: ss->last - ss->first);
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
		.name = "inputs",
		.ncols = 7,
		.head = c->csv ? head_csv : head_text,
		.right = c->csv || !c->time.ns ? "lllrrrr" : "lllrrrt",
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
				   c->time.ns ? "the unit its heading names" : "ticks");
	return ret ? ret : stats_table_out(c, &t);
}

int stats_report(struct sink_stats *c)
{
	bool json = c->mode == STATS_JSON;
	int ret = 0;

	/* --counters without an input: their table is the run (text, CSV) */
	if (!c->nsrcs && c->sink.ncounters && !json)
		return stats_counters_report(c);
	if (json) {
		ret = stats_printf(c->sink.out,
				   "{\"version\":1,\"generator\":\"kvmtrace_format " PACKAGE_VERSION "\",\n"
				   "\"duration_unit\":\"%s\",\"ts_unit\":\"%s\",\"percentile_max_relative_error\":%.6f,\"key_cap\":%u,\n"
				   "\"histogram\":{\"layout\":\"log-linear\",\"sub_bits\":%u,\"buckets\":%u,\"unit\":\"%s\"}",
				   stats_dur_unit(c), stats_ts_unit(c),
				   HIST_REL_ERROR_PPM / 1e6, SINK_MAXKEYS,
				   HIST_SUB_BITS, HIST_NBUCKETS,
				   c->time.ns ? "ns" : "ticks");
		c->json_any = true;
	}
	/*
	 * text: what the exits cost first, then the events, where there are
	 * exits; CSV and JSON keep their order
	 */
	c->exits_first = !c->csv && c->reasons.n;
	if (ret == 0 && c->exits_first)
		ret = stats_exits_report(c);
	if (ret == 0)
		ret = stats_events_table(c);
	if (ret == 0 && c->csv && !json)
		ret = stats_put(c->sink.out, "\n", 1);
	if (ret == 0 && !c->exits_first)
		ret = stats_exits_report(c);
	if (ret == 0 && json)
		ret = stats_printf(c->sink.out,
				   ",\n\"entries_unpaired\":%" PRIu64 ",\"exits_beyond_key_cap\":%" PRIu64,
				   c->x.entries_unpaired, c->x.exits_over);
	if (ret == 0)
		ret = stats_func_write(c->func, c->sink.out,
				       json ? STATS_FUNC_JSON :
				       c->csv ? STATS_FUNC_CSV : STATS_FUNC_TEXT,
				       &c->time);
	if (ret == 0)
		ret = stats_counters_report(c);
	if (ret == 0 && c->csv && !json)
		ret = stats_put(c->sink.out, "\n", 1);
	if (ret == 0)
		ret = c->merged ? stats_merge_inputs_table(c)
				: stats_inputs_table(c);
	if (ret == 0 && json)
		ret = stats_put(c->sink.out, "}\n", 2);
	return ret;
}
