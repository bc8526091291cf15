// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The "Functions" table of --stats: the rows stats-func.c accounted, as
 * text, CSV or a JSON member.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "outbuf.h"
#include "sink-util.h"
#include "stats-func.h"
#include "stats.h"

/* A time in the unit of the table: ns, seconds (TSC with -c) or ticks. */
static int sf_time(struct outbuf *o, const struct sink_time *t, uint64_t v,
		   int width)
{
	char buf[48];
	int n;

	if (t->timeline == CLOCK_TSC && t->ns)
		n = snprintf(buf, sizeof(buf), "%*.9f", width,
			     (double)v / ((double)t->hz ? (double)t->hz : 1.0));
	else
		n = snprintf(buf, sizeof(buf), "%*" PRIu64, width, v);
	return outbuf_put(o, buf, (size_t)n);
}

/* A CSV field: quoted when it holds a comma, a quote or a line break. */
static int sf_csv_str(struct outbuf *o, const char *s)
{
	int ret = 0;

	if (!strpbrk(s, ",\"\r\n"))
		return outbuf_put(o, s, strlen(s));
	ret = outbuf_put(o, "\"", 1);
	for (; *s && !ret; s++)
		ret = *s == '"' ? outbuf_put(o, "\"\"", 2) : outbuf_put(o, s, 1);
	return ret ? ret : outbuf_put(o, "\"", 1);
}

/* The rows as a JSON member (names escaped by sink_json_str()). */
static int sf_json(const struct stats_func_row *rows, size_t n,
		   struct outbuf *o, const char *unit)
{
	size_t i;
	int ret;

	ret = stats_printf(o, ",\n\"functions\":{\"time_unit\":\"%s\",\"rows\":[", unit);
	for (i = 0; i < n && !ret; i++) {
		const struct stats_func_row *r = &rows[i];
		size_t len = strlen(r->name);
		char *p = outbuf_reserve(o, SINK_JSON_BOUND(len) + 16);

		if (!p)
			return -ENOMEM;
		memcpy(p, i ? ",\n{\"function\":" : "\n{\"function\":", i ? 14 : 13);
		outbuf_commit(o, (i ? 14 : 13) + sink_json_str(p + (i ? 14 : 13),
							       r->name, len));
		ret = stats_printf(o, ",\"calls\":%" PRIu64 ",\"total\":%" PRIu64
				",\"self\":%" PRIu64 ",\"min\":%" PRIu64
				",\"avg\":%" PRIu64 ",\"max\":%" PRIu64 "}",
				r->calls, r->total, r->self, r->min,
				(r->total + r->rec) / r->calls, r->max);
	}
	return ret ? ret : outbuf_put(o, "]}", 2);
}

int stats_func_write(struct stats_func *f, struct outbuf *o,
		      enum stats_func_format fmt, const struct sink_time *t)
{
	bool csv = fmt == STATS_FUNC_CSV;
	const char *unit = t->timeline == CLOCK_TSC ? (t->ns ? "s" : "ticks")
						    : "ns";
	const struct stats_func_row *rows;
	size_t i, n, w = 8;
	int ret;

	ret = stats_func_rows(f, &rows, &n);
	if (ret < 0 || !n)
		return ret;
	if (fmt == STATS_FUNC_JSON)
		return sf_json(rows, n, o, unit);
	for (i = 0; i < n; i++)
		if (strlen(rows[i].name) > w)
			w = strlen(rows[i].name);
	if (w > 60)
		w = 60;
	if (csv)
		ret = stats_printf(o, "\n# functions\nfunction,calls,total_%s,self_%s,min_%s,avg_%s,max_%s\n",
				unit, unit, unit, unit, unit);
	else
		ret = stats_printf(o, "\nFunctions: calls and time per call in %s, as uftrace report counts them\n"
				"(total: not counting recursive calls; self: less the calls made; sorted by total)\n"
				"%-*s  %10s  %16s  %16s  %16s  %16s  %16s\n",
				unit, (int)w, "function", "calls", "total",
				"self", "min", "avg", "max");
	for (i = 0; i < n && !ret; i++) {
		const struct stats_func_row *r = &rows[i];
		uint64_t avg = r->calls ? (r->total + r->rec) / r->calls : 0;
		uint64_t min = r->calls ? r->min : 0;
		int tw = csv ? 0 : 16;

		if (csv) {
			ret = sf_csv_str(o, r->name);
			if (!ret)
				ret = stats_printf(o, ",%" PRIu64 ",", r->calls);
		} else {
			ret = stats_printf(o, "%-*s  %10" PRIu64 "  ", (int)w,
					r->name, r->calls);
		}
		if (!ret)
			ret = sf_time(o, t, r->total, tw);
		if (!ret)
			ret = outbuf_put(o, csv ? "," : "  ", csv ? 1 : 2);
		if (!ret)
			ret = sf_time(o, t, r->self, tw);
		if (!ret)
			ret = outbuf_put(o, csv ? "," : "  ", csv ? 1 : 2);
		if (!ret)
			ret = sf_time(o, t, min, tw);
		if (!ret)
			ret = outbuf_put(o, csv ? "," : "  ", csv ? 1 : 2);
		if (!ret)
			ret = sf_time(o, t, avg, tw);
		if (!ret)
			ret = outbuf_put(o, csv ? "," : "  ", csv ? 1 : 2);
		if (!ret)
			ret = sf_time(o, t, r->max, tw);
		if (!ret)
			ret = outbuf_put(o, "\n", 1);
	}
	return ret;
}
