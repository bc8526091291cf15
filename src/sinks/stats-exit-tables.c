// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The statistics sink's exit tables: by reason (and log2 bars), by VM and
 * vCPU, by VM, vCPU and reason, by kind, by guest function; rows ordered
 * through compact sort keys. Collected by stats-exits.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outbuf.h"
#include "pyfmt.h"
#include "render.h"
#include "stats.h"

#define STATS_TOPKINDS	10	/* rows per kind in the text table */
#define STATS_TOPFUNCS	20	/* rows of the guest functions table */

/* ------------------------------------------------------------- cells */

void stats_reason_cell(struct stats_cell *cell, const struct stats_reason *r)
{
	if (r->key == STATS_OTHER)
		stats_str(cell, "(other reasons)");
	else if (r->name)
		stats_str(cell, r->name);
	else
		cell->len = sink_reason_default(cell->s, r->key >> 2);
}

/*
 * count, its share, total, its share, mean, min, p50, p90, p99, p99.9,
 * max, unpaired of d into cells; returns the columns written (12).
 */
static size_t stats_dist_cells(const struct sink_stats *c,
			       struct stats_cell *cells,
			       const struct stats_dist *d)
{
	static const unsigned q[] = { 500, 900, 990, 999 };
	const struct hist *h = &d->h;
	const char *none = c->csv ? "" : "-";
	size_t col = 0, i;

	stats_u64(&cells[col++], h->n);
	stats_percent(&cells[col++], h->n, c->all.h.n);
	if (h->n) {
		stats_dur(c, &cells[col++], h->total);
		stats_percent(&cells[col++], h->total, c->all.h.total);
		stats_mean(c, &cells[col++], h->total, h->n);
		stats_dur(c, &cells[col++], h->min);
		for (i = 0; i < 4; i++)
			stats_dur(c, &cells[col++], hist_percentile(h, q[i]));
		stats_dur(c, &cells[col++], h->max);
	} else {
		for (i = 0; i < 9; i++)
			stats_str(&cells[col++], none);
	}
	stats_u64(&cells[col++], d->unpaired);
	return col;
}

/* ----------------------------------------------------------- tables */

/* A column of an exit table. */
struct stats_col {
	const char *text;	/* heading in text; NULL: a csv and JSON column */
	const char *csv;	/* heading in csv and JSON; NULL: as in text */
	bool timed;		/* csv and JSON add _us or _ticks */
	bool right;		/* aligned right (in JSON: a number) */
};

/* text on the left, a number, a time */
#define STATS_COL_L(t)	{ .text = (t) }
#define STATS_COL_N(t)	{ .text = (t), .right = true }
#define STATS_COL_T(t)	{ .text = (t), .timed = true, .right = true }

/* the columns of stats_dist_cells() */
#define STATS_DIST_COLS							\
	STATS_COL_N("count"),						\
	{ .text = "count%", .csv = "share_pct", .right = true },	\
	STATS_COL_T("total"),						\
	{ .text = "time%", .csv = "time_pct", .right = true },		\
	STATS_COL_T("mean"), STATS_COL_T("min"),			\
	STATS_COL_T("p50"), STATS_COL_T("p90"), STATS_COL_T("p99"),	\
	{ .text = "p99.9", .csv = "p99_9", .timed = true, .right = true }, \
	STATS_COL_T("max"), STATS_COL_N("unpaired")

/* An exit table: its JSON member, its columns, how a row is made. */
struct stats_exit_table {
	const char *name;
	const struct stats_col *cols;
	size_t ncols;
	void (*row)(const struct sink_stats *c, size_t i,
		    struct stats_cell *cells);
	const struct hist *(*hist)(const struct sink_stats *c, size_t i);
};

#define STATS_EXIT_TABLE(name_, cols_, row_)				\
	{ .name = (name_), .cols = (cols_),				\
	  .ncols = sizeof(cols_) / sizeof((cols_)[0]), .row = (row_) }
