// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The statistics sink's exits: each exit pairs with the next entry of the
 * same vCPU of the same VM; the host time between them goes into
 * fixed-size histograms (hist.h) per reason, per VM, per vCPU, per
 * (vCPU, reason) and in total. Events that say what an exit was about
 * (kvm_pio, kvm_mmio, kvm_msr, kvm_hypercall, kvm_inj_virq and their
 * kvmtrace ancestors) charge the exit's time to their port, address, MSR,
 * number or vector; an exit's guest RIP charges it to the guest function
 * (--guest-syms). Every table keeps at most SINK_MAXKEYS keys and one
 * "other" row for the rest.
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
#include "symtab.h"

#define STATS_TOPKINDS	10	/* rows per kind in the text table */
#define STATS_TOPFUNCS	20	/* rows of the guest functions table */
#define STATS_NOSYM	UINT32_MAX

/* -------------------------------------------------------------- rows */

void stats_rows_fini(struct stats_rows *r)
{
	sink_map_fini(&r->map);
	free(r->v);
	r->v = NULL;
	r->n = r->cap = 0;
}

int stats_rows_get(struct stats_rows *r, uint64_t key, uint32_t *idx,
		   bool *made)
{
	uint32_t i = sink_map_find(&r->map, key);
	void *grown;

	*made = false;
	if (i != SINK_MAP_EMPTY) {
		*idx = i;
		return 0;
	}
	if (r->n >= SINK_MAXKEYS) {
		r->beyond++;
		if (r->other != SINK_MAP_EMPTY && r->n > SINK_MAXKEYS) {
			*idx = r->other;
			return 0;
		}
	}
	grown = r->v;
	if (sink_reserve(&grown, &r->cap, r->n, r->size) < 0)
		return -ENOMEM;
	r->v = grown;
	memset(stats_row(r, r->n), 0, r->size);
	if (r->n >= SINK_MAXKEYS) {
		r->other = (uint32_t)r->n;
	} else if (sink_map_add(&r->map, key, (uint32_t)r->n) < 0) {
		return -ENOMEM;
	}
	*idx = (uint32_t)r->n++;
	*made = true;
	return 0;
}

static void stats_rows_init(struct stats_rows *r, size_t size)
{
	memset(r, 0, sizeof(*r));
	r->size = size;
	r->other = SINK_MAP_EMPTY;
}

void stats_exits_fini(struct sink_stats *c)
{
	size_t i;

	for (i = 0; i < c->reasons.n; i++) {
		struct stats_reason *r = stats_row(&c->reasons, i);

		free(r->name);
		hist_fini(&r->d.h);
	}
	for (i = 0; i < c->cross.n; i++)
		hist_fini(&((struct stats_cross *)stats_row(&c->cross, i))->d.h);
	stats_rows_fini(&c->reasons);
	stats_rows_fini(&c->cross);
	stats_rows_fini(&c->kinds);
	stats_rows_fini(&c->funcs);
	for (i = 0; i < c->nvcpus; i++)
		hist_fini(&c->vcpus[i].h);
	free(c->vcpus);
	for (i = 0; i < c->nvms; i++)
		hist_fini(&c->vms[i].h);
	free(c->vms);
	hist_fini(&c->all.h);
	free(c->order);
}

/* ------------------------------------------------------------ collect */

/*
 * The index of the reason with key, made on first sight; ev (an exit, or
 * NULL) names it.
 */
static int stats_reason(struct sink_stats *c, const struct stats_type *st,
			const struct event *ev, uint64_t key, uint32_t *out)
{
	struct stats_reason *r;
	char name[128];
	bool made;

	if (!c->reasons.size)
		stats_rows_init(&c->reasons, sizeof(struct stats_reason));
	if (stats_rows_get(&c->reasons, key, out, &made) < 0)
		return -ENOMEM;
	if (!made)
		return 0;
	r = stats_row(&c->reasons, *out);
	r->key = *out == c->reasons.other ? STATS_OTHER : key;
	if (r->key != STATS_OTHER && ev &&
	    sink_reason_name(c->sink.render, ev, &st->st, key >> 2, name,
			     sizeof(name))) {
		r->name = strdup(name);
		if (!r->name)
			return -ENOMEM;
	}
	return 0;
}

