// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-function statistics of uftrace inputs, as `uftrace report` computes
 * them (cmds/report.c, utils/report.c, utils/fstack.c of uftrace 0.13):
 *
 *  - a call lasts from its entry to its exit; its self time is that less
 *    the time of the calls it makes;
 *  - rows are merged by name (C++ overloads, the same function in two
 *    sessions); calls, total, self, and min/avg/max of a call's time;
 *  - a recursive call (its address already on the task's stack) counts
 *    in calls, min, max and avg, not in the total;
 *  - from a sched-out to the next sched-in (perf events) the task runs
 *    "linux:schedule" (or "linux:schedule (pre-empted)"), a call of its
 *    own, not self time of the function it interrupts; only inside a
 *    function, and not in a task whose data begins with an exit (a
 *    forked child: uftrace's filter depth is 0 there), as uftrace counts;
 *  - an exit whose entry came before the data (a forked child's first
 *    records) is a call of no time;
 *  - calls still open at the end last until the task's last event.
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
#include "stats.h"

#define SF_EVENT_PERF		200000u
#define SF_SCHED_IN		(SF_EVENT_PERF + 1)
#define SF_SCHED_OUT		(SF_EVENT_PERF + 2)
#define SF_SCHED_OUT_PREEMPT	(SF_EVENT_PERF + 7)
#define SF_NOSLOT		(-1)
#define SF_UNBOUND		(-2)
#define SF_UNKNOWN		UINT64_MAX	/* a frame entered before the data */

enum { SF_TYPE, SF_TID, SF_SYMBOL, SF_ADDR, SF_DEPTH, SF_NSLOTS };

struct sf_row {
	char *name;		/* owned */
	uint64_t calls;
	uint64_t total;		/* not counting recursive calls */
	uint64_t rec;		/* the recursive ones */
	uint64_t self;
	uint64_t min;
	uint64_t max;
};

struct sf_frame {
	uint64_t addr;		/* sched-out id for linux:schedule */
	uint64_t ts;		/* SF_UNKNOWN: entered before the data */
	uint64_t child;
	uint32_t row;
	bool sched;
};

struct sf_task {
	struct sf_frame *stack;	/* owned */
	size_t depth;
	size_t cap;
	uint64_t last_ts;
	bool started;		/* a function record was seen */
	bool inherited;		/* the first one was an exit (a forked child) */
};

struct sf_types {
	int32_t *slots;		/* owned: SF_NSLOTS per type index */
	size_t ntypes;
};

struct stats_func {
	struct sf_row *rows;	/* owned */
	size_t nrows;
	size_t caprows;
	struct sink_map names;	/* name hash -> row */
	struct sf_task *tasks;	/* owned */
	size_t ntasks;
	size_t captasks;
	struct sink_map tids;	/* (source, tid) -> task */
	struct sf_types *srcs;	/* owned, by source index */
	size_t nsrcs;
};

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
	for (i = 0; i < f->ntasks; i++)
		free(f->tasks[i].stack);
	free(f->tasks);
	for (i = 0; i < f->nsrcs; i++)
		free(f->srcs[i].slots);
	free(f->srcs);
	sink_map_fini(&f->names);
	sink_map_fini(&f->tids);
	free(f);
}

/* Room for one more of n elements of size bytes, doubling. */
static int sf_grow(void *v, size_t n, size_t *cap, size_t size)
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
	if (sf_grow(&f->rows, f->nrows, &f->caprows, sizeof(*f->rows)) < 0)
		return -ENOMEM;
	f->rows[f->nrows] = (struct sf_row){ .name = strndup(s, len),
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
		"type", "tid", "symbol", "addr", "depth",
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
	if (sf_grow(&f->tasks, f->ntasks, &f->captasks, sizeof(*f->tasks)) < 0)
		return NULL;
	memset(&f->tasks[f->ntasks], 0, sizeof(*f->tasks));
	if (sink_map_add(&f->tids, key, (uint32_t)f->ntasks) < 0)
		return NULL;
	return &f->tasks[f->ntasks++];
}

static int sf_push(struct sf_task *t, const struct sf_frame *fr)
{
	if (sf_grow(&t->stack, t->depth, &t->cap, sizeof(*t->stack)) < 0)
		return -ENOMEM;
	t->stack[t->depth++] = *fr;
	return 0;
}

/* A call of row that took total, self, recursive or not. */
static void sf_account(struct stats_func *f, uint32_t row, uint64_t total,
		       uint64_t self, bool recursive)
{
	struct sf_row *r = &f->rows[row];

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

/* Close the top frame of t at ts (end: the times run to ts). */
static void sf_pop(struct stats_func *f, struct sf_task *t, uint64_t ts,
		   bool at_end)
{
	struct sf_frame *fr = &t->stack[--t->depth];
	uint64_t total = 0, self;
	bool recursive = false;
	size_t i;

	if (fr->row == UINT32_MAX)
		return;		/* entered before the data: nothing known */
	if (fr->ts != SF_UNKNOWN && ts >= fr->ts)
		total = ts - fr->ts;
	else if (fr->ts != SF_UNKNOWN && at_end)
		return;		/* entered after the task's last event */
	if (at_end && fr->child > total)
		total = fr->child;
	self = total > fr->child ? total - fr->child : 0;
	if (fr->ts == SF_UNKNOWN)
		total = self = 0;
	for (i = 0; i < t->depth && !fr->sched; i++)
		if (t->stack[i].addr == fr->addr) {
			recursive = true;
			break;
		}
	sf_account(f, fr->row, total, self, recursive);
	if (t->depth)
		t->stack[t->depth - 1].child += total;
}

/* Drop sched frames whose sched-in never came (the stack moved on). */
static void sf_drop_sched(struct sf_task *t)
{
	while (t->depth && t->stack[t->depth - 1].sched)
		t->depth--;
}

static int sf_sched(struct stats_func *f, struct sf_task *t, uint64_t id,
		    uint64_t ts)
{
	static const char sched[] = "linux:schedule";
	static const char preempt[] = "linux:schedule (pre-empted)";
	struct sf_frame fr = { .addr = id, .ts = ts, .sched = true };

	/*
	 * uftrace report counts these only inside a function, and never in
	 * a task whose data begins with an exit (its filter depth is 0 then)
	 */
	if (!t->started || t->inherited)
		return 0;
	if (id == SF_SCHED_IN) {
		if (t->depth && t->stack[t->depth - 1].sched)
			sf_pop(f, t, ts, false);
		return 0;
	}
	if (id != SF_SCHED_OUT && id != SF_SCHED_OUT_PREEMPT)
		return 0;
	sf_drop_sched(t);
	if (!t->depth)
		return 0;
	if (id == SF_SCHED_OUT ? sf_row(f, sched, sizeof(sched) - 1, &fr.row)
			       : sf_row(f, preempt, sizeof(preempt) - 1, &fr.row))
		return -ENOMEM;
	return sf_push(t, &fr);
}

int stats_func_event(struct stats_func *f, const struct event *ev)
{
	struct value type, tid, sym, addr, dv;
	const int32_t *slots;
	struct sf_task *t;
	uint64_t a, depth;
	uint32_t row;

	if (strcmp(ev->src->ops->kind, "uftrace") || !ev->has_ts)
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
	t->last_ts = ev->ts;
	a = addr.u;
	if (type.len == 5 && !memcmp(type.s, "event", 5))
		return sf_sched(f, t, a, ev->ts);
	if (!(type.len == 5 && !memcmp(type.s, "entry", 5)) &&
	    !(type.len == 4 && !memcmp(type.s, "exit", 4)))
		return 0;	/* lost records */
	if (!t->started)
		t->inherited = type.len == 4;
	t->started = true;
	if (!sf_get(ev, slots[SF_SYMBOL], &sym) || sym.kind != VALUE_STR)
		return 0;
	/* the depth the reader gives, from its own call stack */
	if (!sf_get(ev, slots[SF_DEPTH], &dv) || dv.kind != VALUE_INT)
		return 0;
	depth = dv.u;
	sf_drop_sched(t);
	if (!memcmp(type.s, "entry", 5)) {
		struct sf_frame fr = { .addr = a, .ts = ev->ts };

		/* an exec, or data that starts inside calls */
		if (t->depth > depth)
			t->depth = depth;
		while (t->depth < depth) {
			struct sf_frame unk = { .addr = SF_UNKNOWN - 1,
						.ts = SF_UNKNOWN, .row = UINT32_MAX };

			if (sf_push(t, &unk) < 0)
				return -ENOMEM;
		}
		if (sf_row(f, sym.s, sym.len, &fr.row) < 0)
			return -ENOMEM;
		return sf_push(t, &fr);
	}
	/* exit */
	if (t->depth > depth + 1)
		t->depth = depth + 1;	/* exits we never saw */
	if (t->depth == depth + 1 && t->stack[depth].row != UINT32_MAX &&
	    t->stack[depth].addr == a) {
		sf_pop(f, t, ev->ts, false);
		return 0;
	}
	/* its entry came before the data: a call of no time */
	if (sf_row(f, sym.s, sym.len, &row) < 0)
		return -ENOMEM;
	sf_account(f, row, 0, 0, false);
	if (t->depth > depth)
		t->depth = depth;
	return 0;
}

static int sf_row_cmp(const void *a, const void *b)
{
	const struct sf_row *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* A time in the unit of the table: ns, seconds (TSC with -c) or ticks. */
static int sf_time(struct outbuf *o, const struct sink_time *t, uint64_t v,
		   int width)
{
	char buf[48];
	int n;

	if (t->timeline == CLOCK_TSC && t->ns)
		n = snprintf(buf, sizeof(buf), "%*.9f", width,
			     (double)v / ((double)t->hz ? (double)t->hz : 1.0));
	else
		n = snprintf(buf, sizeof(buf), "%*" PRIu64, width, v);
	return outbuf_put(o, buf, (size_t)n);
}

/* A CSV field: quoted when it holds a comma, a quote or a line break. */
static int sf_csv_str(struct outbuf *o, const char *s)
{
	int ret = 0;

	if (!strpbrk(s, ",\"\r\n"))
		return outbuf_put(o, s, strlen(s));
	ret = outbuf_put(o, "\"", 1);
	for (; *s && !ret; s++)
		ret = *s == '"' ? outbuf_put(o, "\"\"", 2) : outbuf_put(o, s, 1);
	return ret ? ret : outbuf_put(o, "\"", 1);
}

/* The rows as a JSON member (names escaped by sink_json_str()). */
static int sf_json(struct stats_func *f, struct outbuf *o, const char *unit)
{
	size_t i;
	int ret;

	ret = stats_printf(o, ",\n\"functions\":{\"time_unit\":\"%s\",\"rows\":[", unit);
	for (i = 0; i < f->nrows && !ret; i++) {
		const struct sf_row *r = &f->rows[i];
		size_t len = strlen(r->name);
		char *p = outbuf_reserve(o, SINK_JSON_BOUND(len) + 16);

		if (!p)
			return -ENOMEM;
		memcpy(p, i ? ",\n{\"function\":" : "\n{\"function\":", i ? 14 : 13);
		outbuf_commit(o, (i ? 14 : 13) + sink_json_str(p + (i ? 14 : 13),
							       r->name, len));
		ret = stats_printf(o, ",\"calls\":%" PRIu64 ",\"total\":%" PRIu64
				",\"self\":%" PRIu64 ",\"min\":%" PRIu64
				",\"avg\":%" PRIu64 ",\"max\":%" PRIu64 "}",
				r->calls, r->total, r->self, r->min,
				(r->total + r->rec) / r->calls, r->max);
	}
	return ret ? ret : outbuf_put(o, "]}", 2);
}

int stats_func_write(struct stats_func *f, struct outbuf *o,
		      enum stats_func_format fmt, const struct sink_time *t)
{
	bool csv = fmt == STATS_FUNC_CSV;
	const char *unit = t->timeline == CLOCK_TSC ? (t->ns ? "s" : "ticks")
						    : "ns";
	size_t i, n, w = 8;
	int ret = 0;

	/* calls still open: until the task's last event */
	for (i = 0; i < f->ntasks; i++) {
		struct sf_task *tk = &f->tasks[i];

		while (tk->depth)
			sf_pop(f, tk, tk->last_ts, true);
	}
	/* names entered but never left (exec) have no call */
	for (i = 0, n = 0; i < f->nrows; i++) {
		if (f->rows[i].calls)
			f->rows[n++] = f->rows[i];
		else
			free(f->rows[i].name);
	}
	f->nrows = n;
	sink_map_fini(&f->names);	/* the rows moved */
	if (!f->nrows)
		return 0;
	qsort(f->rows, f->nrows, sizeof(*f->rows), sf_row_cmp);
	if (fmt == STATS_FUNC_JSON)
		return sf_json(f, o, unit);
	for (i = 0; i < f->nrows; i++)
		if (strlen(f->rows[i].name) > w)
			w = strlen(f->rows[i].name);
	if (w > 60)
		w = 60;
	if (csv)
		ret = stats_printf(o, "\nfunction,calls,total_%s,self_%s,min_%s,avg_%s,max_%s\n",
				unit, unit, unit, unit, unit);
	else
		ret = stats_printf(o, "\nFunctions: calls and time per call in %s, as uftrace report counts them\n"
				"(total: not counting recursive calls; self: less the calls made; sorted by total)\n"
				"%-*s  %10s  %16s  %16s  %16s  %16s  %16s\n",
				unit, (int)w, "function", "calls", "total",
				"self", "min", "avg", "max");
	for (i = 0; i < f->nrows && !ret; i++) {
		const struct sf_row *r = &f->rows[i];
		uint64_t avg = r->calls ? (r->total + r->rec) / r->calls : 0;
		uint64_t min = r->calls ? r->min : 0;
		int tw = csv ? 0 : 16;

		if (csv) {
			ret = sf_csv_str(o, r->name);
			if (!ret)
				ret = stats_printf(o, ",%" PRIu64 ",", r->calls);
		} else {
			ret = stats_printf(o, "%-*s  %10" PRIu64 "  ", (int)w,
					r->name, r->calls);
		}
		if (!ret)
			ret = sf_time(o, t, r->total, tw);
		if (!ret)
			ret = outbuf_put(o, csv ? "," : "  ", csv ? 1 : 2);
		if (!ret)
			ret = sf_time(o, t, r->self, tw);
		if (!ret)
			ret = outbuf_put(o, csv ? "," : "  ", csv ? 1 : 2);
		if (!ret)
			ret = sf_time(o, t, min, tw);
		if (!ret)
			ret = outbuf_put(o, csv ? "," : "  ", csv ? 1 : 2);
		if (!ret)
			ret = sf_time(o, t, avg, tw);
		if (!ret)
			ret = outbuf_put(o, csv ? "," : "  ", csv ? 1 : 2);
		if (!ret)
			ret = sf_time(o, t, r->max, tw);
		if (!ret)
			ret = outbuf_put(o, "\n", 1);
	}
	return ret;
}
