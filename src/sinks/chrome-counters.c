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
			char label[512], num[40], *p, *start;
			size_t len;

			if (!pt->counted || !isfinite(pt->value))
				continue;
			if (s->ncounters > 1)
				snprintf(label, sizeof(label), "%s (%s)", name,
					 cs->path);
			else
				snprintf(label, sizeof(label), "%s", name);
			len = strlen(label);
			snprintf(num, sizeof(num), "%.15g", pt->value);
			p = start = chrome_reserve(c, 2 * SINK_JSON_BOUND(len) +
							      strlen(num) + 128);
			if (!p)
				return -ENOMEM;
			p = chrome_sep(c, p);
			p = CHROME_LIT(p, "{\"name\":");
			p += sink_json_str(p, label, len);
			p = CHROME_LIT(p, ",\"cat\":\"counters\",\"ph\":\"C\",\"ts\":");
			p = chrome_ts(c, p, chrome_counter_ts(c, cs->start,
							      pt->t_ns));
			p = CHROME_LIT(p, ",\"pid\":1,\"args\":{");
			p += sink_json_str(p, label, len);
			*p++ = ':';
			p = chrome_lit(p, num, strlen(num));
			p = CHROME_LIT(p, "}}");
			chrome_commit(c, start, p);
		}
	}
	return 0;
}
