/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The filter's own state (filter.c matches events; filter-report.c says,
 * at the end, what a filter let through nothing of). Not for other files.
 */
#ifndef KTF_FILTER_INT_H
#define KTF_FILTER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "filter.h"
#include "rules.h"
#include "source.h"

struct filter_range {
	uint64_t lo;
	uint64_t hi;
};

enum filter_state {
	FILTER_UNKNOWN = 0,
	FILTER_YES,
	FILTER_NO,
};

/* What the filter knows about one event type of one source. */
struct filter_type {
	uint8_t events;		/* enum filter_state */
	bool vcpu_init;
	int32_t vcpu_slot;	/* vcpu_id, or SINK_NOSLOT */
};

#define FILTER_IDCACHE_BITS 8
#define FILTER_IDCACHE (1u << FILTER_IDCACHE_BITS)

struct filter_idcache {
	uint64_t id;
	uint8_t state;		/* enum filter_state */
};

struct filter_src {
	struct filter_type *types;	/* owned, by event_type.index */
	uint32_t n;
	struct filter_idcache ids[FILTER_IDCACHE];	/* kvmtrace ids */
};

/*
 * One end of --time-range as written: an integer, or a decimal number, in
 * the units ts prints in; or seconds with an 's' (secs), kept exact to
 * the ns as well (ns, and ns_more when digits past the ns are not 0).
 */
struct filter_bound {
	bool set;
	bool is_int;
	bool secs;
	bool ns_more;
	uint64_t u;
	uint64_t ns;
	double f;
};

/* Names of event types --events met, kept for its "did you mean". */
#define FILTER_SEEN_MAX 4096

struct filter {
	struct rule *events;		/* owned: --events patterns */
	size_t nevents;
	struct filter_range *vcpus;	/* owned */
	size_t nvcpus;
	struct filter_range *pids;	/* owned */
	size_t npids;
	bool has_time;
	const char *time_arg;		/* borrowed (argv): as given */
	struct filter_bound from, to;
	/* the range on the timeline, from filter_set_clock() */
	enum clock_kind timeline;
	bool seconds;
	double ticks_per_sec;
	uint64_t lo, hi;
	uint64_t first_ts, last_ts;	/* the span of the stamped events */
	uint64_t stamped;		/* how many there were */
	uint64_t time_passed;		/* events --time-range let through */
	bool *hit;			/* owned: per --events item: it matched */
	const char **seen;		/* owned array, borrowed names: types met */
	const char **seen_sys;		/* owned array: their systems (or NULL) */
	size_t nseen;
	struct filter_src *srcs;	/* owned, by source.index */
	size_t nsrcs;
	bool sorted;			/* vcpus and pids: sorted, merged */
	const struct rules *rules;	/* borrowed: YAML name: labels */
	uint64_t events_passed;		/* events --events let through */
	/*
	 * --pid and --vcpu: the events each left out (that came to it past
	 * the filters before it) and the span of their pids and vCPUs,
	 * those without one, and whether one went through: filter_report()
	 * says when none did (then the events left out are all that came);
	 * once one went through, nothing more is counted
	 */
	uint64_t pid_seen, pid_none, pid_lo, pid_hi;
	uint64_t vcpu_seen, vcpu_none, vcpu_lo, vcpu_hi;
	bool pid_passed, vcpu_passed;
};

#endif
