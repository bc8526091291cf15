// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QEMU's clocks against the other inputs' (source.h): the simple backend
 * stamps CLOCK_MONOTONIC, the log backend the wall clock. Both are
 * nanoseconds, as are most trace.dat clocks, so the kind alone would mix
 * them silently. A trace.dat shares the simple backend's timeline when
 * its trace clock is mono (`trace-cmd record -C mono`), the log's when
 * trace-cmd's date offset (`record --date`) put it on the wall clock;
 * each input's clock is clock.c's clock_base_of().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "diag.h"
#include "source.h"

/*
 * How to put src on the QEMU input's clock (base "mono" or "wall"), for
 * the kind of input it is.
 */
static void qemu_clock_advice(const struct source *src, const char *base,
			      struct diag *d)
{
	bool perf = src->ops == &source_perf_ops;
	bool mono = !strcmp(base, "mono");

#ifdef HAVE_TRACECMD
	if (src->ops == &source_tracecmd_ops) {
		diag_add(d, mono ? "\n  record it with `trace-cmd record -C mono` or, if it is on CLOCK_MONOTONIC, declare it with --clock=%s=mono" :
				   "\n  record it with `trace-cmd record --date` (its times are then on the wall clock) or, if it is on the wall clock, declare it with --clock=%s=wall",
			 src->path);
		return;
	}
#endif
	if (perf)
		diag_add(d, mono ? "\n  record it with `perf record -k mono` or, if it is on CLOCK_MONOTONIC, declare it with --clock=%s=mono" :
				   "\n  record it with `perf record -k realtime` (CLOCK_REALTIME: the wall clock) or, if it is on the wall clock, declare it with --clock=%s=wall",
			 src->path);
	else
		diag_add(d, "\n  if it is on %s, declare it with --clock=%s=%s",
			 clock_base_what(base), src->path, base);
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
		char how[96];
		const char *base;

		if (srcs[i] == q || srcs[i]->clock != CLOCK_NS)
			continue;
		base = clock_base_of(srcs[i], how, sizeof(how));
		if (base && !strcmp(base, q->clock_base))
			continue;
		diag_set(d, "inputs on different clocks: %s (%s, %s), %s (%s, %s%s%s)",
			 q->name, q->ops->kind, clock_base_what(q->clock_base),
			 srcs[i]->name, srcs[i]->ops->kind, how,
			 base && *how ? ": " : "",
			 base ? clock_base_what(base) : "");
		qemu_clock_advice(srcs[i], q->clock_base, d);
		return -EINVAL;
	}
	return 0;
}