/* The distributions of v's exit, of reason index ref. */
static int stats_dists(struct sink_stats *c, const struct sink_vcpu *v,
		       uint32_t ref, struct stats_dist **out)
{
	size_t vi = (size_t)(v - c->pairs.v);
	uint32_t vm = sink_key_vm(v->key), xi;
	struct stats_cross *x;
	void *grown;
	bool made;

	out[0] = &c->all;
	out[1] = &((struct stats_reason *)stats_row(&c->reasons, ref))->d;
	out[2] = out[3] = out[4] = NULL;
	if (sink_key_kind(v->key) != SINK_VCPU)
		vm = SINK_VM_OVER;	/* a task without a vCPU number */
	grown = c->vcpus;
	if (sink_grow(&grown, &c->nvcpus, (uint32_t)vi, sizeof(*c->vcpus)) < 0)
		return -ENOMEM;
	c->vcpus = grown;
	out[2] = &c->vcpus[vi];
	if (vm != SINK_VM_OVER) {
		grown = c->vms;
		if (sink_grow(&grown, &c->nvms, vm, sizeof(*c->vms)) < 0)
			return -ENOMEM;
		c->vms = grown;
		out[3] = &c->vms[vm];
	}
	if (!c->cross.size)
		stats_rows_init(&c->cross, sizeof(struct stats_cross));
	if (stats_rows_get(&c->cross, (uint64_t)vi << 32 | ref, &xi, &made) < 0)
		return -ENOMEM;
	x = stats_row(&c->cross, xi);
	if (made) {
		x->vcpu = xi == c->cross.other ? UINT32_MAX : (uint32_t)vi;
		x->reason = ref;
	}
	out[4] = &x->d;
	return 0;
}

static int stats_unpaired(struct sink_stats *c, struct sink_vcpu *v)
{
	struct stats_dist *d[5];
	size_t i;

	if (v->ref == STATS_NOREF &&
	    stats_reason(c, NULL, NULL, v->reason, &v->ref) < 0)
		return -ENOMEM;
	if (stats_dists(c, v, v->ref, d) < 0)
		return -ENOMEM;
	for (i = 0; i < 5; i++)
		if (d[i])
			d[i]->unpaired++;
	v->pending = false;
	return 0;
}

int stats_exit(struct sink_stats *c, struct stats_type *st,
	       const struct event *ev)
{
	struct sink_vcpu *v = sink_pairs_get(&c->pairs, &st->st, ev);
	uint64_t value, rip;
	int64_t sym;

	if (!v)
		return -ENOMEM;
	if (v->over) {
		c->exits_over++;
		return 0;
	}
	if (v->pending && stats_unpaired(c, v) < 0)
		return -ENOMEM;
	if (sink_field_u64(ev, st->st.reason, &value) < 0)
		value = 0;
	v->reason = stats_reason_key(value, !ev->type->has_id,
				     ev->src->domain);
	if (st->named < 0)
		st->named = sink_reason_named(c->sink.render, ev, &st->st);
	if (stats_reason(c, st, ev, v->reason, &v->ref) < 0)
		return -ENOMEM;
	v->kind = SINK_KIND_NONE;
	v->sym = STATS_NOSYM;
	if (c->syms && sink_exit_rip(&st->st, ev, &rip) == 0) {
		sym = symtab_find(c->syms, rip);
		if (sym >= 0 && sym < STATS_NOSYM)
			v->sym = (uint32_t)sym;
	}
	v->pending = true;
	v->exit_ts = ev->ts;
	return 0;
}

