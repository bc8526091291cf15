// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --counters in Chrome JSON: one "C" event per interval and counter, on
 * the host's process (pid 1), a track per counter; the value is the count
 * scaled up by the share of the interval the counter ran (as merge.py
 * drew them). Intervals perf did not count are left out.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chrome.h"
#include "counters.h"

/* Where t_ns after the counters' start lies on the timeline. */
static uint64_t chrome_counter_ts(const struct sink_chrome *c, uint64_t start,
				  uint64_t t_ns)
{
	if (c->time.timeline == CLOCK_TSC && c->time.hz)
		return start + (uint64_t)((unsigned __int128)t_ns * c->time.hz /
					  1000000000u);
	return start + t_ns;
}

int chrome_counters(struct sink_chrome *c)
{
	const struct sink *s = &c->sink;
	size_t i, k;

	for (i = 0; i < s->ncounters; i++) {
		struct counters *cs = &s->counters[i];

		if (!cs->has_start) {
			cs->start = c->any ? c->first_ts : 0;
			cs->has_start = true;
			cs->start_defaulted = true;
		}
		for (k = 0; k < cs->npoints; k++) {
			const struct counters_point *pt = &cs->points[k];
			const char *name = cs->names[pt->series];
			char label[512];
			struct tl_event te = {
				.ph = TL_COUNTER,
				.pid = 1,
				.cat = "counters",
				.catlen = 8,
				.name = label,
				.value = pt->value,
			};

			if (!pt->counted || !isfinite(pt->value))
				continue;
			if (s->ncounters > 1)
				snprintf(label, sizeof(label), "%s (%s)", name,
					 cs->path);
			else
				snprintf(label, sizeof(label), "%s", name);
			te.namelen = strlen(label);
			te.ts = chrome_counter_ts(c, cs->start, pt->t_ns);
			if (chrome_emit(c, &te) < 0)
				return -ENOMEM;
		}
	}
	return 0;
}