/* a table of distributions: JSON writes each row's histogram */
#define STATS_EXIT_TABLE_H(name_, cols_, row_, hist_)			\
	{ .name = (name_), .cols = (cols_),				\
	  .ncols = sizeof(cols_) / sizeof((cols_)[0]), .row = (row_),	\
	  .hist = (hist_) }

/* Table x with nrows rows (c->order), its headings as c asks. */
static int stats_exit_table_out(struct sink_stats *c,
				const struct stats_exit_table *x, size_t nrows)
{
	const char *unit = c->time.ns ? "_us" : "_ticks";
	char names[STATS_MAXCOLS][32];
	const char *head[STATS_MAXCOLS];
	char right[STATS_MAXCOLS + 1];
	struct stats_table t = {
		.name = x->name,
		.head = head,
		.right = right,
		.nrows = nrows,
		.row = x->row,
		.hist = x->hist,
	};
	size_t i;

	for (i = 0; i < x->ncols && t.ncols < STATS_MAXCOLS; i++) {
		const struct stats_col *col = &x->cols[i];
		const char *name = c->csv && col->csv ? col->csv : col->text;

		if (!c->csv && !col->text)
			continue;
		if (c->csv && col->timed) {
			snprintf(names[t.ncols], sizeof(names[0]), "%s%s",
				 name, unit);
			name = names[t.ncols];
		}
		head[t.ncols] = name;
		/* text: a time column's unit is its own (stats_table_out) */
		right[t.ncols++] = !col->right ? 'l' :
				   col->timed && !c->csv && c->time.ns ? 't' : 'r';
	}
	right[t.ncols] = '\0';
	return stats_table_out(c, &t);
}

/* ------------------------------------------------------------ sorting */

struct stats_sort {
	uint64_t a, b, c;	/* compared in order */
	uint32_t idx;
};

static int stats_sort_cmp(const void *x, const void *y)
{
	const struct stats_sort *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	if (p->c != q->c)
		return p->c < q->c ? -1 : 1;
	return p->idx < q->idx ? -1 : p->idx > q->idx;
}

/* c->order = the indices of keys, sorted. Frees keys. 0 or -ENOMEM. */
static int stats_order(struct sink_stats *c, struct stats_sort *keys,
		       size_t n)
{
	size_t i;

	free(c->order);
	c->order = malloc((n ? n : 1) * sizeof(*c->order));
	if (!c->order) {
		free(keys);
		return -ENOMEM;
	}
	qsort(keys, n, sizeof(*keys), stats_sort_cmp);
	for (i = 0; i < n; i++)
		c->order[i] = keys[i].idx;
	c->norder = n;
	free(keys);
	return 0;
}

/* What --stats-sort orders d's row by (most first). */
static uint64_t stats_sort_value(const struct sink_stats *c,
				 const struct stats_dist *d)
{
	switch (c->sort) {
	case STATS_SORT_COUNT:
		return d->h.n + d->unpaired;
	case STATS_SORT_MAX:
		return d->h.n ? d->h.max : 0;
	case STATS_SORT_P99:
		return d->h.n ? hist_percentile(&d->h, 990) : 0;
	case STATS_SORT_TIME:
		break;
	}
	return d->h.total;
}

/* The rows a table shows: --stats-top, else dflt (0: all). */
static size_t stats_top(const struct sink_stats *c, size_t dflt)
{
	return c->top ? c->top : dflt;
}

/* ------------------------------------------------------ by reason */

static void stats_reason_row(const struct sink_stats *c, size_t i,
			     struct stats_cell *cells)
{
	const struct stats_reason *r;
	size_t col = 0;

	if (i == c->norder) {
		/* the total */
		stats_str(&cells[col++], "all");
		stats_str(&cells[col++], c->csv ? "" : "(all reasons)");
		if (c->csv)
			stats_str(&cells[col++], "");
		stats_dist_cells(c, cells + col, &c->all);
		return;
	}
	r = stats_row(&c->reasons, c->order[i]);
	stats_str(&cells[col++], r->key == STATS_OTHER
					 ? "-"
					 : stats_domain((enum domain)(r->key & 1)));
	stats_reason_cell(&cells[col++], r);
	if (c->csv) {
		if (r->key == STATS_OTHER)
			stats_str(&cells[col++], "");
		else
			stats_u64(&cells[col++], r->key >> 2);
	}
	stats_dist_cells(c, cells + col, &r->d);
}

