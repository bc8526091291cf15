// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --counters in --stats: a table per run of every counter of every file:
 * intervals counted and not, the total (counts scaled up by the share of
 * the interval each ran, as the Chrome tracks show them), the rate per
 * second over the time perf stat ran, and the least and most of one
 * interval.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "stats.h"

struct stats_crow {
	const char *file;	/* borrowed */
	const char *name;	/* borrowed */
	uint64_t intervals, not_counted;
	double total, min, max;
	uint64_t last_ns;	/* the end of its last interval */
	bool integral;		/* every count a whole number */
};

/*
 * A count as the cell shows it: whole numbers in digits, others with
 * three decimals, up to 10^15; beyond, the shortest %g that reads back
 * as the same double (1e308 was 255 digits cut from 309). Not finite
 * (a total that overflows): none, as an interval without a count.
 */
static void stats_num(struct stats_cell *cell, double v, bool integral,
		      const char *none)
{
	int n = 0, prec;

	if (!isfinite(v)) {
		stats_str(cell, none);
		return;
	}
	if (fabs(v) < 1e15) {
		n = snprintf(cell->s, STATS_CELL, integral ? "%.0f" : "%.3f", v);
	} else {
		for (prec = 15; prec <= 17; prec++) {
			n = snprintf(cell->s, STATS_CELL, "%.*g", prec, v);
			if (strtod(cell->s, NULL) == v)
				break;
		}
	}
	cell->len = n < 0 ? 0 : (size_t)n < STATS_CELL ? (size_t)n
							: STATS_CELL - 1;
}

static void stats_counter_row(const struct sink_stats *c, size_t i,
			      struct stats_cell *cells)
{
	const struct stats_crow *r = &c->crows[i];
	const char *none = c->csv ? "" : "-";
	bool any = r->intervals > r->not_counted;

	stats_str(&cells[0], r->file);
	stats_str(&cells[1], r->name);
	stats_u64(&cells[2], r->intervals);
	stats_u64(&cells[3], r->not_counted);
	if (!any) {
		stats_str(&cells[4], none);
		stats_str(&cells[5], none);
		stats_str(&cells[6], none);
		stats_str(&cells[7], none);
		return;
	}
	stats_num(&cells[4], r->total, r->integral, none);
	if (r->last_ns)
		stats_num(&cells[5], r->total / ((double)r->last_ns / 1e9),
			  false, none);
	else
		stats_str(&cells[5], none);
	stats_num(&cells[6], r->min, r->integral, none);
	stats_num(&cells[7], r->max, r->integral, none);
}

int stats_counters_report(struct sink_stats *c)
{
	static const char *const head[] = { "file", "counter", "intervals",
					    "not_counted", "total", "per_second",
					    "min", "max" };
	const struct sink *s = &c->sink;
	struct stats_table t = {
		.name = "counters",
		.ncols = 8,
		.head = head,
		.right = "llrrrrrr",
		.row = stats_counter_row,
	};
	struct stats_crow *rows;
	size_t n = 0, i, k, base;
	int ret = 0;

	if (!s->ncounters)
		return 0;
	for (i = 0; i < s->ncounters; i++)
		n += s->counters[i].nnames;
	rows = calloc(n ? n : 1, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	for (i = 0, base = 0; i < s->ncounters; i++) {
		const struct counters *cs = &s->counters[i];

		for (k = 0; k < cs->nnames; k++) {
			rows[base + k].file = cs->path;
			rows[base + k].name = cs->names[k];
			rows[base + k].integral = true;
		}
		for (k = 0; k < cs->npoints; k++) {
			const struct counters_point *pt = &cs->points[k];
			struct stats_crow *r = &rows[base + pt->series];
			bool first = r->intervals == r->not_counted;

			r->intervals++;
			if (pt->t_ns > r->last_ns)
				r->last_ns = pt->t_ns;
			/* a value past a double's range makes the total none */
			if (!pt->counted) {
				r->not_counted++;
				continue;
			}
			r->total += pt->value;
			if (first || pt->value < r->min)
				r->min = pt->value;
			if (first || pt->value > r->max)
				r->max = pt->value;
			if (pt->value != floor(pt->value))
				r->integral = false;
		}
		base += cs->nnames;
	}
	c->crows = rows;
	t.nrows = n;
	if (!c->csv)
		ret = stats_printf(s->out, "\nCounters (perf stat -I): per interval, scaled up by the share of it each ran; per_second over the time perf stat ran\n");
	else if (c->mode != STATS_JSON)
		ret = stats_put(s->out, "\n", 1);
	if (ret == 0)
		ret = stats_table_out(c, &t);
	c->crows = NULL;
	free(rows);
	return ret;
}
