/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every input is recognised and opened before anything is written (a
 * merged timeline with a hole would be wrong), and --tsc-offset auto reads
 * the host inputs once for their kvm_write_tsc_offset events.
 */
#ifndef KTF_INPUTS_H
#define KTF_INPUTS_H

#include <stddef.h>

#include "clock.h"
#include "diag.h"
#include "options.h"
#include "render.h"
#include "source.h"
#include "symtab.h"

/* How many sources the run reads: the inputs, or standard input alone. */
static inline size_t inputs_count(const struct options *o)
{
	return o->ninputs ? o->ninputs : 1;
}

/*
 * Are there descriptors enough for the inputs of o (kvmtrace streams and
 * trace.dat files one each, a directory one per NUMBER.dat file)? 0, or
 * -EMFILE with d saying how many the run needs and the limit.
 */
int inputs_check_files(const struct options *o, struct diag *d);

/*
 * Create, probe and open a source per input into srcs (room for
 * inputs_count(o)), counting them in *nsrcs as they are created so the
 * caller destroys them whatever happens. Host inputs get syms (borrowed)
 * for their exits; --clock declarations apply; what a library wrote while
 * an input opened goes to say. Returns 0, -ENOMEM, -EINVAL when an input
 * is missing, unreadable, of no known kind or holds nothing this tool
 * reads (its reader's -EMEDIUMTYPE: a perf.data without tracepoints, a
 * QEMU input whose --qemu-events file is missing or broken), or
 * there are no descriptors left to open it (d says how many the run
 * needs), or -EIO when its reader finds it corrupt (d says which).
 */
int inputs_open(const struct options *o, struct symtab *syms,
		struct source **srcs, size_t *nsrcs,
		void (*say)(void *arg, const char *msg), void *arg,
		struct diag *d);

/* What readers noted while they read (src->note), after the run. */
void inputs_notes_end(struct source **srcs, size_t n,
		      void (*say)(void *arg, const char *msg), void *arg);

/*
 * The guest TSC offsets of --tsc-offset auto: every kvm_write_tsc_offset
 * in the host inputs, read in a pass of their own (through
 * source_reopen()) before the merge, into clock. Returns 0, -ENOMEM,
 * -ENOENT when there are none (d says what to record) or a reader's error.
 */
int inputs_collect_offsets(struct source **srcs, size_t nsrcs,
			   struct render *render, struct clock *clock,
			   struct diag *d);

#endif
