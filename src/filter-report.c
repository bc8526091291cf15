// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the filters say at the end of a run (filter_report()): an --events
 * item no event had, with the closest names the inputs have; a
 * --time-range, --pid or --vcpu that let no event through, with what the
 * events that came to it held.
 */
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "diag.h"
#include "filter-int.h"
#include "rules-names.h"
#include "rules.h"

/* May item rule's suggestions come from seen name i (its system)? */
static bool filter_suggest_from(const struct filter *f,
				const struct rule *rule, size_t i)
{
	return rule->match != RULE_SYSNAME ||
	       (f->seen_sys[i] && !strcmp(f->seen_sys[i], rule->system));
}

/*
 * The closest names the inputs had to item i of --events, into d: of the
 * system it names, within a sensible distance (rules_names_cap()). A
 * name the inputs declare but never recorded is said so.
 */
static void filter_suggest(const struct filter *f, const struct rule *rule,
			   struct diag *d)
{
	size_t cap = rules_names_cap(rule->name), best = cap, i, shown = 0;

	for (i = 0; i < f->nseen; i++) {
		size_t dd;

		if (!filter_suggest_from(f, rule, i))
			continue;
		dd = rules_names_dist(rule->name, f->seen[i], cap);
		if (dd == 0) {
			diag_add(d, " (an input declares it, but holds none)");
			return;
		}
		if (dd < best)
			best = dd;
	}
	for (i = 0; best < cap && i < f->nseen && shown < 3; i++)
		if (filter_suggest_from(f, rule, i) &&
		    rules_names_dist(rule->name, f->seen[i], cap) == best)
			diag_add(d, "%s%s", shown++ ? ", " : "; did you mean ",
				 f->seen[i]);
	if (shown)
		diag_add(d, "?");
}

/* "A~B" of ts values as the timeline counts them. */
static void filter_span(const struct filter *f, struct diag *d)
{
	uint64_t a = f->first_ts, b = f->last_ts;

	if (f->timeline == CLOCK_NS)
		diag_add(d, "%" PRIu64 ".%09" PRIu64 "s~%" PRIu64 ".%09" PRIu64 "s (ts %" PRIu64 "~%" PRIu64 " ns)",
			 a / 1000000000u, a % 1000000000u, b / 1000000000u,
			 b % 1000000000u, a, b);
	else if (f->seconds)
		diag_add(d, "%.9fs~%.9fs (TSC %" PRIu64 "~%" PRIu64 ")",
			 (double)a / f->ticks_per_sec,
			 (double)b / f->ticks_per_sec, a, b);
	else
		diag_add(d, "%" PRIu64 "~%" PRIu64 " (%s)", a, b,
			 f->timeline == CLOCK_TSC ? "TSC ticks" : "counter");
}

/* "0,2-3": the ranges of --pid or --vcpu, merged, to d */
static void filter_ranges_text(const struct filter_range *v, size_t n,
			       struct diag *d)
{
	for (size_t i = 0; i < n; i++) {
		diag_add(d, "%s%" PRIu64, i ? "," : "", v[i].lo);
		if (v[i].hi != v[i].lo)
			diag_add(d, "-%" PRIu64, v[i].hi);
	}
}

/*
 * --pid or --vcpu (what, "pid" or "vCPU") let no event through: say so,
 * with the span of the values that came to it and how many had none
 */
static void filter_report_list(const char *opt, const char *what,
			       const struct filter_range *v, size_t n,
			       uint64_t seen, uint64_t none, uint64_t lo,
			       uint64_t hi,
			       void (*warn)(void *arg, const char *msg),
			       void *arg)
{
	struct diag d;

	diag_set(&d, "warning: --%s ", opt);
	filter_ranges_text(v, n, &d);
	diag_add(&d, " selected no event; ");
	if (seen)
		diag_add(&d, "the %" PRIu64 " event%s that came to it %s on %s%s %" PRIu64,
			 seen, seen == 1 ? "" : "s", seen == 1 ? "is" : "are",
			 what, lo == hi ? "" : "s", lo);
	if (seen && lo != hi)
		diag_add(&d, "~%" PRIu64, hi);
	if (seen && none)
		diag_add(&d, ", and %" PRIu64 " more have none", none);
	else if (none)
		diag_add(&d, "the %" PRIu64 " event%s that came to it %s none",
			 none, none == 1 ? "" : "s", none == 1 ? "has" : "have");
	warn(arg, d.msg);
}

void filter_report(const struct filter *f,
		   void (*warn)(void *arg, const char *msg), void *arg)
{
	bool named = false;
	struct diag d;
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nevents; i++) {
		const struct rule *rule = &f->events[i];

		if (f->hit[i] || (rule->match != RULE_NAME &&
				  rule->match != RULE_SYSNAME))
			continue;
		diag_set(&d, "warning: --events: no event of the inputs is named '%s'",
			 rule->pattern);
		filter_suggest(f, rule, &d);
		warn(arg, d.msg);
		named = true;
	}
	if (f->nevents && !f->events_passed && !named)
		warn(arg, "warning: --events matched no event of any input");
	if (f->has_time && !f->time_passed) {
		diag_set(&d, "warning: --time-range %s selected no event; ",
			 f->time_arg);
		if (f->stamped) {
			diag_add(&d, "the inputs cover ");
			filter_span(f, &d);
		} else {
			diag_add(&d, "no event has a time stamp");
		}
		warn(arg, d.msg);
	}
	/* the filters before these said so if no event came to them */
	if (f->npids && !f->pid_passed && (f->pid_seen || f->pid_none))
		filter_report_list("pid", "pid", f->pids, f->npids,
				   f->pid_seen, f->pid_none, f->pid_lo,
				   f->pid_hi, warn, arg);
	if (f->nvcpus && !f->vcpu_passed && (f->vcpu_seen || f->vcpu_none))
		filter_report_list("vcpu", "vCPU", f->vcpus, f->nvcpus,
				   f->vcpu_seen, f->vcpu_none, f->vcpu_lo,
				   f->vcpu_hi, warn, arg);
}
