// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The time filter saved with a uftrace recording (-t in default.opts), as
 * `uftrace report` applies it (utils/fstack.c get_task_ustack()): a
 * task's records wait from an entry on until an exit ends a call long
 * enough (or an exit whose entry went out, a user event, a LOST record,
 * the end); a call too short goes, records from its entry on, so its time
 * stays its caller's own.
 */
#include <errno.h>
#include <stdlib.h>

#include "stats-func-int.h"

int stats_func_release(struct stats_func *f, struct sf_task *t)
{
	size_t i, n = t->nwait;

	t->nwait = 0;
	for (i = 0; i < n; i++)
		if (stats_func_consume(f, t, &t->wait[i]) < 0)
			return -ENOMEM;
	return 0;
}

/* fstack.c's get_task_ustack() with a time filter: see the top. */
int stats_func_tfilter(struct stats_func *f, struct sf_task *t,
		       const struct sf_rec *r)
{
	size_t i = t->nwait;

	if (r->kind == 'x') {
		while (i > 0 && t->wait[i - 1].kind != 'e')
			i--;
		/* a call too short: from its entry on, nothing was */
		if (i > 0 && r->ts - t->wait[i - 1].ts < t->tfilter) {
			t->nwait = i - 1;
			return 0;
		}
	}
	if (stats_func_grow(&t->wait, t->nwait, &t->capwait, sizeof(*t->wait)) < 0)
		return -ENOMEM;
	t->wait[t->nwait++] = *r;
	if (r->kind == 'e' || (r->kind == 'v' && r->addr < SF_EVENT_USER))
		return 0;
	return stats_func_release(f, t);
}