/*
 * Reasons by --stats-sort (total time by default; most first), then by
 * exits, domain, kvmtrace first, value.
 */
static int stats_order_reasons(struct sink_stats *c)
{
	struct stats_sort *keys = malloc((c->reasons.n + 1) * sizeof(*keys));
	size_t i;

	if (!keys)
		return -ENOMEM;
	for (i = 0; i < c->reasons.n; i++) {
		const struct stats_reason *r = stats_row(&c->reasons, i);

		keys[i].a = r->key == STATS_OTHER ? UINT64_MAX
						  : ~stats_sort_value(c, &r->d);
		keys[i].b = ~(r->d.h.n + r->d.unpaired);
		keys[i].c = (r->key & 1) << 63 | (r->key >> 1 & 1) << 62 |
			    r->key >> 2;
		keys[i].idx = (uint32_t)i;
	}
	return stats_order(c, keys, c->reasons.n);
}

/* One bar per power of two of each reason's exit times. */
static int stats_log2_bars(struct sink_stats *c)
{
	const char *env = getenv("COLUMNS");
	long cols = env ? strtol(env, NULL, 10) : 0;
	uint64_t counts[65], most;
	size_t i, k, lo, hi, width;
	int ret = 0;

	if (cols < 40 || cols > 1000)
		cols = 80;
	ret = stats_printf(c->sink.out,
			   "\nExit times per reason, one bar per power of two (%s)\n",
			   c->time.ns ? "µs" : "ticks");
	for (i = 0; i < c->norder && ret == 0; i++) {
		const struct stats_reason *r = stats_row(&c->reasons, c->order[i]);
		struct stats_cell name, from, to;

		if (!r->d.h.n)
			continue;
		stats_reason_cell(&name, r);
		ret = stats_printf(c->sink.out, "\n%.*s: %" PRIu64 " exit%s\n",
				   (int)name.len, name.s, r->d.h.n,
				   r->d.h.n == 1 ? "" : "s");
		hist_log2(&r->d.h, counts);
		for (lo = 0; !counts[lo]; lo++)
			;
		for (hi = 64; !counts[hi]; hi--)
			;
		for (most = 0, k = lo; k <= hi; k++)
			if (counts[k] > most)
				most = counts[k];
		/* "[from, to)  |bars|  count" */
		width = (size_t)cols - 48;
		for (k = lo; k <= hi && ret == 0; k++) {
			size_t n = (size_t)((counts[k] * width + most - 1) / most);
			char bar[1001];

			stats_dur(c, &from, k ? 1ull << (k - 1) : 0);
			if (k < 64)
				stats_dur(c, &to, 1ull << k);
			else
				stats_str(&to, "max");
			memset(bar, '#', n);
			bar[n] = '\0';
			ret = stats_printf(c->sink.out, "%14.*s .. %-14.*s |%-*s %" PRIu64 "\n",
					   (int)from.len, from.s, (int)to.len,
					   to.s, (int)width, bar, counts[k]);
		}
	}
	return ret;
}

static const struct stats_col stats_reason_cols[] = {
	STATS_COL_L("domain"), STATS_COL_L("reason"),
	{ .csv = "value", .right = true },	/* the reason's number */
	STATS_DIST_COLS,
};

static const struct hist *stats_reason_hist(const struct sink_stats *c,
					    size_t i)
{
	if (i == c->norder)
		return &c->all.h;
	return &((const struct stats_reason *)stats_row(&c->reasons,
							 c->order[i]))->d.h;
}

static const struct stats_exit_table stats_reasons =
	STATS_EXIT_TABLE_H("exits_by_reason", stats_reason_cols,
			   stats_reason_row, stats_reason_hist);

