// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "diag.h"
#ifdef HAVE_TRACECMD
#include "tracedat/tracedat-file.h"
#endif

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

/*
 * The clocks of nanosecond inputs, by the names clock_base_of() gives:
 * what each is, for messages. "local" is the kernel's local clock
 * (sched_clock): perf's default clock, trace_clock local and perf, and
 * x86-tsc made ns by TSC2NSEC (trace-cmd takes perf's conversion).
 */
static const struct {
	const char *base, *what;
} clock_bases[] = {
	{ "mono", "CLOCK_MONOTONIC" },
	{ "wall", "the wall clock" },
	{ "raw", "CLOCK_MONOTONIC_RAW" },
	{ "boot", "CLOCK_BOOTTIME" },
	{ "tai", "CLOCK_TAI" },
	{ "local", "the kernel's local clock" },
	{ "global", "the kernel's global trace clock" },
	{ "uptime", "jiffies" },
};

const char *clock_base_what(const char *base)
{
	size_t i;

	for (i = 0; i < sizeof(clock_bases) / sizeof(clock_bases[0]); i++)
		if (!strcmp(base, clock_bases[i].base))
			return clock_bases[i].what;
	return base;
}

#ifdef HAVE_TRACECMD
/* A trace.dat's clock, from its options: DATE makes it the wall clock. */
static const char *clock_tracedat_base(const struct source *src, char *how,
				       size_t size)
{
	static const struct {
		const char *clock, *base;
	} map[] = {
		{ "local", "local" }, { "perf", "local" }, { "x86-tsc", "local" },
		{ "global", "global" }, { "mono", "mono" }, { "mono_raw", "raw" },
		{ "boot", "boot" }, { "tai", "tai" }, { "uptime", "uptime" },
	};
	struct tracedat_file f = { 0 };
	const char *base = NULL;
	struct diag d;
	size_t i;

	diag_init(&d);
	if (tracedat_file_read(src->name, src->open_path, &f, &d) == 0 &&
	    f.clock) {
		for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
			if (!strcmp(f.clock, map[i].clock))
				base = map[i].base;
		if (f.date) {
			base = "wall";
			snprintf(how, size, "trace_clock %s and a DATE offset (record --date)",
				 f.clock);
		} else if (f.tsc2nsec) {
			snprintf(how, size, "trace_clock %s, TSC2NSEC", f.clock);
		} else {
			snprintf(how, size, "trace_clock %s", f.clock);
		}
	}
	tracedat_file_free(&f);
	return base;
}
#endif

const char *clock_base_of(const struct source *src, char *how, size_t size)
{
	snprintf(how, size, "clock unknown");
	if (src->clock != CLOCK_NS)
		return NULL;
	if (src->clock_user_set) {
		snprintf(how, size, "declared with --clock");
		return src->clock_base;
	}
	if (src->ops == &source_perf_ops && src->clock_base) {
		snprintf(how, size, "%s", !strcmp(src->clock_base, "local") ?
			 "no -k, perf's default clock" : "perf record -k");
		return src->clock_base;
	}
	if (src->clock_base) {
		how[0] = '\0';
		return src->clock_base;
	}
#ifdef HAVE_TRACECMD
	if (src->ops == &source_tracecmd_ops && src->open_path)
		return clock_tracedat_base(src, how, size);
#endif
	return NULL;
}

/* How to record src on CLOCK_MONOTONIC, as its kind is recorded. */
static const char *clock_advice(const struct source *src)
{
	if (src->ops == &source_perf_ops)
		return "perf record -k mono";
#ifdef HAVE_TRACECMD
	if (src->ops == &source_tracecmd_ops)
		return "trace-cmd record -C mono";
#endif
	return NULL;
}

/*
 * Nanosecond inputs of the host whose files name their clocks: all on
 * one, or refused with each input's clock. An input whose clock nothing
 * says (uftrace, a trace.dat of an unknown trace clock) or that the user
 * declared plain ns (--clock=INPUT=ns) is taken as it is.
 */
