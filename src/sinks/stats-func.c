// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-function statistics of uftrace inputs, as `uftrace report` computes
 * them. This follows uftrace 0.13 step by step: utils/fstack.c
 * (fstack_account_time(), fstack_update_stack_count(), fstack_entry(),
 * fstack_exit(), fstack_check_filter(), fstack_check_opts()),
 * cmds/report.c (build_function_tree(), add_lost_fstack(),
 * add_remaining_fstack()) and utils/report.c (report_update_node()).
 * Per task it keeps uftrace's array of call frames ("slots") indexed by
 * its stack count, with what each slot held last, stale values included:
 *
 *  - an entry fills the slot at the stack count (address, start time);
 *    its exit turns the start into the call's time and adds that to the
 *    child time of the slot below; the row is the exit's name, the self
 *    time the call's less its child time;
 *  - rows are merged by name; a call whose slot's address is also on a
 *    lower slot (recursion) counts in calls, min, max and avg, not in the
 *    total (report_update_node());
 *  - sched-out and sched-in (perf events) act as an entry and an exit of
 *    their own slot (convert_perf_event()), so their time is child time
 *    of the function they interrupt; the pair is a call of
 *    "linux:schedule" (or "linux:schedule (pre-empted)") only when the
 *    user stack count is above 0 at the sched-in (event_skip_out, on by
 *    default: not outside functions, nor in the caller of fork() in a
 *    forked child, whose data starts with an exit);
 *  - the first record of a task sets the stack count from its depth and
 *    starts every slot below at its time (a forked child's callers last
 *    from its first record);
 *  - a LOST record: the slot at the stack count (above the top) gets a
 *    time of 1, adds 1 to the child time of the top frame, and counts as
 *    a call if it still holds an entry; the stack count drops by one. The
 *    next record sets the stack count from its depth and restarts the
 *    slots from the user stack count on (which the LOST left as it was);
 *  - calls still open at the end last until the task's last record (of
 *    time 0 if that was a LOST; if a perf event, the last perf event of
 *    all, as they share one record), at least their child time;
 *  - an entry of exec*() sets both stack counts to 0, of setjmp() keeps
 *    the stack count for the next longjmp() (fstack.c's fixup_syms);
 *  - at most 1024 nested calls (uftrace's default max stack and depth);
 *  - the time filter saved with the recording (-t in default.opts, the
 *    reader's time_filter) hides a call shorter than it, with what it
 *    made, as fstack.c's get_task_ustack() does: a task's records wait
 *    from an entry on until an exit ends a call long enough (or an exit
 *    whose entry went out, a user event, a LOST record, the end); a call
 *    too short goes, records from its entry on, so its time stays its
 *    caller's own.
 *
 * Sorted by total time, the largest first (then by name).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outbuf.h"
#include "sink-util.h"
#include "source.h"
#include "stats-func.h"
#include "stats-func-int.h"
#include "stats.h"


struct stats_func *stats_func_create(void)
{
	return calloc(1, sizeof(struct stats_func));
}

void stats_func_destroy(struct stats_func *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nrows; i++)
		free(f->rows[i].name);
	free(f->rows);
	for (i = 0; i < f->ntasks; i++) {
		free(f->tasks[i].slots);
		free(f->tasks[i].wait);
	}
	free(f->tasks);
	for (i = 0; i < f->nsrcs; i++)
		free(f->srcs[i].slots);
	free(f->srcs);
	sink_map_fini(&f->names);
	sink_map_fini(&f->tids);
	free(f);
}

/* Room for one more of n elements of size bytes, doubling. */
int stats_func_grow(void *v, size_t n, size_t *cap, size_t size)
{
	void **p = v, *nv;
	size_t c;

	if (n < *cap)
		return 0;
	c = *cap ? 2 * *cap : 16;
	if (c > SIZE_MAX / size)
		return -ENOMEM;
	nv = realloc(*p, c * size);
	if (!nv)
		return -ENOMEM;
	*p = nv;
	*cap = c;
	return 0;
}

static uint64_t sf_hash(const char *s, size_t len, uint64_t salt)
{
	uint64_t x = UINT64_C(0xcbf29ce484222325) ^ salt;
	size_t i;

	for (i = 0; i < len; i++) {
		x ^= (unsigned char)s[i];
		x *= UINT64_C(0x100000001b3);
	}
	return x;
}

/* The row of a name, added at its first call. */
static int sf_row(struct stats_func *f, const char *s, size_t len,
		  uint32_t *row)
{
	uint64_t salt = 0, key;
	uint32_t r;

	for (;;) {
		key = sf_hash(s, len, salt);
		r = sink_map_find(&f->names, key);
		if (r == SINK_MAP_EMPTY)
			break;
		if (!strncmp(f->rows[r].name, s, len) && !f->rows[r].name[len]) {
			*row = r;
			return 0;
		}
		salt += UINT64_C(0x9e3779b97f4a7c15);	/* another name: rehash */
	}
	if (stats_func_grow(&f->rows, f->nrows, &f->caprows, sizeof(*f->rows)) < 0)
		return -ENOMEM;
	f->rows[f->nrows] = (struct stats_func_row){ .name = strndup(s, len),
					     .min = UINT64_MAX };
	if (!f->rows[f->nrows].name ||
	    sink_map_add(&f->names, key, (uint32_t)f->nrows) < 0) {
		free(f->rows[f->nrows].name);
		return -ENOMEM;
	}
	*row = (uint32_t)f->nrows++;
	return 0;
}

/* The slots of the fields we read, per (source, event type). */
static const int32_t *sf_slots(struct stats_func *f, const struct event *ev)
{
	static const char *const keys[SF_NSLOTS] = {
		"type", "tid", "symbol", "addr", "record_depth", "time_filter",
	};
	struct source *src = ev->src;
	uint32_t ti = ev->type->index;
	struct sf_types *st;
	size_t k;

	if (src->index >= f->nsrcs) {
		size_t n = src->index + 1;
		struct sf_types *nv = realloc(f->srcs, n * sizeof(*nv));

		if (!nv)
			return NULL;
		memset(nv + f->nsrcs, 0, (n - f->nsrcs) * sizeof(*nv));
		f->srcs = nv;
		f->nsrcs = n;
	}
	st = &f->srcs[src->index];
	if (ti >= st->ntypes) {
		size_t n = ti + 1, i;
		int32_t *nv = realloc(st->slots, n * SF_NSLOTS * sizeof(*nv));

		if (!nv)
			return NULL;
		for (i = st->ntypes * SF_NSLOTS; i < n * SF_NSLOTS; i++)
			nv[i] = SF_UNBOUND;	/* not bound yet */
		st->slots = nv;
		st->ntypes = n;
	}
	if (st->slots[ti * SF_NSLOTS] == SF_UNBOUND)
		for (k = 0; k < SF_NSLOTS; k++) {
			int idx = src->ops->bind(src, ev->type, keys[k]);

			st->slots[ti * SF_NSLOTS + k] = idx < 0 ? SF_NOSLOT : idx;
		}
	return &st->slots[ti * SF_NSLOTS];
}

static bool sf_get(const struct event *ev, int32_t slot, struct value *v)
{
	return slot != SF_NOSLOT && ev->src->ops->field(ev->src, ev, slot, v) == 0;
}

static struct sf_task *sf_task(struct stats_func *f, const struct event *ev,
			       int64_t tid)
{
	uint64_t key = ((uint64_t)ev->src->index << 40) ^ (uint64_t)tid;
	uint32_t i = sink_map_find(&f->tids, key);

	if (i != SINK_MAP_EMPTY)
		return &f->tasks[i];
	if (stats_func_grow(&f->tasks, f->ntasks, &f->captasks, sizeof(*f->tasks)) < 0)
		return NULL;
	memset(&f->tasks[f->ntasks], 0, sizeof(*f->tasks));
	f->tasks[f->ntasks].fdepth = SF_DEF_DEPTH;
	f->tasks[f->ntasks].src = ev->src;
	f->tasks[f->ntasks].tid = tid;
	if (sink_map_add(&f->tids, key, (uint32_t)f->ntasks) < 0)
		return NULL;
	return &f->tasks[f->ntasks++];
}

/* fstack_get(): slot idx, or NULL outside 0..SF_MAX_STACK-1. */
static struct sf_slot *sf_get_slot(struct sf_task *t, int64_t idx)
{
	size_t n;

	if (idx < 0 || idx >= SF_MAX_STACK)
		return NULL;
	if ((size_t)idx >= t->cap) {
		struct sf_slot *nv;

		n = t->cap ? t->cap : 16;
		while (n <= (size_t)idx)
			n *= 2;
		if (n > SF_MAX_STACK)
			n = SF_MAX_STACK;
		nv = realloc(t->slots, n * sizeof(*nv));
		if (!nv) {
			t->nomem = true;
			return NULL;
		}
		/* setup_task_handle(): zeroed, orig_depth the default depth */
		for (; t->cap < n; t->cap++)
			nv[t->cap] = (struct sf_slot){ .row = UINT32_MAX,
						       .orig_depth = SF_DEF_DEPTH };
		t->slots = nv;
	}
	return &t->slots[idx];
}

/* A call of row that took total, self, recursive or not. */
static void sf_account(struct stats_func *f, uint32_t row, uint64_t total,
		       uint64_t self, bool recursive)
{
	struct stats_func_row *r = &f->rows[row];

	r->calls++;
	if (recursive)
		r->rec += total;
	else
		r->total += total;
	r->self += self;
	if (total < r->min)
		r->min = total;
	if (total > r->max)
		r->max = total;
}

/* The row of a slot's function: its name at entry, else "<addr>". */
static int sf_slot_row(struct stats_func *f, const struct sf_slot *sl,
		       uint32_t *row)
{
	char buf[24];
	int n;

	if (sl->row != UINT32_MAX) {
		*row = sl->row;
		return 0;
	}
	/* symbol_getname() of no symbol */
	n = snprintf(buf, sizeof(buf), "<%" PRIx64 ">", sl->addr);
	return sf_row(f, buf, (size_t)n, row);
}

/*
 * The row of a record's symbol; a function without symbol (the reader's
 * "0xADDR") is "<ADDR>", as symbol_getname() names it.
 */
static int sf_sym_row(struct stats_func *f, const struct value *sym,
		      uint64_t addr, uint32_t *row)
{
	char buf[24];
	int n;

	n = snprintf(buf, sizeof(buf), "0x%" PRIx64, addr);
	if (sym->len != (size_t)n || memcmp(sym->s, buf, (size_t)n))
		return sf_row(f, sym->s, sym->len, row);
	n = snprintf(buf, sizeof(buf), "<%" PRIx64 ">", addr);
	return sf_row(f, buf, (size_t)n, row);
}

/* report_update_node(): a call of row, the slot at the stack count. */
static void sf_update(struct stats_func *f, struct sf_task *t, uint32_t row)
{
	struct sf_slot *sl = sf_get_slot(t, t->sc);
	bool recursive = false;
	int64_t i;

	if (!sl)
		return;
	for (i = 0; i < t->sc; i++) {
		const struct sf_slot *c = sf_get_slot(t, i);

		if (!c)
			break;
		if (c->addr == sl->addr) {
			recursive = true;
			break;
		}
	}
	sf_account(f, row, sl->total, sl->total - sl->child, recursive);
}

/* fstack_exit(): the slot at the stack count is left. */
static void sf_fstack_exit(struct sf_task *t)
{
	struct sf_slot *sl = sf_get_slot(t, t->sc);

	if (!sl)
		return;
	sl->norecord = false;
	t->fdepth = sl->orig_depth;
}

/*
 * fstack_account_time() and fstack_update_stack_count() for one record:
 * type 'e'ntry, 'x' exit or 'l'ost (sched-out: an entry, sched-in: an
 * exit, of depth 0, not a user record).
 */
static void sf_account_time(struct sf_task *t, char type, bool user,
			    uint64_t addr, uint64_t depth, uint64_t ts,
			    uint32_t row)
{
	struct sf_slot *sl;
	int64_t i;

	if (!t->set) {
		t->sc = (int64_t)depth + (type == 'x');
		t->set = true;
		for (i = 0; i < t->sc; i++) {
			sl = sf_get_slot(t, i);
			if (sl) {
				sl->total = ts;		/* start time */
				sl->child = 0;
				sl->valid = true;
			}
		}
		t->fdepth = SF_DEF_DEPTH;
	}
	if (t->lost_seen) {
		if (type == 'l')
			return;
		t->sc = (int64_t)depth + (type == 'x');
		t->lost_seen = false;
		/* uftrace restarts the slots from the user stack count on */
		for (i = 0; i <= (int64_t)depth; i++) {
			sl = sf_get_slot(t, i + t->usc);
			if (sl) {
				sl->total = ts - 1;
				sl->child = 0;
			}
		}
	}
	if (type == 'e') {
		sl = sf_get_slot(t, t->sc);
		if (sl) {
			sl->addr = addr;
			sl->row = row;
			sl->total = ts;
			sl->child = 0;
			sl->valid = true;
		}
	} else if (type == 'x') {
		sl = sf_get_slot(t, t->sc - 1);
		if (sl) {
			uint64_t delta = sl->valid ? ts - sl->total : 0;

			sl->valid = false;
			sl->total = delta;
			if (sl->child > sl->total)
				sl->child = sl->total;
			if (t->sc > 1)
				sl[-1].child += delta;
		}
	} else {
		uint64_t lost_time = 0;

		t->lost_seen = true;
		for (i = t->sc; i >= t->usc; i--) {
			sl = sf_get_slot(t, i);
			if (!sl)
				continue;
			if (lost_time == 0)
				lost_time = sl->total + 1;
			sl->total = lost_time - sl->total;
			if (sl->child > sl->total)
				sl->child = sl->total;
			if (i > 0)
				sl[-1].child += sl->total;
		}
	}
	if (type == 'e') {
		t->sc++;
		if (user)
			t->usc++;
	} else if (type == 'x') {
		if (t->sc > 0)
			t->sc--;
		if (user && t->usc > 0)
			t->usc--;
	}
}

/* fstack.c's fixup_syms: the special functions, by kind. */
static char sf_fixup(const char *s, size_t len)
{
	static const char *const exec[] = {
		"execl", "execlp", "execle", "execv", "execve", "execvp",
		"execvpe",
	};
	static const char *const setjmp[] = {
		"setjmp", "_setjmp", "sigsetjmp", "__sigsetjmp",
	};
	static const char *const longjmp[] = {
		"longjmp", "siglongjmp", "__longjmp_chk",
	};
	size_t i;

	for (i = 0; i < sizeof(exec) / sizeof(exec[0]); i++)
		if (strlen(exec[i]) == len && !memcmp(exec[i], s, len))
			return 'e';
	for (i = 0; i < sizeof(setjmp) / sizeof(setjmp[0]); i++)
		if (strlen(setjmp[i]) == len && !memcmp(setjmp[i], s, len))
			return 's';
	for (i = 0; i < sizeof(longjmp) / sizeof(longjmp[0]); i++)
		if (strlen(longjmp[i]) == len && !memcmp(longjmp[i], s, len))
			return 'l';
	return 0;
}

/* add_lost_fstack(): the slots from the stack count down to usc. */
static int sf_lost(struct stats_func *f, struct sf_task *t)
{
	uint32_t row;

	while (t->sc >= t->usc) {
		struct sf_slot *sl = sf_get_slot(t, t->sc);

		if (sl && sl->valid && !sl->norecord) {
			if (sf_slot_row(f, sl, &row) < 0)
				return -ENOMEM;
			sf_update(f, t, row);
		}
		sf_fstack_exit(t);
		t->sc--;
	}
	return 0;
}

/*
 * cmds/report.c: build_function_tree() at a sched-in: the slot just left
 * is a call of linux:schedule if a sched-out (or a pre-empting one)
 * filled it.
 */
static int sf_sched_in(struct stats_func *f, struct sf_task *t)
{
	static const char sched[] = "linux:schedule";
	static const char preempt[] = "linux:schedule (pre-empted)";
	struct sf_slot *sl = sf_get_slot(t, t->sc);
	uint32_t row;

	if (!sl)
		return 0;
	if (sl->addr == SF_SCHED_OUT) {
		if (sf_row(f, sched, sizeof(sched) - 1, &row) < 0)
			return -ENOMEM;
	} else if (sl->addr == SF_SCHED_OUT_PREEMPT) {
		if (sf_row(f, preempt, sizeof(preempt) - 1, &row) < 0)
			return -ENOMEM;
	} else {
		return 0;
	}
	sf_update(f, t, row);
	return 0;
}

/* One record of t as uftrace's read_rstack() hands it on. */
int stats_func_consume(struct stats_func *f, struct sf_task *t,
		       const struct sf_rec *r)
{
	struct sf_slot *sl;
	uint64_t a = r->addr;

	/* read_rstack(): the slots; sched events as calls of depth 0 */
	if (r->kind == 'v' && (a == SF_SCHED_OUT || a == SF_SCHED_OUT_PREEMPT))
		sf_account_time(t, 'e', false, a, 0, r->ts, UINT32_MAX);
	else if (r->kind == 'v' && a == SF_SCHED_IN)
		sf_account_time(t, 'x', false, a, 0, r->ts, UINT32_MAX);
	else if (r->kind != 'v')
		sf_account_time(t, r->kind, true, a, r->depth, r->ts, r->row);
	if (t->nomem)
		return -ENOMEM;

	/* build_function_tree() */
	t->last_time = r->kind == 'l' ? 0 : r->ts;
	/*
	 * a perf event is get_perf_record()'s one static record, which
	 * every later perf event overwrites: a task whose last record was
	 * one ends at the last perf event of all
	 */
	t->last_perf = r->kind == 'v' && a >= SF_EVENT_PERF &&
		       a < SF_EVENT_PERF + 100 && !t->tfilter;
	if (t->last_perf)
		f->perf_time = r->ts;
	/*
	 * utils/fstack.c: fstack_check_opts(): with event_skip_out (on unless
	 * --event-full) no event counts while the user stack count is 0:
	 * outside functions, and in a forked child's caller of fork() (the
	 * count starts at 0 there and an exit does not take it below)
	 */
	if (r->kind == 'v' && !t->usc)
		return 0;
	/* fstack_check_filter() */
	switch (r->kind) {
	case 'e':
		/* fstack_entry() */
		sl = sf_get_slot(t, t->sc - 1);
		if (!sl)
			return 0;
		sl->orig_depth = t->fdepth;
		sl->norecord = false;
		if (r->fix == 's')
			f->setjmp_count = t->sc;
		if (t->fdepth <= 0) {
			sl->norecord = true;
			return 0;
		}
		t->fdepth--;
		/* fstack_update(): an exec starts over, a longjmp goes back */
		if (r->fix == 'e')
			t->sc = t->usc = 0;
		else if (r->fix == 'l')
			t->sc = t->usc = f->setjmp_count;
		return 0;
	case 'x':
		sl = sf_get_slot(t, t->sc);
		if (!sl)
			return 0;
		if (sl->norecord) {
			sf_fstack_exit(t);
			return 0;
		}
		sf_update(f, t, r->row);
		sf_fstack_exit(t);	/* fstack_check_filter_done() */
		return 0;
	case 'v':
		if (t->fdepth <= 0)
			return 0;
		if (a == SF_SCHED_OUT && !sf_get_slot(t, t->sc - 1))
			return 0;
		if (a == SF_SCHED_IN && !sf_get_slot(t, t->sc))
			return 0;
		return a == SF_SCHED_IN ? sf_sched_in(f, t) : 0;
	default:
		return sf_lost(f, t);
	}
}

int stats_func_event(struct stats_func *f, const struct event *ev)
{
	struct value type, tid, sym, addr, dv, tf;
	const int32_t *slots;
	struct sf_task *t;
	struct sf_rec r = { .row = UINT32_MAX };

	/* the first byte turns away every other source without a call */
	if (ev->src->ops->kind[0] != 'u' ||
	    strcmp(ev->src->ops->kind, "uftrace") || !ev->has_ts)
		return 0;
	slots = sf_slots(f, ev);
	if (!slots)
		return -ENOMEM;
	if (!sf_get(ev, slots[SF_TYPE], &type) || type.kind != VALUE_STR ||
	    !sf_get(ev, slots[SF_TID], &tid) || tid.kind != VALUE_INT ||
	    !sf_get(ev, slots[SF_ADDR], &addr) || addr.kind != VALUE_INT)
		return 0;
	t = sf_task(f, ev, tid.neg ? -(int64_t)tid.u : (int64_t)tid.u);
	if (!t)
		return -ENOMEM;
	r.addr = addr.u;
	r.ts = ev->ts;
	if (type.len == 5 && !memcmp(type.s, "entry", 5))
		r.kind = 'e';
	else if (type.len == 4 && !memcmp(type.s, "exit", 4))
		r.kind = 'x';
	else if (type.len == 4 && !memcmp(type.s, "lost", 4))
		r.kind = 'l';
	else if (type.len == 5 && !memcmp(type.s, "event", 5))
		r.kind = 'v';
	else
		return 0;
	if (r.kind == 'e' || r.kind == 'x') {
		if (!sf_get(ev, slots[SF_SYMBOL], &sym) || sym.kind != VALUE_STR ||
		    !sf_get(ev, slots[SF_DEPTH], &dv) || dv.kind != VALUE_INT)
			return 0;
		r.depth = dv.u;
		if (sf_sym_row(f, &sym, r.addr, &r.row) < 0)
			return -ENOMEM;
		if (r.kind == 'e')
			r.fix = sf_fixup(sym.s, sym.len);
	}
	if (!t->set && !t->nwait && sf_get(ev, slots[SF_TFILTER], &tf) &&
	    tf.kind == VALUE_INT)
		t->tfilter = tf.u;
	if (t->tfilter)
		return stats_func_tfilter(f, t, &r);
	return stats_func_consume(f, t, &r);
}

/*
 * report.c's find_insert_node() for a call it ends itself: the name of
 * the slot's function in the program of the task at ts (a call left open
 * by an exec is no function of the new program: "<ADDR>"); a task still
 * switched out at its end is in linux:schedule, as uftrace 0.13 reports
 * it (tests/gen/gen-uftrace-schedopen.py).
 */
static int sf_slot_row_at(struct stats_func *f, const struct sf_task *t,
			  const struct sf_slot *sl, uint64_t ts, uint32_t *row)
{
	static const char sched[] = "linux:schedule";
	static const char preempt[] = "linux:schedule (pre-empted)";
	const char *name = NULL;
	char buf[32];

	if (sl->row == UINT32_MAX && sl->addr == SF_SCHED_OUT)
		return sf_row(f, sched, sizeof(sched) - 1, row);
	if (sl->row == UINT32_MAX && sl->addr == SF_SCHED_OUT_PREEMPT)
		return sf_row(f, preempt, sizeof(preempt) - 1, row);

	if (sl->row != UINT32_MAX && t->src->ops->name_at)
		name = t->src->ops->name_at(t->src, t->tid, ts, sl->addr, buf,
					    sizeof(buf));
	if (!name)
		return sf_slot_row(f, sl, row);
	return sf_row(f, name, strlen(name), row);
}

/* add_remaining_fstack(): calls still open last until the task's end. */
static int sf_remaining(struct stats_func *f, struct sf_task *t)
{
	uint64_t last = t->last_perf ? f->perf_time : t->last_time;
	uint32_t row;

	if (t->sc == 0)
		return 0;
	while (--t->sc >= 0) {
		struct sf_slot *sl = sf_get_slot(t, t->sc);

		if (!sl || sl->total > last)
			continue;
		sl->total = last - sl->total;
		if (sl->child > sl->total)
			sl->total = sl->child;
		if (t->sc > 0)
			sl[-1].child += sl->total;
		if (sf_slot_row_at(f, t, sl, last, &row) < 0)
			return -ENOMEM;
		sf_update(f, t, row);
	}
	return 0;
}

static int sf_row_cmp(const void *a, const void *b)
{
	const struct stats_func_row *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(x->name, y->name);
}

int stats_func_rows(struct stats_func *f, const struct stats_func_row **rows,
		    size_t *n)
{
	size_t i, k;

	/* calls still open: until the task's last event */
	for (i = 0; i < f->ntasks; i++)
		if (stats_func_release(f, &f->tasks[i]) < 0 ||
		    sf_remaining(f, &f->tasks[i]) < 0)
			return -ENOMEM;
	/* names entered but never left (exec) have no call */
	for (i = 0, k = 0; i < f->nrows; i++) {
		if (f->rows[i].calls)
			f->rows[k++] = f->rows[i];
		else
			free(f->rows[i].name);
	}
	f->nrows = k;
	sink_map_fini(&f->names);	/* the rows moved */
	if (f->nrows)
		qsort(f->rows, f->nrows, sizeof(*f->rows), sf_row_cmp);
	*rows = f->rows;
	*n = f->nrows;
	return 0;
}