static const char *const stats_sort_names[] = {
	[STATS_SORT_TIME] = "total time", [STATS_SORT_COUNT] = "count",
	[STATS_SORT_MAX] = "max", [STATS_SORT_P99] = "p99",
};

static int stats_reasons_table(struct sink_stats *c)
{
	size_t more = 0;
	int ret = 0;

	if (stats_order_reasons(c) < 0)
		return -ENOMEM;
	if (stats_top(c, 0) && c->norder > stats_top(c, 0)) {
		more = c->norder - stats_top(c, 0);
		c->norder = stats_top(c, 0);
	}
	if (!c->csv && !c->reasons.n)
		return stats_printf(c->sink.out, "\nExits: none (no kvm:kvm_exit or kvmtrace VMEXIT among the events)\n");
	if (!c->csv)
		ret = stats_printf(c->sink.out,
				   "%sExits: host time from an exit to the next entry of the same vCPU of the same VM, by %s, %s%s\n"
				   "(count%%, time%%: shares of all exits' count and time; p50…p99.9: nearest rank from a log-linear\n"
				   " histogram, within 0.79 %% of the exact value; unpaired: exits that met another exit or the end\n"
				   " first, not in the times)\n",
				   c->exits_first ? "" : "\n",
				   stats_sort_names[c->sort],
				   c->time.ns ? "each time in the unit its heading names" : "times in ticks",
				   c->time.ns ? "" : c->time.timeline == CLOCK_TSC ? " (pass -c MHZ for µs)" : "");
	if (ret == 0)
		ret = stats_exit_table_out(c, &stats_reasons,
					   c->norder + (c->reasons.n ? 1 : 0));
	if (ret == 0 && !c->csv && more)
		ret = stats_printf(c->sink.out, "(%zu more reason%s not shown: --stats-top)\n",
				   more, more == 1 ? "" : "s");
	if (ret == 0 && !c->csv && c->reasons.beyond)
		ret = stats_printf(c->sink.out, "(more than %u distinct reasons: the rest are counted together as \"(other reasons)\")\n",
				   SINK_MAXKEYS);
	return ret;
}

/* ------------------------------------------------- by VM and vCPU */

/*
 * Rows: per VM one "all" row (index >= pairs.n: VM index + pairs.n),
 * then its vCPUs. Tasks without a vCPU number have VM "-".
 */
static void stats_vcpu_row(const struct sink_stats *c, size_t i,
			   struct stats_cell *cells)
{
	uint32_t idx = c->order[i];
	const struct stats_dist *d;
	const struct sink_vcpu *v;
	size_t col = 0;
	uint32_t vm;

	if (idx >= c->x.pairs.n) {
		vm = idx - (uint32_t)c->x.pairs.n;
		stats_str(&cells[col++], c->x.pairs.vms.names[vm]);
		stats_str(&cells[col++], "all");
		stats_str(&cells[col++], c->csv ? "" : "-");
		d = &c->vms[vm];
	} else {
		v = &c->x.pairs.v[idx];
		if (sink_key_kind(v->key) == SINK_VCPU) {
			stats_str(&cells[col++],
				  c->x.pairs.vms.names[sink_key_vm(v->key)]);
			stats_u64(&cells[col++], sink_key_vcpu(v->key));
		} else {
			stats_str(&cells[col++], c->csv ? "" : "-");
			stats_str(&cells[col++], c->csv ? "" : "?");
		}
		stats_u64(&cells[col++], (uint64_t)v->host_tid);
		d = &c->vcpus[idx];
	}
	stats_dist_cells(c, cells + col, d);
}

