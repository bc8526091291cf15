// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The statistics sink's exits: the pairing of exits.h (shared with
 * --exits' rows) calls back at each exit's begin and end; the host time
 * of a paired exit goes into fixed-size histograms (hist.h) per reason, per VM, per vCPU, per
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

void stats_rows_init(struct stats_rows *r, size_t size)
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
	for (i = 0; i < c->nxrows; i++)
		free(c->xrows[i]);
	free(c->xrows);
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

	if (key < STATS_SMALL && c->reason_small[key]) {
		*out = c->reason_small[key] - 1u;
		return 0;
	}
	if (!c->reasons.size)
		stats_rows_init(&c->reasons, sizeof(struct stats_reason));
	if (stats_rows_get(&c->reasons, key, out, &made) < 0)
		return -ENOMEM;
	/* at most SINK_MAXKEYS + 1 rows: an index + 1 fits */
	if (key < STATS_SMALL)
		c->reason_small[key] = (uint16_t)(*out + 1);
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

/*
 * The distributions of an exit of vCPU (or task) vi, of reason index ref,
 * but its cross row: out[0..3], NULL where none.
 */
static int stats_dists_agg(struct sink_stats *c, size_t vi, uint32_t ref,
			   struct stats_dist **out)
{
	uint32_t vm = sink_key_vm(c->x.pairs.v[vi].key);
	void *grown;

	out[0] = &c->all;
	out[1] = &((struct stats_reason *)stats_row(&c->reasons, ref))->d;
	out[2] = out[3] = NULL;
	if (sink_key_kind(c->x.pairs.v[vi].key) != SINK_VCPU)
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
	return 0;
}

/* ------------------------------------------------ durations pending */

static inline struct hist *stats_ring_hist(struct sink_stats *c, unsigned k)
{
	return &((struct stats_cross *)stats_row(&c->cross,
						 c->ring[k].row))->d.h;
}

int stats_ring_flush(struct sink_stats *c)
{
	int ret = 0;

	for (; c->ring_n; c->ring_n--) {
		if (ret == 0)
			ret = hist_record(stats_ring_hist(c, c->ring_at),
					  c->ring[c->ring_at].dur);
		c->ring_at = (c->ring_at + 1) % STATS_RING;
	}
	return ret;
}

/* Start loading the bucket of duration dur of h into the cache. */
static inline void stats_prefetch_bucket(const struct hist *h, uint64_t dur)
{
	unsigned g = hist_group(dur);

	if (h->low && g >= h->lo && g <= h->hi)
		sink_prefetch(&h->low[(size_t)(g - h->lo) * HIST_SUB +
				       (g ? (unsigned)(dur >> (g - 1)) &
						    (HIST_SUB - 1)
					  : (unsigned)dur)]);
}

/* Duration dur of cross row xi: into the ring, the oldest counted. */
static int stats_ring_put(struct sink_stats *c, uint32_t xi, uint64_t dur)
{
	unsigned k = (c->ring_at + c->ring_n) % STATS_RING, mid;
	int ret = 0;

	if (c->ring_n == STATS_RING) {
		/* the oldest goes, the new one takes its place */
		ret = hist_record(stats_ring_hist(c, k), c->ring[k].dur);
		c->ring_at = (c->ring_at + 1) % STATS_RING;
	} else {
		c->ring_n++;
	}
	c->ring[k].row = xi;
	c->ring[k].dur = dur;
	sink_prefetch(stats_ring_hist(c, k));
	/* the row fetched STATS_RING / 2 exits ago: now its bucket */
	if (c->ring_n > STATS_RING / 2) {
		mid = (k + STATS_RING / 2) % STATS_RING;
		stats_prefetch_bucket(stats_ring_hist(c, mid),
				      c->ring[mid].dur);
	}
	return ret;
}

/* Add the cross rows to all, reasons, vcpus and vms; from then on live. */
static int stats_dists_fold(struct sink_stats *c)
{
	struct stats_dist *d[4];
	uint32_t i, k;

	if (c->dists_live)
		return 0;
	if (stats_ring_flush(c) < 0)
		return -ENOMEM;
	for (i = 0; i < c->cross.n; i++) {
		const struct stats_cross *x = stats_row(&c->cross, i);

		if (i == c->cross.other)
			continue;	/* made just now: empty */
		if (stats_dists_agg(c, x->vcpu, x->reason, d) < 0)
			return -ENOMEM;
		for (k = 0; k < 4; k++) {
			if (!d[k])
				continue;
			if (hist_merge(&d[k]->h, &x->d.h) < 0)
				return -ENOMEM;
			d[k]->unpaired += x->d.unpaired;
		}
	}
	c->dists_live = true;
	return 0;
}

/* The cross row of vCPU vi and reason index ref, by the map. */
static int stats_xrow(struct sink_stats *c, size_t vi, uint32_t ref,
		      uint32_t *xi, bool *made)
{
	void *grown = c->xrows;

	if (!c->cross.size)
		stats_rows_init(&c->cross, sizeof(struct stats_cross));
	if (stats_rows_get(&c->cross, (uint64_t)vi << 32 | ref, xi, made) < 0)
		return -ENOMEM;
	if (ref >= STATS_XREFS)
		return 0;
	/* vi < SINK_MAXKEYS: 512 bytes a vCPU at most */
	if (sink_grow(&grown, &c->nxrows, (uint32_t)vi, sizeof(*c->xrows)) < 0)
		return -ENOMEM;
	c->xrows = grown;
	if (!c->xrows[vi]) {
		c->xrows[vi] = calloc(STATS_XREFS, sizeof(**c->xrows));
		if (!c->xrows[vi])
			return -ENOMEM;
	}
	c->xrows[vi][ref] = *xi + 1;
	return 0;
}

