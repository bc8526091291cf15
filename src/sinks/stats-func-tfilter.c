// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The time filter saved with a uftrace recording (-t in default.opts), as
 * `uftrace report` applies it (utils/fstack.c get_task_ustack()): a
 * task's records wait from an entry on until an exit ends a call long
 * enough (or an exit whose entry went out, a user event, a LOST record,
 * the end); a call too short goes, records from its entry on, so its time
 * stays its caller's own.
 *
 * Perf events take another way (perf.c's process_perf_event()): a
 * sched-in less than the time filter after the task's sched-out goes
 * with it; the others stay, in time order among the task's records, and
 * do not go with a call too short.
 */
#include <errno.h>
#include <stdlib.h>

#include "stats-func-int.h"

int stats_func_release(struct stats_func *f, struct sf_task *t)
{
	size_t i, n;

	if (t->has_out) {
		t->has_out = false;
		if (stats_func_grow(&t->wait, t->nwait, &t->capwait,
				    sizeof(*t->wait)) < 0)
			return -ENOMEM;
		t->wait[t->nwait++] = t->out;
	}
	n = t->nwait;
	t->nwait = 0;
	for (i = 0; i < n; i++)
		if (stats_func_consume(f, t, &t->wait[i]) < 0)
			return -ENOMEM;
	return 0;
}

/* r after the records held (or at once, when none are). */
static int sf_hold(struct stats_func *f, struct sf_task *t,
		   const struct sf_rec *r)
{
	if (!t->nwait)
		return stats_func_consume(f, t, r);
	if (stats_func_grow(&t->wait, t->nwait, &t->capwait, sizeof(*t->wait)) < 0)
		return -ENOMEM;
	t->wait[t->nwait++] = *r;
	return 0;
}

/* fstack.c's get_task_ustack() with a time filter: see the top. */
int stats_func_tfilter(struct stats_func *f, struct sf_task *t,
		       const struct sf_rec *r)
{
	bool perf = r->kind == 'v' && r->addr >= SF_EVENT_PERF &&
		    r->addr < SF_EVENT_PERF + 100;
	size_t i = t->nwait, k;
	struct sf_rec p;
	int ret;

	if (t->has_out) {
		t->has_out = false;
		/* a pause shorter than the filter: neither was */
		if (perf && r->addr == SF_SCHED_IN &&
		    r->ts - t->out.ts < t->tfilter)
			return 0;
		ret = sf_hold(f, t, &t->out);
		if (ret < 0)
			return ret;
	}
	if (perf) {
		p = *r;
		p.keep = true;
		if (r->addr == SF_SCHED_OUT || r->addr == SF_SCHED_OUT_PREEMPT) {
			t->out = p;
			t->has_out = true;
			return 0;
		}
		return sf_hold(f, t, &p);
	}
	i = t->nwait;
	if (r->kind == 'x') {
		while (i > 0 && t->wait[i - 1].kind != 'e')
			i--;
		/* a call too short: from its entry on, nothing was but perf events */
		if (i > 0 && r->ts - t->wait[i - 1].ts < t->tfilter) {
			for (k = i - 1, i--; k < t->nwait; k++)
				if (t->wait[k].keep)
					t->wait[i++] = t->wait[k];
			t->nwait = i;
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
