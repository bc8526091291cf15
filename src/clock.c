// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "clock.h"
#include "diag.h"

struct clock *clock_create(void)
{
	return calloc(1, sizeof(struct clock));
}

void clock_destroy(struct clock *c)
{
	if (!c)
		return;
	free(c->offsets);
	free(c);
}

int clock_add_offset(struct clock *c, uint64_t from, int64_t offset,
		     uint32_t vcpu, bool any_vcpu)
{
	if (c->noffsets == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;
		struct clock_offset *n = realloc(c->offsets, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		c->offsets = n;
		c->cap = cap;
	}
	c->offsets[c->noffsets++] = (struct clock_offset){
		.from = from, .offset = offset, .vcpu = vcpu,
		.any_vcpu = any_vcpu,
	};
	return 0;
}

static int clock_offset_cmp(const void *a, const void *b)
{
	const struct clock_offset *x = a, *y = b;

	return x->from < y->from ? -1 : x->from > y->from;
}

void clock_finish(struct clock *c)
{
	/* offsets arrive in time order per input; merge sorts are stable enough */
	if (c->noffsets)
		qsort(c->offsets, c->noffsets, sizeof(*c->offsets),
		      clock_offset_cmp);
}

/*
 * The offset in force for a guest event at guest time g: the last one
 * written at or before host time g - offset. Offsets change rarely, so
 * try each from the newest back.
 */
static bool clock_offset_for(const struct clock_offset *o,
			     const struct event *ev)
{
	return o->any_vcpu || !ev->has_vcpu || o->vcpu == ev->vcpu;
}

static int64_t clock_auto_offset(const struct clock *c, const struct event *ev)
{
	size_t i = c->noffsets;

	while (i-- > 0) {
		const struct clock_offset *o = &c->offsets[i];

		/* the host time this offset gives, if it is one at all */
		__int128 h = (__int128)ev->ts - o->offset;

		if (clock_offset_for(o, ev) && h >= (__int128)o->from &&
		    h <= (__int128)UINT64_MAX)
			return o->offset;
	}
	/* before the first offset was written: the first one of the vCPU */
	for (i = 0; i < c->noffsets; i++)
		if (clock_offset_for(&c->offsets[i], ev))
			return c->offsets[i].offset;
	return c->noffsets ? c->offsets[0].offset : 0;
}

int clock_map(const struct clock *c, const struct source *src,
	      struct event *ev)
{
	/* a trace.dat with TIME_SHIFT is on its host's clock already */
	if (src->domain == DOMAIN_GUEST && !src->align.self_shifted &&
	    (c->auto_offset || c->have_offset)) {
		int64_t off = c->auto_offset ? clock_auto_offset(c, ev)
					     : c->offset;

		/* a guest on ns (--tsc-mhz said how): the offset in ns */
		if (src->clock == CLOCK_NS && c->tsc_mhz > 0)
			off = (int64_t)((long double)off * 1000.0L /
					(long double)c->tsc_mhz);
		ev->ts = clock_guest_to_host(ev->ts, off);
	}
	if (c->timeline == CLOCK_NS && src->clock == CLOCK_TSC &&
	    c->tsc_mhz > 0) {
		unsigned __int128 ns = (unsigned __int128)ev->ts * 1000000u;

		ns /= (unsigned __int128)(c->tsc_mhz * 1000.0 + 0.5);
		/* below 1 GHz, a large stamp has more ns than 64 bits hold */
		if (ns > UINT64_MAX)
			return -ERANGE;
		ev->ts = (uint64_t)ns;
	}
	return 0;
}

void clock_map_error(const struct clock *c, const struct source *src,
		     const struct event *ev, struct diag *d)
{
	diag_set(d, "%s: event %" PRIu64 ": time stamp %" PRIu64 " at --tsc-mhz=%g is more nanoseconds than 64 bits hold (2^64 ns, 584 years): a wrong rate, or a damaged stamp; the input stops here",
		 src->name, ev->seq, ev->ts, c->tsc_mhz);
}

int clock_timeline(struct clock *c, struct source **srcs, size_t n,
		   struct diag *d)
{
	bool tsc = false, ns = false, counter = false;
	size_t i;

	for (i = 0; i < n; i++) {
		tsc |= srcs[i]->clock == CLOCK_TSC;
		ns |= srcs[i]->clock == CLOCK_NS;
		counter |= srcs[i]->clock == CLOCK_COUNTER;
	}
	c->timeline = tsc ? CLOCK_TSC : ns ? CLOCK_NS : CLOCK_COUNTER;
	/* --tsc-mhz puts TSC inputs on nanoseconds, alone or with others */
	if (tsc && !counter && c->tsc_mhz > 0) {
		c->timeline = CLOCK_NS;
		return 0;
	}
	if ((int)tsc + (int)ns + (int)counter <= 1)
		return 0;
	diag_set(d, "inputs on different clocks:");
	for (i = 0; i < n; i++)
		diag_add(d, "%s %s (%s)", i ? "," : "", srcs[i]->name,
			 clock_name(srcs[i]->clock));
	diag_add(d, "\n  give --tsc-mhz=MHZ to put TSC inputs on nanoseconds, or declare an input's clock with --clock=INPUT=tsc|ns");
	return -EINVAL;
}

const char *clock_name(enum clock_kind k)
{
	switch (k) {
	case CLOCK_TSC:
		return "TSC";
	case CLOCK_NS:
		return "nanoseconds";
	case CLOCK_COUNTER:
		return "counter";
	}
	return "unknown";
}

/* How far apart the offsets the vCPUs were given last are (auto). */
static int64_t clock_auto_spread(const struct clock *c, uint32_t *nvcpus)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	size_t i, j;

	*nvcpus = 0;
	for (i = 0; i < c->noffsets; i++) {
		const struct clock_offset *o = &c->offsets[i];

		for (j = i + 1; j < c->noffsets; j++)
			if (c->offsets[j].any_vcpu == o->any_vcpu &&
			    c->offsets[j].vcpu == o->vcpu)
				break;
		if (j < c->noffsets)
			continue;	/* not the last of its vCPU */
		(*nvcpus)++;
		if (o->offset < lo)
			lo = o->offset;
		if (o->offset > hi)
			hi = o->offset;
	}
	return *nvcpus ? (int64_t)((uint64_t)hi - (uint64_t)lo) : 0;
}

