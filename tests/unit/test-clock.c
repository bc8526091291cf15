// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The alignment report (clock_report()): where a guest's offset came from,
 * how much of its span the host covers, and its two warnings: less than
 * half covered, vCPUs that disagree (auto offsets of two vCPUs, TIME_SHIFT
 * CPUs); nothing for a guest whose host is missing. And clock_map() of a
 * guest on nanoseconds with --tsc-mhz, and of a self-shifted guest.
 */
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "diag.h"
#include "tap.h"

static struct source *mk(const char *name, unsigned index, enum domain dom)
{
	struct source *s = source_create(&source_kvmtrace_ops, name, index);

	if (!s)
		abort();
	s->domain = dom;
	s->clock = CLOCK_TSC;
	return s;
}

int main(void)
{
	struct source *srcs[3];
	struct clock_span spans[3] = {
		{ .first = 1000, .last = 2000, .events = 10 },	/* host */
		{ .first = 1100, .last = 1900, .events = 5 },	/* guest */
		{ 0 },
	};
	struct clock *c = clock_create();
	struct event ev = { 0 };
	struct tap t = { 0 };
	struct diag d;
	bool warn, said;

	tap_plan(12);
	srcs[0] = mk("host.dat", 0, DOMAIN_HOST);
	srcs[1] = mk("guest.kvmtrace", 1, DOMAIN_GUEST);
	srcs[2] = mk("other.dat", 2, DOMAIN_HOST);

	/* a number, fully covered: no warning */
	c->have_offset = true;
	c->offset = -5;
	diag_init(&d);
	said = clock_report(c, srcs, spans, 3, 1, &d, &warn);
	tap_ok(&t, said && !warn && strstr(d.msg, "offset -5 from --tsc-offset") &&
		   strstr(d.msg, "host.dat covers 100.0% of it"),
	       "--tsc-offset, covered");
	diag_init(&d);
	tap_ok(&t, !clock_report(c, srcs, spans, 3, 0, &d, &warn),
	       "nothing to say of a host");

	/* a third inside: warned, with the figures */
	spans[1].first = 1700;
	spans[1].last = 2600;
	diag_init(&d);
	said = clock_report(c, srcs, spans, 3, 1, &d, &warn);
	tap_ok(&t, said && warn && strstr(d.msg, "33.3% of it") &&
		   strstr(d.msg, "warning: guest.kvmtrace: only 33.3%") &&
		   strstr(d.msg, "(1000..2000)"),
	       "less than half covered");

	/* auto: two vCPUs whose last offsets are 50000 apart */
	c->have_offset = false;
	c->auto_offset = true;
	clock_add_offset(c, 900, 100, 0, false);
	clock_add_offset(c, 950, 50100, 1, false);
	clock_add_offset(c, 960, 200, 0, false);
	clock_finish(c);
	spans[1].first = 1000;
	spans[1].last = 2000;
	diag_init(&d);
	said = clock_report(c, srcs, spans, 3, 1, &d, &warn);
	tap_ok(&t, said && warn && strstr(d.msg, "3 written; vCPUs: 2") &&
		   strstr(d.msg, "disagree on the offset: 49900 apart"),
	       "auto, vCPUs disagree");
	c->offsets[1].offset = 300;
	diag_init(&d);
	said = clock_report(c, srcs, spans, 3, 1, &d, &warn);
	tap_ok(&t, said && !warn && strstr(d.msg, "100 apart"),
	       "auto, vCPUs 100 apart: no warning");
	tap_ok(&t, !strstr(d.msg, "warning"), "no warning line");

	/* TIME_SHIFT: its host only; CPUs apart */
	srcs[1]->align.self_shifted = true;
	srcs[1]->align.host = srcs[2];
	srcs[1]->align.vm = "vm-a";
	srcs[1]->align.ncpus = 2;
	srcs[1]->align.spread = 20000;
	spans[2] = (struct clock_span){ .first = 1500, .last = 3000, .events = 3 };
	diag_init(&d);
	said = clock_report(c, srcs, spans, 3, 1, &d, &warn);
	tap_ok(&t, said && warn && strstr(d.msg, "TIME_SHIFT") &&
		   strstr(d.msg, "host other.dat, VM vm-a") &&
		   strstr(d.msg, "other.dat covers 50.0% of it") &&
		   strstr(d.msg, "disagree") && !strstr(d.msg, "only"),
	       "TIME_SHIFT against its own host");
	srcs[1]->align.host = NULL;
	diag_init(&d);
	tap_ok(&t, !clock_report(c, srcs, spans, 3, 1, &d, &warn),
	       "TIME_SHIFT without its host: the note said it");

	/* clock_map: a self-shifted guest keeps its time stamps */
	ev.ts = 5000;
	ev.has_ts = true;
	clock_map(c, srcs[1], &ev);
	tap_ok(&t, ev.ts == 5000, "self-shifted: no offset applied (%llu)",
	       (unsigned long long)ev.ts);

	/* a guest on ns with --tsc-mhz: 2600 ticks at 2600 MHz are 1000 ns */
	srcs[1]->align.self_shifted = false;
	srcs[1]->clock = CLOCK_NS;
	c->auto_offset = false;
	c->have_offset = true;
	c->offset = 2600;
	c->tsc_mhz = 2600;
	c->timeline = CLOCK_NS;
	ev.ts = 5000;
	clock_map(c, srcs[1], &ev);
	tap_ok(&t, ev.ts == 4000, "ns guest: offset in ns (%llu)",
	       (unsigned long long)ev.ts);
	diag_init(&d);
	clock_report(c, srcs, spans, 3, 1, &d, &warn);
	tap_ok(&t, strstr(d.msg, "(TSC ticks: 1000 ns at 2600 MHz)") != NULL,
	       "ns guest: the report says the ns");
	/* a TSC guest: offset in ticks, then to ns */
	srcs[1]->clock = CLOCK_TSC;
	ev.ts = 7800;
	clock_map(c, srcs[1], &ev);
	tap_ok(&t, ev.ts == 2000, "TSC guest on a ns timeline (%llu)",
	       (unsigned long long)ev.ts);

	clock_destroy(c);
	for (int i = 0; i < 3; i++)
		source_destroy(srcs[i]);
	return t.failed ? 1 : 0;
}