int stats_kind_event(struct sink_stats *c, const struct stats_type *st,
		     const struct event *ev)
{
	enum sink_kind kind = sink_kind(&st->st, ev);
	struct sink_vcpu *v;
	uint64_t value;

	if (kind == SINK_KIND_NONE ||
	    sink_field_u64(ev, st->st.value, &value) < 0)
		return 0;
	v = sink_pairs_get(&c->pairs, &st->st, ev);
	if (!v)
		return -ENOMEM;
	/* the first such event of an exit says what it is about */
	if (v->pending && !v->over && v->kind == SINK_KIND_NONE) {
		v->kind = (uint8_t)kind;
		v->kind_value = value;
	}
	return 0;
}

static int stats_charge(struct sink_stats *c, const struct sink_vcpu *v,
			uint64_t dur)
{
	struct stats_kind *k;
	struct stats_func *f;
	uint32_t i;
	bool made;

	if (v->kind != SINK_KIND_NONE) {
		if (!c->kinds.size)
			stats_rows_init(&c->kinds, sizeof(struct stats_kind));
		if (stats_rows_get(&c->kinds, v->kind_value << 3 | v->kind, &i,
				   &made) < 0)
			return -ENOMEM;
		k = stats_row(&c->kinds, i);
		if (made)
			k->key = i == c->kinds.other ? STATS_OTHER
						     : v->kind_value << 3 | v->kind;
		k->count++;
		k->total = k->total + dur < k->total ? UINT64_MAX : k->total + dur;
		if (dur > k->max)
			k->max = dur;
	}
	if (v->sym != STATS_NOSYM) {
		if (!c->funcs.size)
			stats_rows_init(&c->funcs, sizeof(struct stats_func));
		if (stats_rows_get(&c->funcs, (uint64_t)v->sym << 32 | v->ref, &i,
				   &made) < 0)
			return -ENOMEM;
		f = stats_row(&c->funcs, i);
		if (made) {
			f->sym = i == c->funcs.other ? STATS_NOSYM : v->sym;
			f->reason = v->ref;
		}
		f->count++;
		f->total = f->total + dur < f->total ? UINT64_MAX : f->total + dur;
	}
	return 0;
}

int stats_entry(struct sink_stats *c, const struct stats_type *st,
		const struct event *ev)
{
	struct sink_vcpu *v = sink_pairs_get(&c->pairs, &st->st, ev);
	struct stats_dist *d[5];
	uint64_t dur;
	size_t i;

	if (!v)
		return -ENOMEM;
	if (v->over)
		return 0;
	if (!v->pending) {
		c->entries_unpaired++;
		return 0;
	}
	v->pending = false;
	dur = ev->ts > v->exit_ts ? ev->ts - v->exit_ts : 0;
	if (stats_dists(c, v, v->ref, d) < 0)
		return -ENOMEM;
	for (i = 0; i < 5; i++)
		if (d[i] && hist_record(&d[i]->h, dur) < 0)
			return -ENOMEM;
	return stats_charge(c, v, dur);
}

/* ------------------------------------------------------------- cells */

/* The name of reason r (a row of c->reasons). */
static void stats_reason_cell(struct stats_cell *cell,
			      const struct stats_reason *r)
{
	if (r->key == STATS_OTHER)
		stats_str(cell, "(other reasons)");
	else if (r->name)
		stats_str(cell, r->name);
	else
		cell->len = sink_reason_default(cell->s, r->key >> 2);
}

