// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QEMU's clocks against the other inputs' (source.h): the simple backend
 * stamps CLOCK_MONOTONIC, the log backend the wall clock. Both are
 * nanoseconds, as are most trace.dat clocks, so the kind alone would mix
 * them silently. A trace.dat shares the simple backend's timeline when
 * its trace clock is mono (`trace-cmd record -C mono`); nothing in a
 * trace.dat says that trace-cmd's date offset (`record --date`) put it on
 * the wall clock, so the user says so (--clock=INPUT=wall).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "source.h"
#ifdef HAVE_TRACECMD
#include "tracedat/tracedat-file.h"
#endif

/* The base of src's ns clock, as far as it can be told; NULL: unknown. */
static const char *qemu_clock_base(struct source *src, char *name,
				   size_t size)
{
	if (src->clock_base)
		return src->clock_base;
#ifdef HAVE_TRACECMD
	if (src->ops == &source_tracecmd_ops && src->open_path) {
		struct tracedat_file f = { 0 };
		const char *base = NULL;
		struct diag d;

		diag_init(&d);
		if (tracedat_file_read(src->name, src->open_path, &f, &d) == 0 &&
		    f.clock) {
			snprintf(name, size, "trace clock %s", f.clock);
			if (!strcmp(f.clock, "mono"))
				base = "mono";
		}
		tracedat_file_free(&f);
		return base;
	}
#endif
	return NULL;
}

static const char *qemu_clock_what(const char *base)
{
	return !strcmp(base, "mono") ? "CLOCK_MONOTONIC" : "the wall clock";
}

int source_qemu_clocks(struct source **srcs, size_t n, struct diag *d)
{
	const struct source *q = NULL;
	size_t i;

	for (i = 0; i < n && !q; i++)
		if ((srcs[i]->ops == &source_qemu_simple_ops ||
		     srcs[i]->ops == &source_qemu_log_ops) &&
		    srcs[i]->clock == CLOCK_NS && srcs[i]->clock_base)
			q = srcs[i];
	if (!q)
		return 0;
	for (i = 0; i < n; i++) {
		char name[96] = "clock unknown";
		const char *base;

		if (srcs[i] == q || srcs[i]->clock != CLOCK_NS)
			continue;
		base = qemu_clock_base(srcs[i], name, sizeof(name));
		if (base && !strcmp(base, q->clock_base))
			continue;
		diag_set(d, "inputs on different clocks: %s (%s, %s), %s (%s, %s)",
			 q->name, q->ops->kind, qemu_clock_what(q->clock_base),
			 srcs[i]->name, srcs[i]->ops->kind,
			 base ? qemu_clock_what(base) : name);
		if (!strcmp(q->clock_base, "mono"))
			diag_add(d, "\n  record it on CLOCK_MONOTONIC (`trace-cmd record -C mono`, `perf record -k mono`) or, if it is on that clock, declare it with --clock=%s=mono",
				 srcs[i]->path);
		else
			diag_add(d, "\n  record the trace.dat with `trace-cmd record --date` (its times are then on the wall clock) and declare it with --clock=%s=wall",
				 srcs[i]->path);
		return -EINVAL;
	}
	return 0;
}
