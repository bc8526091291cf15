// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The statistics sink's cells and tables: numbers in the summary's units,
 * and a table as aligned text or as one CSV section.
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


void stats_u64(struct stats_cell *cell, uint64_t v)
{
	cell->len = pyfmt_u64_dec(cell->s, v);
}

/* A string into a cell, cut to fit. */
void stats_str(struct stats_cell *cell, const char *s)
{
	size_t n = strlen(s);

	cell->len = n < STATS_CELL ? n : STATS_CELL - 1;
	memcpy(cell->s, s, cell->len);
}

void stats_hexid(struct stats_cell *cell, uint64_t id)
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

/* A duration in ns (c->time.ns) as µs with three decimals, or ticks. */
void stats_dur(const struct sink_stats *c, struct stats_cell *cell,
	       uint64_t v)
{
	if (c->time.ns)
		cell->len = sink_put_us(cell->s, v);
	else
		cell->len = pyfmt_u64_dec(cell->s, v);
}

/* x / n rounded half up, exact. */
uint64_t stats_div_round(unsigned __int128 x, uint64_t n)
{
	return (uint64_t)((2 * x + n) / (2 * (unsigned __int128)n));
}

/* The mean of n durations: µs with three decimals, or ticks with one. */
void stats_mean(const struct sink_stats *c, struct stats_cell *cell,
		uint64_t total, size_t n)
{
	uint64_t x;

	if (c->time.ns) {
		x = stats_div_round(total, n);
		cell->len = sink_put_us(cell->s, x);
		return;
	}
	x = stats_div_round((unsigned __int128)total * 10, n);
	cell->len = pyfmt_u64_dec(cell->s, x / 10);
	cell->s[cell->len++] = '.';
	cell->s[cell->len++] = (char)('0' + x % 10);
}

