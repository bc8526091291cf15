/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Rules for event names that no input has (a typo such as kvm_exti print
 * nothing, silently, otherwise): once the formats of every input are
 * known before reading (trace.dat: source_ops.each_type), every name rule
 * that matches none of them and looks like a typo (a name close to one the
 * inputs have, or system:name of a system they have) is reported as a
 * warning naming the closest names.
 */
#ifndef KTF_RULES_NAMES_H
#define KTF_RULES_NAMES_H

#include <stddef.h>

#include "rules-table.h"
#include "source.h"

/*
 * Calls warn(arg, message) for each such rule (at most a few, then a
 * count). Nothing when an input's event types are known only as it is
 * read. Returns 0 or -ENOMEM.
 */
int rules_check_names(const struct rules *rules, struct source **srcs,
		      size_t n, void (*warn)(void *arg, const char *msg),
		      void *arg);

/*
 * The edit distance of a and b (Levenshtein, a swap of two neighbours
 * counting one, as a typo makes it), or cap when it is cap or more (and
 * for names of 128 bytes or more): how close a typo is.
 */
size_t rules_names_dist(const char *a, const char *b, size_t cap);
/*
 * The distance below which a name is offered for want: one edit in four
 * characters, and one for the shortest (kvm_exti: kvm_exit; VMEXTI:
 * VMEXIT; not ccm_entry for kvm_entry, a name of another program).
 */
size_t rules_names_cap(const char *want);

#endif
