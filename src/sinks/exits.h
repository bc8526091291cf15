/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What an exit is and how long it lasted: the one pairing rule that
 * --stats and --exits share, so that the rows of one add up to the tables
 * of the other.
 *
 *  - an exit is a kvmtrace VMEXIT or a kvm:kvm_exit (trace.dat, perf.data:
 *    `perf kvm stat record` records the same tracepoints); an entry is a
 *    VMENTRY or a kvm:kvm_entry;
 *  - an exit pairs with the next entry of the same vCPU of the same VM
 *    (sink_pairs_get() finds the vCPU); its duration is the host time
 *    between them (0 if the entry is stamped before the exit), in
 *    nanoseconds when the timeline converts to them (sink_time: a ns clock,
 *    or the TSC with -c), else in ticks; converted exit by exit, so that
 *    sums of rows and totals of tables agree to the nanosecond;
 *  - an exit that meets another exit of its vCPU, or the end, first is
 *    unpaired (no duration); an entry without an exit before it is
 *    counted, nothing more;
 *  - the first kvm_pio, kvm_mmio, kvm_msr, kvm_hypercall or kvm_inj_virq
 *    (or kvmtrace ancestor) of the vCPU during an exit says what the exit
 *    was about (its kind and value);
 *  - vCPUs beyond SINK_MAXKEYS share one state that never pairs: their
 *    exits are counted, nothing more.
 *
 * A sink embeds struct exits and is called back, with the vCPU's state
 * holding the exit, when an exit begins and when it ends.
 */
#ifndef KTF_EXITS_H
#define KTF_EXITS_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "sink-util.h"

struct exits;
struct symtab;

struct exits_ops {
	/*
	 * An exit began on v: v->reason (exits_reason_key()), v->exit_ts,
	 * v->rip/has_rip and v->sym (its guest function, when one resolves)
	 * are set; v->ref is the sink's own. May be NULL. 0 or -ENOMEM.
	 */
	int (*begin)(struct exits *x, struct sink_vcpu *v,
		     const struct sink_type *st, const struct event *ev);
	/*
	 * v's exit ended: paired with dur (see above), or not. 0 or -ENOMEM.
	 */
	int (*end)(struct exits *x, struct sink_vcpu *v, bool paired,
		   uint64_t dur);
};

struct exits {
	const struct exits_ops *ops;	/* borrowed, static */
	struct sink_pairs pairs;
	const struct sink_time *time;	/* borrowed: durations' unit */
	const struct symtab *syms;	/* borrowed: --guest-syms; or NULL */
	struct source *sym_src;		/* borrowed: else a guest input's
					 * kallsyms; or NULL */
	bool want_rip;			/* read the guest RIP even without
					 * symbols (a column of --exits) */
	uint64_t entries_unpaired;	/* entries without an exit before */
	uint64_t exits_over;		/* exits of vCPUs beyond the cap */
	uint64_t paired, unpaired;	/* exits that ended so, so far */
};

/* An exit's reason value, whether it is a kvm:kvm_exit, and its domain. */
static inline uint64_t exits_reason_key(uint64_t value, bool tracedat,
					enum domain d)
{
	return (value & ((1ull << 61) - 1)) << 2 | (uint64_t)tracedat << 1 |
	       (uint64_t)d;
}

static inline uint64_t exits_key_value(uint64_t key)
{
	return key >> 2;
}

static inline enum domain exits_key_domain(uint64_t key)
{
	return (enum domain)(key & 1);
}

/* The guest function of RIP rip (--guest-syms, or a guest's kallsyms). */
const char *exits_sym_find(const struct exits *x, uint64_t rip);