static int stats_order_vcpus(struct sink_stats *c)
{
	size_t n = c->x.pairs.n + c->nvms, i, k = 0;
	struct stats_sort *keys = malloc((n + 1) * sizeof(*keys));
	uint32_t *per_vm = calloc(c->nvms + 1, sizeof(*per_vm));

	if (!keys || !per_vm) {
		free(keys);
		free(per_vm);
		return -ENOMEM;
	}
	for (i = 0; i < c->x.pairs.n && i < c->nvcpus; i++) {
		const struct sink_vcpu *v = &c->x.pairs.v[i];
		bool vcpu = sink_key_kind(v->key) == SINK_VCPU;

		if (!c->vcpus[i].h.n && !c->vcpus[i].unpaired)
			continue;
		if (vcpu && sink_key_vm(v->key) < c->nvms)
			per_vm[sink_key_vm(v->key)]++;
		keys[k].a = vcpu ? sink_key_vm(v->key) : UINT32_MAX;
		keys[k].b = 1;
		keys[k].c = vcpu ? sink_key_vcpu(v->key) : (uint64_t)v->host_tid;
		keys[k++].idx = (uint32_t)i;
	}
	/* a VM's "all" row, where it has more than one vCPU */
	for (i = 0; i < c->nvms && i < c->x.pairs.vms.n; i++) {
		if (per_vm[i] < 2)
			continue;
		keys[k].a = i;
		keys[k].b = 0;
		keys[k].c = 0;
		keys[k++].idx = (uint32_t)(c->x.pairs.n + i);
	}
	free(per_vm);
	return stats_order(c, keys, k);
}

static const struct stats_col stats_vcpu_cols[] = {
	STATS_COL_L("vm"), STATS_COL_N("vcpu"), STATS_COL_N("host_tid"),
	STATS_DIST_COLS,
};

static const struct hist *stats_vcpu_hist(const struct sink_stats *c,
					  size_t i)
{
	uint32_t idx = c->order[i];

	if (idx >= c->x.pairs.n)
		return &c->vms[idx - c->x.pairs.n].h;
	return &c->vcpus[idx].h;
}

static const struct stats_exit_table stats_vcpus =
	STATS_EXIT_TABLE_H("exits_by_vcpu", stats_vcpu_cols, stats_vcpu_row,
			   stats_vcpu_hist);

static int stats_vcpus_table(struct sink_stats *c)
{
	int ret = 0;

	if (stats_order_vcpus(c) < 0)
		return -ENOMEM;
	if (!c->norder && c->mode != STATS_JSON)
		return 0;
	if (c->csv && c->mode != STATS_JSON)
		ret = stats_put(c->sink.out, "\n", 1);
	else if (!c->csv)
		ret = stats_printf(c->sink.out,
				   "\nExits per VM and vCPU (VM: as the input names it, else the pid of the vCPU's host thread)\n");
	if (ret == 0)
		ret = stats_exit_table_out(c, &stats_vcpus, c->norder);
	if (ret == 0 && !c->csv && c->x.exits_over)
		ret = stats_printf(c->sink.out, "(%" PRIu64 " exit%s of vCPUs beyond the first %u %s not paired nor counted above)\n",
				   c->x.exits_over,
				   c->x.exits_over == 1 ? "" : "s", SINK_MAXKEYS,
				   c->x.exits_over == 1 ? "is" : "are");
	return ret;
}

/* ---------------------------------------- by VM, vCPU and reason */

static void stats_cross_row(const struct sink_stats *c, size_t i,
			    struct stats_cell *cells)
{
	const struct stats_cross *x = stats_row(&c->cross, c->order[i]);
	const struct stats_reason *r = stats_row(&c->reasons, x->reason);
	const struct sink_vcpu *v =
		x->vcpu != UINT32_MAX ? &c->x.pairs.v[x->vcpu] : NULL;
	size_t col = 0;

	if (v && sink_key_kind(v->key) == SINK_VCPU) {
		stats_str(&cells[col++], c->x.pairs.vms.names[sink_key_vm(v->key)]);
		stats_u64(&cells[col++], sink_key_vcpu(v->key));
	} else {
		stats_str(&cells[col++], v ? "-" : "(other)");
		stats_str(&cells[col++], c->csv ? "" : "-");
	}
	if (x->vcpu == UINT32_MAX)
		stats_str(&cells[col++], "(other)");
	else
		stats_reason_cell(&cells[col++], r);
	stats_dist_cells(c, cells + col, &x->d);
}

