// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
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

void clock_map(const struct clock *c, const struct source *src,
	       struct event *ev)
{
	/* a trace.dat with TIME_SHIFT is on its host's clock already */
	if (src->domain == DOMAIN_GUEST && !src->align.self_shifted) {
		if (c->auto_offset)
			ev->ts = clock_guest_to_host(ev->ts,
						     clock_auto_offset(c, ev));
		else if (c->have_offset)
			ev->ts = clock_guest_to_host(ev->ts, c->offset);
	}
	if (c->timeline == CLOCK_NS && src->clock == CLOCK_TSC &&
	    c->tsc_mhz > 0) {
		unsigned __int128 ns = (unsigned __int128)ev->ts * 1000000u;

		ev->ts = (uint64_t)(ns / (unsigned __int128)(c->tsc_mhz * 1000.0 + 0.5));
	}
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
	if ((int)tsc + (int)ns + (int)counter <= 1)
		return 0;
	if (tsc && ns && !counter && c->tsc_mhz > 0) {
		c->timeline = CLOCK_NS;
		return 0;
	}
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
