/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which events of the merged stream go on to the sink:
 *
 *   --events LIST      ids (0x10002, 65538), names (kvm_exit), system:name,
 *                      globs (kvm:*, IO_*), matched as rules are; for
 *                      kvmtrace ids also their KVM_TRC_* name (VMEXIT)
 *   --vcpu LIST        vCPU numbers and ranges (0,2-3): the kvmtrace vcpu
 *                      field, the vcpu_id field of trace.dat events; events
 *                      without a vCPU do not match
 *   --pid LIST         pids and ranges
 *   --time-range A~B   host time, inclusive, in the units ts prints in:
 *                      ticks (or ns on a nanosecond timeline), seconds with
 *                      -c MHZ on a TSC timeline; or seconds written with an
 *                      's' (1.5s~2s) on a ns timeline or with -c; either
 *                      side may be empty
 *
 * Options accumulate (a list given twice is one longer list; the last
 * --time-range wins); an event must pass every kind of filter given.
 * Matching looks nothing up by name per event: results are kept per
 * (source, event type) and per kvmtrace id; --vcpu and --pid ranges are
 * sorted and merged once and searched in log n.
 */
#ifndef KTF_FILTER_H
#define KTF_FILTER_H

#include <stdbool.h>

#include "event.h"
#include "rules.h"
#include "source.h"

struct diag;
struct filter;

struct filter *filter_create(void);
void filter_destroy(struct filter *f);

/*
 * One option: name is "events", "vcpu", "pid" or "time-range". Returns 0,
 * -EINVAL with diag filled for a bad argument ("--vcpu: 'x': …"), -ENOENT
 * for an unknown name, -ENOMEM.
 */
int filter_option(struct filter *f, const char *name, const char *arg,
		  struct diag *d);

/*
 * The timeline and -c, once known (after clock_timeline()): --time-range
 * is in seconds when mhz > 0 and the timeline is TSC, else in ticks.
 * Returns 0, or -EINVAL (d filled, if not NULL) for a range in seconds
 * on a timeline without them (TSC without -c, a counter).
 */
int filter_set_clock(struct filter *f, enum clock_kind timeline, double mhz,
		     struct diag *d);

/*
 * --live: --time-range is relative to the start of the run, origin on
 * the timeline (call after filter_set_clock()).
 */
void filter_time_origin(struct filter *f, uint64_t origin);

/*
 * The rule file, borrowed: --events also matches the name: a YAML rule
 * gives its events (name: VMEXIT, name: read).
 */
void filter_set_rules(struct filter *f, const struct rules *rules);

/*
 * The inputs (borrowed; they outlive filter_report()): the names of the
 * event types that their formats list, for the "did you mean" of --events.
 */
void filter_set_sources(struct filter *f, struct source **srcs, size_t n);

/* Was any filter given? (Without one, filter_match() is always true.) */
bool filter_active(const struct filter *f);

bool filter_match(struct filter *f, const struct event *ev);

/*
 * At the end of the run, the warnings of filters that did nothing (a typo
 * runs silently otherwise), each through warn: an --events name no event
 * had (with the closest names the inputs had), --events that let nothing
 * through, a --time-range that selected nothing (with the span the inputs
 * cover).
 */
void filter_report(const struct filter *f,
		   void (*warn)(void *arg, const char *msg), void *arg);

#endif