static int stats_order_cross(struct sink_stats *c)
{
	struct stats_sort *keys = malloc((c->cross.n + 1) * sizeof(*keys));
	size_t i;

	if (!keys)
		return -ENOMEM;
	for (i = 0; i < c->cross.n; i++) {
		const struct stats_cross *x = stats_row(&c->cross, i);
		const struct sink_vcpu *v =
			x->vcpu != UINT32_MAX ? &c->x.pairs.v[x->vcpu] : NULL;

		keys[i].a = v ? (uint64_t)sink_key_vm(v->key) << 32 |
					sink_key_vcpu(v->key)
			      : UINT64_MAX;
		keys[i].b = ~stats_sort_value(c, &x->d);
		keys[i].c = (uint64_t)~(x->d.h.n + x->d.unpaired) << 32 |
			    x->reason;
		keys[i].idx = (uint32_t)i;
	}
	return stats_order(c, keys, c->cross.n);
}

/* With --stats-top: the first rows of each vCPU (c->order). */
static size_t stats_cross_top(struct sink_stats *c)
{
	size_t i, j = 0, run = 0, top = stats_top(c, 0), more = 0;
	uint32_t last = UINT32_MAX - 1;

	if (!top)
		return 0;
	for (i = 0; i < c->norder; i++) {
		const struct stats_cross *x = stats_row(&c->cross, c->order[i]);

		run = x->vcpu == last ? run + 1 : 0;
		last = x->vcpu;
		if (run < top)
			c->order[j++] = c->order[i];
		else
			more++;
	}
	c->norder = j;
	return more;
}

static const struct stats_col stats_cross_cols[] = {
	STATS_COL_L("vm"), STATS_COL_N("vcpu"), STATS_COL_L("reason"),
	STATS_DIST_COLS,
};

static const struct hist *stats_cross_hist(const struct sink_stats *c,
					   size_t i)
{
	return &((const struct stats_cross *)stats_row(&c->cross,
							c->order[i]))->d.h;
}

static const struct stats_exit_table stats_cross =
	STATS_EXIT_TABLE_H("exits_by_vcpu_and_reason", stats_cross_cols,
			   stats_cross_row, stats_cross_hist);

static int stats_cross_table(struct sink_stats *c)
{
	size_t more;
	int ret = 0;

	/* one vCPU: the reasons table says it all */
	if (c->x.pairs.n < 2 && c->mode != STATS_JSON)
		return 0;
	if (stats_order_cross(c) < 0)
		return -ENOMEM;
	more = stats_cross_top(c);
	if (c->csv && c->mode != STATS_JSON)
		ret = stats_put(c->sink.out, "\n", 1);
	else if (!c->csv)
		ret = stats_printf(c->sink.out, "\nExits per VM, vCPU and reason (by %s)\n",
				   stats_sort_names[c->sort]);
	ret = ret ? ret : stats_exit_table_out(c, &stats_cross, c->norder);
	if (ret == 0 && !c->csv && more)
		ret = stats_printf(c->sink.out, "(%zu more not shown: --stats-top)\n",
				   more);
	return ret;
}

/* ------------------------------------------------------------ kinds */

static const char *const stats_kind_names[SINK_NKINDS] = {
	[SINK_KIND_PIO] = "pio port",
	[SINK_KIND_MMIO] = "mmio gpa",
	[SINK_KIND_MSR] = "msr",
	[SINK_KIND_HYPERCALL] = "hypercall",
	[SINK_KIND_VIRQ] = "virq vector",
};

const char *stats_kind_name(unsigned kind)
{
	return kind < SINK_NKINDS ? stats_kind_names[kind] : NULL;
}

static void stats_kind_row(const struct sink_stats *c, size_t i,
			   struct stats_cell *cells)
{
	const struct stats_kind *k = stats_row(&c->kinds, c->order[i]);
	unsigned kind = (unsigned)(k->key & 7);