/*
 * The distributions of v's exit, of reason index ref: out[4] its cross
 * row (*row its index), out[0..3] NULL while those are folded from the
 * cross rows.
 */
static int stats_dists(struct sink_stats *c, const struct sink_vcpu *v,
		       uint32_t ref, struct stats_dist **out, uint32_t *row)
{
	size_t vi = (size_t)(v - c->x.pairs.v);
	struct stats_cross *x;
	uint32_t xi;
	bool made;

	out[0] = out[1] = out[2] = out[3] = NULL;
	if (vi < c->nxrows && c->xrows[vi] && ref < STATS_XREFS &&
	    c->xrows[vi][ref]) {
		xi = c->xrows[vi][ref] - 1;
		made = false;
	} else if (stats_xrow(c, vi, ref, &xi, &made) < 0) {
		return -ENOMEM;
	}
	x = stats_row(&c->cross, xi);
	if (made) {
		x->vcpu = xi == c->cross.other ? UINT32_MAX : (uint32_t)vi;
		x->reason = ref;
	}
	out[4] = &x->d;
	*row = xi;
	/* the row "other" mixes vCPUs and reasons: the rest is live */
	if (xi == c->cross.other && stats_dists_fold(c) < 0)
		return -ENOMEM;
	if (c->dists_live)
		return stats_dists_agg(c, vi, ref, out);
	return 0;
}

/* stats_dists() of v's exit. */
static int stats_dists_of(struct sink_stats *c, struct sink_vcpu *v,
			  struct stats_dist **d, uint32_t *row)
{
	if (v->ref == STATS_NOREF &&
	    stats_reason(c, NULL, NULL, v->reason, &v->ref) < 0)
		return -ENOMEM;
	return stats_dists(c, v, v->ref, d, row);
}

static int stats_charge(struct sink_stats *c, const struct sink_vcpu *v,
			uint64_t dur)
{
	struct stats_kind *k;
	struct stats_gfunc *f;
	uint32_t i;
	bool made;

	if (stats_longest_wants(c, v->ref, dur) &&
	    stats_longest_add(c, v, dur) < 0)
		return -ENOMEM;
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
	if (v->sym) {
		/* a name is one string per function: its address is the key */
		if (!c->funcs.size)
			stats_rows_init(&c->funcs, sizeof(struct stats_gfunc));
		if (stats_rows_get(&c->funcs,
				   (uint64_t)(uintptr_t)v->sym << 16 ^ v->ref, &i,
				   &made) < 0)
			return -ENOMEM;
		f = stats_row(&c->funcs, i);
		if (made) {
			f->sym = i == c->funcs.other ? NULL : v->sym;
			f->reason = v->ref;
		}
		f->count++;
		f->total = f->total + dur < f->total ? UINT64_MAX : f->total + dur;
	}
	return 0;
}

/* exits.h: an exit began on v: its reason's row, its guest function. */
int stats_exit_begin(struct exits *x, struct sink_vcpu *v,
			    const struct sink_type *sst,
			    const struct event *ev)
{
	struct sink_stats *c = container_of(x, struct sink_stats, x);
	struct stats_type *st = container_of(sst, struct stats_type, st);

	if (st->named < 0)
		st->named = sink_reason_named(c->sink.render, ev, &st->st);
	if (stats_reason(c, st, ev, v->reason, &v->ref) < 0)
		return -ENOMEM;
	/* else the function a uftrace guest has open on this vCPU */
	if (!v->sym)
		v->sym = stats_guest_func(c, v);
	return 0;
}

/* exits.h: v's exit ended, into its distributions. */
int stats_exit_end(struct exits *x, struct sink_vcpu *v, bool paired,
			  uint64_t dur)
{
	struct sink_stats *c = container_of(x, struct sink_stats, x);
	struct stats_dist *d[5];
	uint32_t row;
	size_t i;

	if (stats_dists_of(c, v, d, &row) < 0)
		return -ENOMEM;
	if (!c->dists_live && paired) {
		/* the cross row alone (stats_dists) */
		if (stats_ring_put(c, row, dur) < 0)
			return -ENOMEM;
		return stats_charge(c, v, dur);
	}
	for (i = 0; i < 5; i++) {
		if (!d[i])
			continue;
		if (!paired)
			d[i]->unpaired++;
		else if (hist_record(&d[i]->h, dur) < 0)
			return -ENOMEM;
	}
	return paired ? stats_charge(c, v, dur) : 0;
}

const struct exits_ops stats_exits_ops = {
	.begin = stats_exit_begin,
	.end = stats_exit_end,
};

int stats_exits_finish(struct sink_stats *c)
{
	/* exits still waiting at the end met no entry */
	int ret = exits_finish(&c->x);

	if (ret == 0)
		ret = stats_ring_flush(c);
	return ret < 0 ? ret : stats_dists_fold(c);
}