bool clock_report(const struct clock *c, struct source **srcs,
		  const struct clock_span *spans, size_t n, size_t g,
		  struct diag *d, bool *warn)
{
	const struct source *src = srcs[g];
	struct clock_span host = { 0 };
	const char *hname = NULL;
	uint64_t lo, hi, len, in;
	uint32_t nvcpus = 0;
	int64_t spread = 0;
	double share;
	size_t i;

	*warn = false;
	if (src->domain != DOMAIN_GUEST || !spans[g].events)
		return false;
	if (src->align.self_shifted && !src->align.host)
		return false;	/* the note about its missing host said it */
	for (i = 0; i < n; i++) {
		const struct clock_span *s = &spans[i];

		if (!s->events || (src->align.host ? srcs[i] != src->align.host
						   : srcs[i]->domain != DOMAIN_HOST))
			continue;
		if (!host.events || s->first < host.first)
			host.first = s->first;
		if (!host.events || s->last > host.last)
			host.last = s->last;
		host.events += s->events;
		hname = hname ? "the host inputs" : srcs[i]->name;
	}
	if (!host.events)
		return false;
	if (src->align.self_shifted) {
		spread = src->align.spread;
		nvcpus = src->align.ncpus;
		diag_set(d, "%s: offset from its TIME_SHIFT option (trace-cmd, applied by libtracecmd; host %s",
			 src->name, src->align.host->name);
		if (src->align.vm && *src->align.vm)
			diag_add(d, ", VM %s", src->align.vm);
		diag_add(d, "; CPUs: %u, %" PRId64 " apart at most)", nvcpus, spread);
	} else if (c->auto_offset) {
		spread = clock_auto_spread(c, &nvcpus);
		diag_set(d, "%s: offsets from kvm:kvm_write_tsc_offset (--tsc-offset auto: %zu written; vCPUs: %u, their last offsets %" PRId64 " apart)",
			 src->name, c->noffsets, nvcpus, spread);
	} else if (c->have_offset) {
		diag_set(d, "%s: offset %" PRId64 " from --tsc-offset", src->name,
			 c->offset);
		if (src->clock == CLOCK_NS && c->tsc_mhz > 0)
			diag_add(d, " (TSC ticks: %.0f ns at %g MHz)",
				 (double)c->offset * 1000.0 / c->tsc_mhz,
				 c->tsc_mhz);
	} else {
		diag_set(d, "%s: no offset (a guest on the host's clock)",
			 src->name);
	}
	len = spans[g].last - spans[g].first;
	lo = spans[g].first > host.first ? spans[g].first : host.first;
	hi = spans[g].last < host.last ? spans[g].last : host.last;
	in = hi >= lo ? hi - lo : 0;
	if (len)
		share = (double)in / (double)len;
	else
		share = hi >= lo ? 1.0 : 0.0;
	diag_add(d, "\n%s: on the host clock %" PRIu64 "..%" PRIu64 " (%" PRIu64 "); %s covers %.1f%% of it",
		 src->name, spans[g].first, spans[g].last, len, hname,
		 100.0 * share);
	if (share < 0.5) {
		*warn = true;
		diag_add(d, "\nwarning: %s: only %.1f%% of its aligned span lies inside %s's (%" PRIu64 "..%" PRIu64 "): is the offset right?%s",
			 src->name, 100.0 * share, hname, host.first,
			 host.last,
			 !src->align.self_shifted && c->auto_offset ?
				 " (a paravirtualised guest's rdtsc need not see the value of kvm_write_tsc_offset)" : "");
	}
	if (nvcpus > 1 && (spread < 0 ? -(uint64_t)spread : (uint64_t)spread) >
				  CLOCK_SPREAD_MIN &&
	    (uint64_t)spread > len / 1000) {
		*warn = true;
		diag_add(d, "\nwarning: %s: its vCPUs disagree on the offset: %" PRId64 " apart, more than %d and a thousandth of its span",
			 src->name, spread, CLOCK_SPREAD_MIN);
	}
	return true;
}
