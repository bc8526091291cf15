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

#include <stdbool.h>
#include <stdint.h>

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

void exits_fini(struct exits *x);

#endif