/* 100 * count / all with two decimals. */
void stats_percent(struct stats_cell *cell, uint64_t count,
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
void stats_ts(const struct sink_stats *c, struct stats_cell *cell,
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

const char *stats_dur_unit(const struct sink_stats *c)
{
	return c->time.ns ? "us" : "ticks";
}

const char *stats_ts_unit(const struct sink_stats *c)
{
	if (c->time.timeline == CLOCK_TSC && c->mhz > 0)
		return "s";
	return c->time.timeline == CLOCK_NS ? "ns" : "ticks";
}

const char *stats_domain(enum domain d)
{
	return d == DOMAIN_GUEST ? "guest" : "host";
}
/* ------------------------------------------------------------- tables */



int stats_put(struct outbuf *o, const char *s, size_t n)
{
	return outbuf_put(o, s, n) < 0 ? -ENOMEM : 0;
}

int stats_printf(struct outbuf *o, const char *fmt, ...)
{
	char buf[1024];
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

/* The columns a cell takes on a terminal: its UTF-8 characters ("µs"). */
static size_t stats_width(const struct stats_cell *cell)
{
	size_t i, n = 0;

	for (i = 0; i < cell->len; i++)
		n += ((unsigned char)cell->s[i] & 0xc0) != 0x80;
	return n;
}

/* One line: columns padded to w, the last left-aligned one unpadded. */
static int stats_line_text(struct outbuf *o, const struct stats_table *t,
			   const size_t *w, const struct stats_cell *cells)
{
	size_t i, need = 1;
	char *p;

	for (i = 0; i < t->ncols; i++)
		need += w[i] + cells[i].len + 2;
	p = outbuf_reserve(o, need);
	if (!p)
		return -ENOMEM;
	for (i = 0; i < t->ncols; i++) {
		size_t n = cells[i].len, pad = w[i] - stats_width(&cells[i]);

		if (i) {
			*p++ = ' ';
			*p++ = ' ';
		}
		if (t->right[i] != 'l') {
			memset(p, ' ', pad);
			p += pad;
		}
		memcpy(p, cells[i].s, n);
		p += n;
		if (t->right[i] == 'l' && i + 1 < t->ncols) {
			memset(p, ' ', pad);
			p += pad;
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

/*
 * Is cell a JSON number as written (digits, one optional fraction, an
 * optional exponent: 1e+308)?
 */
static bool stats_json_number(const struct stats_cell *cell)
{
	size_t i = 0, digits = 0;

	while (i < cell->len && cell->s[i] >= '0' && cell->s[i] <= '9')
		i++, digits++;
	if (!digits || (digits > 1 && cell->s[0] == '0'))
		return false;
	if (i < cell->len && cell->s[i] == '.') {
		for (i++, digits = 0; i < cell->len && cell->s[i] >= '0' &&
				      cell->s[i] <= '9'; i++)
			digits++;
		if (!digits)
			return false;
	}
	if (i < cell->len && (cell->s[i] == 'e' || cell->s[i] == 'E')) {
		i++;
		if (i < cell->len && (cell->s[i] == '+' || cell->s[i] == '-'))
			i++;
		for (digits = 0; i < cell->len && cell->s[i] >= '0' &&
				 cell->s[i] <= '9'; i++)
			digits++;
		if (!digits)
			return false;
	}
	return i == cell->len;
}

/* {"head":cell,…}: numbers bare, empty cells null, the rest strings. */
static int stats_line_json(struct outbuf *o, const struct stats_table *t,
			   const struct stats_cell *cells, bool first)
{
	size_t i, need = 8;
	char *p, *start;

	for (i = 0; i < t->ncols; i++)
		need += SINK_JSON_BOUND(strlen(t->head[i])) +
			SINK_JSON_BOUND(cells[i].len) + 8;
	p = start = outbuf_reserve(o, need);
	if (!p)
		return -ENOMEM;
	if (!first)
		*p++ = ',';
	*p++ = '\n';
	*p++ = '{';
	for (i = 0; i < t->ncols; i++) {
		if (i)
			*p++ = ',';
		p += sink_json_str(p, t->head[i], strlen(t->head[i]));
		*p++ = ':';
		if (!cells[i].len) {
			memcpy(p, "null", 4);
			p += 4;
		} else if (t->right[i] == 'r' && stats_json_number(&cells[i])) {
			memcpy(p, cells[i].s, cells[i].len);
			p += cells[i].len;
		} else {
			p += sink_json_str(p, cells[i].s, cells[i].len);
		}
	}
	outbuf_commit(o, (size_t)(p - start));
	return 0;
}

/*
 * ,"hist":[[index,count],…]: the non-empty buckets of h (hist.h), which
 * add bucket by bucket across runs (stats-merge.c reads them back).
 */
static int stats_json_hist(struct outbuf *o, const struct hist *h)
{
	uint64_t count;
	uint32_t index;
	size_t pos = 0, n;
	bool first = true;
	char *p;

	if (stats_put(o, ",\"hist\":[", 9) < 0)
		return -ENOMEM;
	while (hist_next(h, &pos, &index, &count)) {
		p = outbuf_reserve(o, 48);
		if (!p)
			return -ENOMEM;
		n = 0;
		if (!first)
			p[n++] = ',';
		first = false;
		p[n++] = '[';
		n += pyfmt_u64_dec(p + n, index);
		p[n++] = ',';
		n += pyfmt_u64_dec(p + n, count);
		p[n++] = ']';
		outbuf_commit(o, n);
	}
	return stats_put(o, "]", 1);
}

int stats_json_member(struct sink_stats *c, const char *name)
{
	int ret = stats_printf(c->sink.out, "%s\n\"%s\":", c->json_any ? "," : "",
			       name);

	c->json_any = true;
	return ret;
}

/*
 * Time columns of text tables ('t' in stats_table.right): their cells come
 * in µs with three decimals, and each column prints in the unit that suits
 * its largest value, named in its heading: µs below 10 ms, ms below 10 s,
 * else s.
 */
enum { STATS_US = 0, STATS_MS, STATS_S };

static const char *const stats_unit_names[] = { "µs", "ms", "s" };

/* A cell of µs with three decimals ("1695.996") as ns; false if not one. */
static bool stats_cell_ns(const struct stats_cell *cell, uint64_t *ns)
{
	uint64_t x = 0;
	size_t i = 0, dot;

	while (i < cell->len && cell->s[i] >= '0' && cell->s[i] <= '9' &&
	       x < UINT64_MAX / 100)
		x = 10 * x + (uint64_t)(cell->s[i++] - '0');
	dot = i;
	if (!dot || dot + 4 != cell->len || cell->s[dot] != '.')
		return false;
	for (i = dot + 1; i < cell->len; i++) {
		if (cell->s[i] < '0' || cell->s[i] > '9')
			return false;
		x = 10 * x + (uint64_t)(cell->s[i] - '0');
	}
	*ns = x;
	return true;
}

/* Rewrite a cell of µs in unit u, three decimals, rounded half up. */
static void stats_cell_unit(struct stats_cell *cell, unsigned u)
{
	uint64_t ns;

	if (u == STATS_US || !stats_cell_ns(cell, &ns))
		return;
	/* sink_put_us() writes x / 1000 with three decimals */
	cell->len = sink_put_us(cell->s, stats_div_round(ns, u == STATS_MS ?
								 1000 : 1000000));
}

/* Row r of t into cells, its time cells in their columns' units. */
static void stats_row_units(const struct sink_stats *c,
			    const struct stats_table *t, size_t r,
			    struct stats_cell *cells, const unsigned *unit)
{
	size_t i;

	t->row(c, r, cells);
	for (i = 0; unit && i < t->ncols; i++)
		if (t->right[i] == 't')
			stats_cell_unit(&cells[i], unit[i]);
}

/* Each time column's unit, from its largest value; false: none. */
static bool stats_units(const struct sink_stats *c,
			const struct stats_table *t, struct stats_cell *cells,
			unsigned *unit)
{
	uint64_t max[STATS_MAXCOLS] = { 0 }, ns;
	bool any = false;
	size_t r, i;

	for (i = 0; i < t->ncols; i++)
		any |= t->right[i] == 't';
	if (!any)
		return false;
	for (r = 0; r < t->nrows; r++) {
		t->row(c, r, cells);
		for (i = 0; i < t->ncols; i++)
			if (t->right[i] == 't' && stats_cell_ns(&cells[i], &ns) &&
			    ns > max[i])
				max[i] = ns;
	}
	for (i = 0; i < t->ncols; i++)
		unit[i] = max[i] >= 10000000000ull ? STATS_S :
			  max[i] >= 10000000 ? STATS_MS : STATS_US;
	return true;
}

/* The headings of t, a time column's with its unit: "total(ms)". */
static void stats_heads(const struct stats_table *t, struct stats_cell *cells,
			const unsigned *unit)
{
	size_t i;

	for (i = 0; i < t->ncols; i++) {
		if (unit && t->right[i] == 't')
			cells[i].len = (size_t)snprintf(cells[i].s, STATS_CELL,
							"%s(%s)", t->head[i],
							stats_unit_names[unit[i]]);
		else
			stats_str(&cells[i], t->head[i]);
	}
}

int stats_table_out(struct sink_stats *c, const struct stats_table *t)
{
	unsigned units[STATS_MAXCOLS], *unit = NULL;
	struct stats_cell cells[STATS_MAXCOLS];
	size_t w[STATS_MAXCOLS] = { 0 }, r, i;
	int ret;

	for (i = 0; i < t->ncols; i++)
		stats_str(&cells[i], t->head[i]);
	if (c->mode == STATS_JSON) {
		ret = stats_json_member(c, t->name);
		if (ret == 0)
			ret = stats_put(c->sink.out, "[", 1);
		for (r = 0; r < t->nrows && ret == 0; r++) {
			t->row(c, r, cells);
			ret = stats_line_json(c->sink.out, t, cells, r == 0);
			if (ret == 0 && t->hist)
				ret = stats_json_hist(c->sink.out, t->hist(c, r));
			if (ret == 0)
				ret = stats_put(c->sink.out, "}", 1);
		}
		return ret ? ret : stats_put(c->sink.out, "]", 1);
	}
	if (c->csv) {
		/* a title row: the table's name, as the JSON member has it */
		ret = stats_printf(c->sink.out, "# %s\n", t->name);
		if (ret == 0)
			ret = stats_line_csv(c->sink.out, t, cells);
		for (r = 0; r < t->nrows && ret == 0; r++) {
			t->row(c, r, cells);
			ret = stats_line_csv(c->sink.out, t, cells);
		}
		return ret;
	}
	if (stats_units(c, t, cells, units))
		unit = units;
	stats_heads(t, cells, unit);
	for (i = 0; i < t->ncols; i++)
		w[i] = stats_width(&cells[i]);
	if (t->measure && !unit) {
		t->measure(c, w);
	} else {
		for (r = 0; r < t->nrows; r++) {
			stats_row_units(c, t, r, cells, unit);
			for (i = 0; i < t->ncols; i++)
				stats_max(&w[i], stats_width(&cells[i]));
		}
		stats_heads(t, cells, unit);
	}
	ret = stats_line_text(c->sink.out, t, w, cells);
	for (r = 0; r < t->nrows && ret == 0; r++) {
		stats_row_units(c, t, r, cells, unit);
		ret = stats_line_text(c->sink.out, t, w, cells);
	}
	return ret;
}

void stats_max(size_t *w, size_t len)
{
	if (len > *w)
		*w = len;
}