/*
 * count, share, total, mean, min, p50, p90, p99, p99.9, max, unpaired of
 * d into cells; returns the columns written (11).
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
		stats_mean(c, &cells[col++], h->total, h->n);
		stats_dur(c, &cells[col++], h->min);
		for (i = 0; i < 4; i++)
			stats_dur(c, &cells[col++], hist_percentile(h, q[i]));
		stats_dur(c, &cells[col++], h->max);
	} else {
		for (i = 0; i < 8; i++)
			stats_str(&cells[col++], none);
	}
	stats_u64(&cells[col++], d->unpaired);
	return col;
}

#define STATS_DIST_TEXT	"count", "share%", "total", "mean", "min", "p50", \
			"p90", "p99", "p99.9", "max", "unpaired"
#define STATS_DIST_US	"count", "share_pct", "total_us", "mean_us", \
			"min_us", "p50_us", "p90_us", "p99_us", \
			"p99_9_us", "max_us", "unpaired"
#define STATS_DIST_TICKS "count", "share_pct", "total_ticks", "mean_ticks", \
			"min_ticks", "p50_ticks", "p90_ticks", "p99_ticks", \
			"p99_9_ticks", "max_ticks", "unpaired"

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

/* Reasons by exits (most first), then domain, kvmtrace first, value. */
static int stats_order_reasons(struct sink_stats *c)
{
	struct stats_sort *keys = malloc((c->reasons.n + 1) * sizeof(*keys));
	size_t i;

	if (!keys)
		return -ENOMEM;
	for (i = 0; i < c->reasons.n; i++) {
		const struct stats_reason *r = stats_row(&c->reasons, i);

		keys[i].a = r->key == STATS_OTHER ? UINT64_MAX
						  : ~(r->d.h.n + r->d.unpaired);
		keys[i].b = (r->key & 1) << 63 | (r->key >> 1 & 1) << 62 |
			    r->key >> 2;
		keys[i].c = 0;
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
			   stats_dur_unit(c));
	for (i = 0; i < c->norder && ret == 0; i++) {
		const struct stats_reason *r = stats_row(&c->reasons, c->order[i]);
		struct stats_cell name, from, to;

		if (!r->d.h.n)
			continue;
		stats_reason_cell(&name, r);
		ret = stats_printf(c->sink.out, "\n%.*s: %" PRIu64 " exits\n",
				   (int)name.len, name.s, r->d.h.n);
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

static int stats_reasons_table(struct sink_stats *c)
{
	static const char *const head_text[] = { "domain", "reason",
						 STATS_DIST_TEXT };
	static const char *const head_us[] = { "domain", "reason", "value",
					       STATS_DIST_US };
	static const char *const head_ticks[] = { "domain", "reason", "value",
						  STATS_DIST_TICKS };
	struct stats_table t = {
		.name = "exits_by_reason",
		.ncols = c->csv ? 14 : 13,
		.head = c->csv ? (c->time.ns ? head_us : head_ticks) : head_text,
		.right = c->csv ? "llrrrrrrrrrrrr" : "llrrrrrrrrrrr",
		.row = stats_reason_row,
	};
	int ret = 0;

	if (stats_order_reasons(c) < 0)
		return -ENOMEM;
	t.nrows = c->norder + (c->reasons.n ? 1 : 0);
	if (!c->csv)
		ret = stats_printf(c->sink.out,
				   "\nExits: host time from an exit to the next entry of the same vCPU of the same VM, in %s%s\n"
				   "(p50…p99.9: nearest rank from a log-linear histogram, within 0.79 %% of the exact value;\n"
				   " unpaired: exits that met another exit or the end first, not in the times)\n",
				   c->time.ns ? "µs" : "ticks",
				   c->time.ns ? "" : c->time.timeline == CLOCK_TSC ? " (pass -c MHZ for µs)" : "");
	if (ret == 0 && !c->reasons.n && !c->csv)
		ret = stats_printf(c->sink.out, "no exits\n");
	else if (ret == 0)
		ret = stats_table_out(c, &t);
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

	if (idx >= c->pairs.n) {
		vm = idx - (uint32_t)c->pairs.n;
		stats_str(&cells[col++], c->pairs.vms.names[vm]);
		stats_str(&cells[col++], "all");
		stats_str(&cells[col++], c->csv ? "" : "-");
		d = &c->vms[vm];
	} else {
		v = &c->pairs.v[idx];
		if (sink_key_kind(v->key) == SINK_VCPU) {
			stats_str(&cells[col++],
				  c->pairs.vms.names[sink_key_vm(v->key)]);
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
	size_t n = c->pairs.n + c->nvms, i, k = 0;
	struct stats_sort *keys = malloc((n + 1) * sizeof(*keys));
	uint32_t *per_vm = calloc(c->nvms + 1, sizeof(*per_vm));

	if (!keys || !per_vm) {
		free(keys);
		free(per_vm);
		return -ENOMEM;
	}
	for (i = 0; i < c->pairs.n && i < c->nvcpus; i++) {
		const struct sink_vcpu *v = &c->pairs.v[i];
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
	for (i = 0; i < c->nvms && i < c->pairs.vms.n; i++) {
		if (per_vm[i] < 2)
			continue;
		keys[k].a = i;
		keys[k].b = 0;
		keys[k].c = 0;
		keys[k++].idx = (uint32_t)(c->pairs.n + i);
	}
	free(per_vm);
	return stats_order(c, keys, k);
}

static int stats_vcpus_table(struct sink_stats *c)
{
	static const char *const head_text[] = { "vm", "vcpu", "host_tid",
						 STATS_DIST_TEXT };
	static const char *const head_us[] = { "vm", "vcpu", "host_tid",
					       STATS_DIST_US };
	static const char *const head_ticks[] = { "vm", "vcpu", "host_tid",
						  STATS_DIST_TICKS };
	struct stats_table t = {
		.name = "exits_by_vcpu",
		.ncols = 14,
		.head = c->csv ? (c->time.ns ? head_us : head_ticks) : head_text,
		.right = "lrrrrrrrrrrrrr",
		.row = stats_vcpu_row,
	};
	int ret = 0;

	if (stats_order_vcpus(c) < 0)
		return -ENOMEM;
	t.nrows = c->norder;
	if (!c->norder && c->mode != STATS_JSON)
		return 0;
	if (c->csv && c->mode != STATS_JSON)
		ret = stats_put(c->sink.out, "\n", 1);
	else if (!c->csv)
		ret = stats_printf(c->sink.out,
				   "\nExits per VM and vCPU (VM: as the input names it, else the pid of the vCPU's host thread)\n");
	if (ret == 0)
		ret = stats_table_out(c, &t);
	if (ret == 0 && !c->csv && c->exits_over)
		ret = stats_printf(c->sink.out, "(%" PRIu64 " exits of vCPUs beyond the first %u are not paired nor counted above)\n",
				   c->exits_over, SINK_MAXKEYS);
	return ret;
}

/* ---------------------------------------- by VM, vCPU and reason */

static void stats_cross_row(const struct sink_stats *c, size_t i,
			    struct stats_cell *cells)
{
	const struct stats_cross *x = stats_row(&c->cross, c->order[i]);
	const struct stats_reason *r = stats_row(&c->reasons, x->reason);
	const struct sink_vcpu *v =
		x->vcpu != UINT32_MAX ? &c->pairs.v[x->vcpu] : NULL;
	size_t col = 0;

	if (v && sink_key_kind(v->key) == SINK_VCPU) {
		stats_str(&cells[col++], c->pairs.vms.names[sink_key_vm(v->key)]);
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
			x->vcpu != UINT32_MAX ? &c->pairs.v[x->vcpu] : NULL;

		keys[i].a = v ? (uint64_t)sink_key_vm(v->key) << 32 |
					sink_key_vcpu(v->key)
			      : UINT64_MAX;
		keys[i].b = ~(x->d.h.n + x->d.unpaired);
		keys[i].c = x->reason;
		keys[i].idx = (uint32_t)i;
	}
	return stats_order(c, keys, c->cross.n);
}

static int stats_cross_table(struct sink_stats *c)
{
	static const char *const head_text[] = { "vm", "vcpu", "reason",
						 STATS_DIST_TEXT };
	static const char *const head_us[] = { "vm", "vcpu", "reason",
					       STATS_DIST_US };
	static const char *const head_ticks[] = { "vm", "vcpu", "reason",
						  STATS_DIST_TICKS };
	struct stats_table t = {
		.name = "exits_by_vcpu_and_reason",
		.ncols = 14,
		.head = c->csv ? (c->time.ns ? head_us : head_ticks) : head_text,
		.right = "lrlrrrrrrrrrrr",
		.row = stats_cross_row,
	};
	int ret = 0;

	/* one vCPU: the reasons table says it all */
	if (c->pairs.n < 2 && c->mode != STATS_JSON)
		return 0;
	if (stats_order_cross(c) < 0)
		return -ENOMEM;
	t.nrows = c->norder;
	if (c->csv && c->mode != STATS_JSON)
		ret = stats_put(c->sink.out, "\n", 1);
	else if (!c->csv)
		ret = stats_printf(c->sink.out, "\nExits per VM, vCPU and reason\n");
	return ret ? ret : stats_table_out(c, &t);
}

/* ------------------------------------------------------------ kinds */

static const char *const stats_kind_names[SINK_NKINDS] = {
	[SINK_KIND_PIO] = "pio port",
	[SINK_KIND_MMIO] = "mmio gpa",
	[SINK_KIND_MSR] = "msr",
	[SINK_KIND_HYPERCALL] = "hypercall",
	[SINK_KIND_VIRQ] = "virq vector",
};

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

static int stats_kinds_table(struct sink_stats *c)
{
	static const char *const head_text[] = { "kind", "key", "count",
						 "total", "mean", "max" };
	static const char *const head_us[] = { "kind", "key", "count",
					       "total_us", "mean_us", "max_us" };
	static const char *const head_ticks[] = { "kind", "key", "count",
						  "total_ticks", "mean_ticks",
						  "max_ticks" };
	struct stats_table t = {
		.name = "exits_by_kind",
		.ncols = 6,
		.head = c->csv ? (c->time.ns ? head_us : head_ticks) : head_text,
		.right = "llrrrr",
		.row = stats_kind_row,
	};
	struct stats_sort *keys = malloc((c->kinds.n + 1) * sizeof(*keys));
	size_t i, k = 0, j, shown[SINK_NKINDS + 1] = { 0 };
	int ret = 0;

	if (!keys)
		return -ENOMEM;
	for (i = 0; i < c->kinds.n; i++) {
		const struct stats_kind *r = stats_row(&c->kinds, i);

		keys[i].a = r->key == STATS_OTHER ? 7 : r->key & 7;
		keys[i].b = ~r->total;
		keys[i].c = r->key >> 3;
		keys[i].idx = (uint32_t)i;
	}
	if (stats_order(c, keys, c->kinds.n) < 0)
		return -ENOMEM;
	/* text: the top entries of each kind by host time */
	if (!c->csv) {
		for (i = j = 0; i < c->norder; i++) {
			const struct stats_kind *r = stats_row(&c->kinds, c->order[i]);
			unsigned kind = r->key == STATS_OTHER ? SINK_NKINDS
							      : (unsigned)(r->key & 7);

			if (shown[kind]++ < STATS_TOPKINDS)
				c->order[j++] = c->order[i];
		}
		c->norder = j;
	}
	t.nrows = c->norder;
	if (!c->norder && c->mode != STATS_JSON)
		return 0;
	if (c->csv && c->mode != STATS_JSON)
		ret = stats_put(c->sink.out, "\n", 1);
	else if (!c->csv)
		ret = stats_printf(c->sink.out,
				   "\nExits by what they were about (kvm_pio, kvm_mmio, kvm_msr, kvm_hypercall, kvm_inj_virq; top %u of each by host time, in %s)\n",
				   STATS_TOPKINDS, stats_dur_unit(c));
	for (i = 0; i <= SINK_NKINDS; i++)
		k += shown[i] > STATS_TOPKINDS ? shown[i] - STATS_TOPKINDS : 0;
	ret = ret ? ret : stats_table_out(c, &t);
	if (ret == 0 && k && !c->csv)
		ret = stats_printf(c->sink.out, "(%zu more not shown)\n", k);
	return ret;
}

/* --------------------------------------------------- guest functions */

static void stats_func_row(const struct sink_stats *c, size_t i,
			   struct stats_cell *cells)
{
	const struct stats_func *f = stats_row(&c->funcs, c->order[i]);
	const struct stats_reason *r = stats_row(&c->reasons, f->reason);

	stats_str(&cells[0], f->sym == STATS_NOSYM
				     ? "(other)" : symtab_name(c->syms, f->sym));
	if (f->sym == STATS_NOSYM)
		stats_str(&cells[1], c->csv ? "" : "-");
	else
		stats_reason_cell(&cells[1], r);
	stats_u64(&cells[2], f->count);
	stats_dur(c, &cells[3], f->total);
	stats_mean(c, &cells[4], f->total, f->count);
}

static int stats_funcs_table(struct sink_stats *c)
{
	static const char *const head_text[] = { "guest function", "reason",
						 "count", "total", "mean" };
	static const char *const head_us[] = { "guest_function", "reason",
					       "count", "total_us", "mean_us" };
	static const char *const head_ticks[] = { "guest_function", "reason",
						  "count", "total_ticks",
						  "mean_ticks" };
	struct stats_table t = {
		.name = "exits_by_guest_function",
		.ncols = 5,
		.head = c->csv ? (c->time.ns ? head_us : head_ticks) : head_text,
		.right = "llrrr",
		.row = stats_func_row,
	};
	struct stats_sort *keys;
	size_t i, more = 0;
	int ret = 0;

	if (!c->syms)
		return 0;
	keys = malloc((c->funcs.n + 1) * sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	for (i = 0; i < c->funcs.n; i++) {
		const struct stats_func *f = stats_row(&c->funcs, i);

		keys[i].a = ~f->total;
		keys[i].b = f->sym;
		keys[i].c = f->reason;
		keys[i].idx = (uint32_t)i;
	}
	if (stats_order(c, keys, c->funcs.n) < 0)
		return -ENOMEM;
	if (!c->csv && c->norder > STATS_TOPFUNCS) {
		more = c->norder - STATS_TOPFUNCS;
		c->norder = STATS_TOPFUNCS;
	}
	t.nrows = c->norder;
	if (c->csv && c->mode != STATS_JSON)
		ret = stats_put(c->sink.out, "\n", 1);
	else if (!c->csv)
		ret = stats_printf(c->sink.out,
				   "\nExits by guest function (the function holding the exit's guest RIP; by host time, in %s)\n",
				   stats_dur_unit(c));
	ret = ret ? ret : stats_table_out(c, &t);
	if (ret == 0 && more)
		ret = stats_printf(c->sink.out, "(%zu more not shown)\n", more);
	return ret;
}

/* ------------------------------------------------------------ report */

int stats_exits_report(struct sink_stats *c)
{
	size_t i;
	int ret;

	/* exits still waiting at the end met no entry */
	for (i = 0; i < c->pairs.n; i++)
		if (c->pairs.v[i].pending &&
		    stats_unpaired(c, &c->pairs.v[i]) < 0)
			return -ENOMEM;
	ret = stats_reasons_table(c);
	if (ret == 0 && c->entries_unpaired && !c->csv)
		ret = stats_printf(c->sink.out, "%" PRIu64 " entr%s without an exit before (not counted)\n",
				   c->entries_unpaired,
				   c->entries_unpaired == 1 ? "y" : "ies");
	if (ret == 0 && c->mode == STATS_HIST)
		ret = stats_log2_bars(c);
	if (ret == 0 && c->reasons.n)
		ret = stats_vcpus_table(c);
	if (ret == 0 && c->reasons.n)
		ret = stats_cross_table(c);
	if (ret == 0 && (c->kinds.n || c->mode == STATS_JSON))
		ret = stats_kinds_table(c);
	if (ret == 0)
		ret = stats_funcs_table(c);
	return ret;
}