static int clock_check_bases(struct source **srcs, size_t n, struct diag *d)
{
	const char *bases[64], *first = NULL;
	char how[64][96];
	size_t i, m = n < 64 ? n : 64, k;
	bool differ = false, said[3] = { false };

	/* one input has nothing to agree with: its files stay unread */
	for (i = 0, k = 0; i < m; i++)
		k += srcs[i]->domain == DOMAIN_HOST && srcs[i]->clock == CLOCK_NS;
	if (k < 2)
		return 0;
	for (i = 0; i < m; i++) {
		bases[i] = NULL;
		how[i][0] = '\0';
		if (srcs[i]->domain != DOMAIN_HOST || srcs[i]->clock != CLOCK_NS)
			continue;
		bases[i] = clock_base_of(srcs[i], how[i], sizeof(how[i]));
		if (!bases[i])
			continue;
		if (!first)
			first = bases[i];
		else if (strcmp(first, bases[i]))
			differ = true;
	}
	if (!differ)
		return 0;
	diag_set(d, "inputs on different clocks:");
	for (i = 0, k = 0; i < m; i++) {
		if (!bases[i])
			continue;
		diag_add(d, "%s %s (%s, %s%s%s)", k++ ? "," : "", srcs[i]->name,
			 srcs[i]->ops->kind, how[i][0] ? how[i] : "",
			 how[i][0] ? ": " : "", clock_base_what(bases[i]));
	}
	diag_add(d, "\n  record them on one clock");
	for (i = 0, k = 0; i < m; i++) {
		const char *how_rec = bases[i] ? clock_advice(srcs[i]) : NULL;
		size_t kind = srcs[i]->ops == &source_perf_ops ? 0 : 1;

		if (!how_rec || said[kind])
			continue;
		said[kind] = true;
		diag_add(d, "%s`%s`", k++ ? ", " : " (", how_rec);
	}
	diag_add(d, "%s, or declare an input's clock with --clock=INPUT=mono|wall (--clock=INPUT=ns merges it as it is, with no offset)",
		 k ? ")" : "");
	return -EINVAL;
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
		return ns ? clock_check_bases(srcs, n, d) : 0;
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
	bool hmany = false;		/* hname: "the host inputs" */
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
		hmany = hname != NULL;
		hname = hmany ? "the host inputs" : srcs[i]->name;
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
	diag_add(d, "\n%s: on the host clock %" PRIu64 "..%" PRIu64 " (%" PRIu64 "); %s cover%s %.1f%% of it",
		 src->name, spans[g].first, spans[g].last, len, hname,
		 hmany ? "" : "s", 100.0 * share);
	if (share < 0.5) {
		*warn = true;
		diag_add(d, "\nwarning: %s: only %.1f%% of its aligned span lies inside %s%s (%" PRIu64 "..%" PRIu64 "): is the offset right?%s",
			 src->name, 100.0 * share, hname, hmany ? "'" : "'s",
			 host.first, host.last,
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

bool clock_overlap_report(struct source **srcs,
			  const struct clock_span *spans, size_t n,
			  struct diag *d)
{
	size_t i, j, with = 0, apart = 0;

	for (i = 0; i < n; i++)
		with += spans[i].events > 0;
	if (with < 2)
		return false;
	for (i = 0; i < n; i++) {
		bool meets = false;

		if (!spans[i].events || srcs[i]->domain != DOMAIN_HOST)
			continue;
		for (j = 0; j < n && !meets; j++)
			meets = j != i && spans[j].events &&
				spans[j].first <= spans[i].last &&
				spans[i].first <= spans[j].last;
		if (meets)
			continue;
		if (!apart++)
			diag_set(d, "warning: inputs whose events overlap no other input's in time:");
		diag_add(d, "%s %s %" PRIu64 "..%" PRIu64, apart > 1 ? "," : "",
			 srcs[i]->name, spans[i].first, spans[i].last);
	}
	if (apart)
		diag_add(d, ": are they of one run, on one clock?");
	return apart > 0;
}