/* The guest function of v's exit ev, by its RIP (v->rip); or NULL. */
static inline const char *exits_sym(const struct exits *x,
				    struct sink_vcpu *v,
				    const struct sink_type *st,
				    const struct event *ev)
{
	uint32_t w[2];

	if (!x->want_rip && !x->syms && !x->sym_src) {
		v->has_rip = false;
		return NULL;
	}
	if (st->at_rip != SINK_NOAT && st->at_rip_hi != SINK_NOAT) {
		/* kvmtrace: two words */
		memcpy(&w[0], (const char *)ev->rec + st->at_rip, 4);
		memcpy(&w[1], (const char *)ev->rec + st->at_rip_hi, 4);
		v->rip = w[0] | (uint64_t)w[1] << 32;
		v->has_rip = true;
	} else {
		v->has_rip = sink_exit_rip(st, ev, &v->rip) == 0;
	}
	if (!v->has_rip || (!x->syms && !x->sym_src))
		return NULL;
	return exits_sym_find(x, v->rip);
}

/*
 * exits_exit() with the sink's callbacks given (begin may be NULL): a
 * sink that names its own has them inlined, one call an event.
 */
static inline __attribute__((always_inline)) int
exits_exit_with(struct exits *x, const struct sink_type *st,
		const struct event *ev,
		int (*begin)(struct exits *x, struct sink_vcpu *v,
			     const struct sink_type *st,
			     const struct event *ev),
		int (*end)(struct exits *x, struct sink_vcpu *v, bool paired,
			   uint64_t dur))
{
	struct sink_vcpu *v = sink_pairs_find(&x->pairs, st, ev, false);
	uint64_t value;

	if (!v)
		return -ENOMEM;
	if (v->over) {
		x->exits_over++;
		return 0;
	}
	if (v->pending) {
		v->pending = false;
		x->unpaired++;
		if (end(x, v, false, 0) < 0)
			return -ENOMEM;
	}
	if (sink_field_at(ev, st->reason, st->at_reason, &value) < 0)
		value = 0;
	v->reason = exits_reason_key(value, !ev->type->has_id,
				     ev->src->domain);
	v->kind = SINK_KIND_NONE;
	v->sym = exits_sym(x, v, st, ev);
	v->exit_ts = ev->ts;
	v->pending = true;
	return begin ? begin(x, v, st, ev) : 0;
}

/* exits_entry() with the sink's end callback given. */
static inline __attribute__((always_inline)) int
exits_entry_with(struct exits *x, const struct sink_type *st,
		 const struct event *ev,
		 int (*end)(struct exits *x, struct sink_vcpu *v, bool paired,
			    uint64_t dur))
{
	struct sink_vcpu *v = sink_pairs_find(&x->pairs, st, ev, true);
	uint64_t dur;

	if (!v)
		return -ENOMEM;
	if (v->over)
		return 0;
	if (!v->pending) {
		x->entries_unpaired++;
		return 0;
	}
	v->pending = false;
	x->paired++;
	dur = ev->ts > v->exit_ts ? ev->ts - v->exit_ts : 0;
	if (x->time && x->time->ns)
		dur = sink_time_ns(x->time, dur);
	return end(x, v, true, dur);
}

/* exits_event() of an exit, an entry, any other event. */
int exits_exit(struct exits *x, const struct sink_type *st,
	       const struct event *ev);
int exits_entry(struct exits *x, const struct sink_type *st,
		const struct event *ev);
int exits_kind(struct exits *x, const struct sink_type *st,
	       const struct event *ev);

/*
 * Feed event ev of type st (an exit, an entry, an event that says what an
 * exit is about; anything else is let through). 0 or -ENOMEM.
 */
static inline int exits_event(struct exits *x, const struct sink_type *st,
			      const struct event *ev)
{
	switch (sink_role(st, ev)) {
	case SINK_EXIT:
		return exits_exit(x, st, ev);
	case SINK_ENTRY:
		return exits_entry(x, st, ev);
	case SINK_CALL:
		return 0;
	default:
		return exits_kind(x, st, ev);
	}
}

/* At the end: every exit still waiting ends unpaired. 0 or -ENOMEM. */
int exits_finish(struct exits *x);

/*
 * After exits_finish(): when there were exits and not one met its entry
 * (the entries left out by --events, or not recorded), a warning through
 * warn that no exit has a duration, and why; who: "--stats", "--exits".
 */
void exits_warn_unpaired(const struct exits *x, const char *who,
			 void (*warn)(void *arg, const char *msg), void *arg);

void exits_fini(struct exits *x);

#endif