	if (k->key == STATS_OTHER) {
		stats_str(&cells[0], "(other)");
		stats_str(&cells[1], c->csv ? "" : "-");
	} else {
		stats_str(&cells[0], kind < SINK_NKINDS && stats_kind_names[kind]
					     ? stats_kind_names[kind] : "?");
		cells[1].len = (size_t)snprintf(cells[1].s, STATS_CELL,
						"0x%" PRIx64, k->key >> 3);
	}
	stats_u64(&cells[2], k->count);
	stats_dur(c, &cells[3], k->total);
	stats_mean(c, &cells[4], k->total, k->count);
	stats_dur(c, &cells[5], k->max);
}

static const struct stats_col stats_kind_cols[] = {
	STATS_COL_L("kind"), STATS_COL_L("key"), STATS_COL_N("count"),
	STATS_COL_T("total"), STATS_COL_T("mean"), STATS_COL_T("max"),
};

static const struct stats_exit_table stats_kinds =
	STATS_EXIT_TABLE("exits_by_kind", stats_kind_cols, stats_kind_row);

static int stats_kinds_table(struct sink_stats *c)
{
	struct stats_sort *keys = malloc((c->kinds.n + 1) * sizeof(*keys));
	size_t i, k = 0, j, shown[SINK_NKINDS + 1] = { 0 };
	int ret = 0;

	if (!keys)
		return -ENOMEM;
	for (i = 0; i < c->kinds.n; i++) {
		const struct stats_kind *r = stats_row(&c->kinds, i);

		keys[i].a = r->key == STATS_OTHER ? 7 : r->key & 7;
		keys[i].b = ~(c->sort == STATS_SORT_COUNT ? r->count :
			      c->sort == STATS_SORT_MAX ? r->max : r->total);
		keys[i].c = r->key >> 3;
		keys[i].idx = (uint32_t)i;
	}
	if (stats_order(c, keys, c->kinds.n) < 0)
		return -ENOMEM;
	/* text (or --stats-top): the top entries of each kind */
	if (!c->csv || c->top) {
		for (i = j = 0; i < c->norder; i++) {
			const struct stats_kind *r = stats_row(&c->kinds, c->order[i]);
			unsigned kind = r->key == STATS_OTHER ? SINK_NKINDS
							      : (unsigned)(r->key & 7);

			if (shown[kind]++ < stats_top(c, STATS_TOPKINDS))
				c->order[j++] = c->order[i];
		}
		c->norder = j;
	}
	if (!c->norder && c->mode != STATS_JSON)
		return 0;
	if (c->csv && c->mode != STATS_JSON)
		ret = stats_put(c->sink.out, "\n", 1);
	else if (!c->csv)
		ret = stats_printf(c->sink.out,
				   "\nExits by what they were about (kvm_pio, kvm_mmio, kvm_msr, kvm_hypercall, kvm_inj_virq; top %zu of each by %s)\n",
				   stats_top(c, STATS_TOPKINDS),
				   c->sort == STATS_SORT_COUNT ? "count" :
				   c->sort == STATS_SORT_MAX ? "max" : "host time");
	for (i = 0; i <= SINK_NKINDS; i++)
		k += shown[i] > stats_top(c, STATS_TOPKINDS)
			     ? shown[i] - stats_top(c, STATS_TOPKINDS) : 0;
	ret = ret ? ret : stats_exit_table_out(c, &stats_kinds, c->norder);
	if (ret == 0 && k && !c->csv)
		ret = stats_printf(c->sink.out, "(%zu more not shown)\n", k);
	return ret;
}

/* --------------------------------------------------- guest functions */

static void stats_gfunc_row(const struct sink_stats *c, size_t i,
			   struct stats_cell *cells)
{
	const struct stats_gfunc *f = stats_row(&c->funcs, c->order[i]);
	const struct stats_reason *r = stats_row(&c->reasons, f->reason);

	stats_str(&cells[0], f->sym ? f->sym : "(other)");
	if (!f->sym)
		stats_str(&cells[1], c->csv ? "" : "-");
	else
		stats_reason_cell(&cells[1], r);
	stats_u64(&cells[2], f->count);
	stats_dur(c, &cells[3], f->total);
	stats_mean(c, &cells[4], f->total, f->count);
}

static const struct stats_col stats_gfunc_cols[] = {
	{ .text = "guest function", .csv = "guest_function" },
	STATS_COL_L("reason"), STATS_COL_N("count"), STATS_COL_T("total"),
	STATS_COL_T("mean"),
};

static const struct stats_exit_table stats_gfuncs =
	STATS_EXIT_TABLE("exits_by_guest_function", stats_gfunc_cols,
			 stats_gfunc_row);

static int stats_gfuncs_table(struct sink_stats *c)
{
	struct stats_sort *keys;
	size_t i, more = 0;
	int ret = 0;

	if (!c->syms && !c->sym_src && !c->ngcpus && c->mode != STATS_JSON)
		return 0;
	/* no exit at all: "Exits: none" said it, not an empty table */
	if (!c->csv && !c->reasons.n)
		return 0;
	keys = malloc((c->funcs.n + 1) * sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	for (i = 0; i < c->funcs.n; i++) {
		const struct stats_gfunc *f = stats_row(&c->funcs, i);

		keys[i].a = ~(c->sort == STATS_SORT_COUNT ? f->count : f->total);
		keys[i].b = f->reason;
		keys[i].c = 0;
		keys[i].idx = (uint32_t)i;
	}
	if (stats_order(c, keys, c->funcs.n) < 0)
		return -ENOMEM;
	if ((!c->csv || c->top) && c->norder > stats_top(c, STATS_TOPFUNCS)) {
		more = c->norder - stats_top(c, STATS_TOPFUNCS);
		c->norder = stats_top(c, STATS_TOPFUNCS);
	}
	if (c->csv && c->mode != STATS_JSON)
		ret = stats_put(c->sink.out, "\n", 1);
	else if (!c->csv)
		ret = stats_printf(c->sink.out,
				   "\nExits by guest function (the function holding the exit's guest RIP, else the one a uftrace guest has open on the vCPU; by %s)\n",
				   c->sort == STATS_SORT_COUNT ? "count" : "host time");
	ret = ret ? ret : stats_exit_table_out(c, &stats_gfuncs, c->norder);
	if (ret == 0 && more)
		ret = stats_printf(c->sink.out, "(%zu more not shown)\n", more);
	/* exits (none, and the table is left out above), but none in a
	 * function: say why the table is empty */
	if (ret == 0 && !c->csv && !c->funcs.n)
		ret = stats_printf(c->sink.out, "(none: no exit's guest RIP lies in a function of the guest's symbols%s)\n",
				   c->ngcpus ? ", and no uftrace guest had one open" : "");
	return ret;
}

/* ------------------------------------------------------------ report */

int stats_exits_report(struct sink_stats *c)
{
	int ret = stats_exits_finish(c);

	if (ret == 0)
		ret = stats_reasons_table(c);
	if (ret == 0 && c->x.entries_unpaired && !c->csv)
		ret = stats_printf(c->sink.out, "%" PRIu64 " entr%s without an exit before (not counted)\n",
				   c->x.entries_unpaired,
				   c->x.entries_unpaired == 1 ? "y" : "ies");
	if (ret == 0 && c->mode == STATS_HIST)
		ret = stats_log2_bars(c);
	/* saved statistics merged: the vCPU tables are each host's own */
	if (c->merged)
		return ret ? ret : stats_merge_longest_table(c);
	/* JSON: every member, empty or not */
	if (ret == 0 && (c->reasons.n || c->mode == STATS_JSON))
		ret = stats_vcpus_table(c);
	if (ret == 0 && (c->reasons.n || c->mode == STATS_JSON))
		ret = stats_cross_table(c);
	if (ret == 0 && (c->kinds.n || c->mode == STATS_JSON))
		ret = stats_kinds_table(c);
	if (ret == 0)
		ret = stats_gfuncs_table(c);
	if (ret == 0 && (c->nlongest || c->mode == STATS_JSON))
		ret = stats_longest_table(c);
	return ret;
}
