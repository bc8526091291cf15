// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uftrace: the next event. The record on top of the heap of tasks (or a
 * line of a lone input's dump) becomes the event: its task, session,
 * depth and duration, symbol; then the task reads on.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "uftrace-int.h"
#include "uftrace-walk.h"

static const char *uft_event_name(const struct uftrace *uf, uint64_t id,
				  char *buf, size_t len)
{
	static const char *const builtin[] = {
		NULL, "read:proc/statm", "read:page-fault", "diff:proc/statm",
		"diff:page-fault", "read:pmu-cycle", "diff:pmu-cycle",
		"read:pmu-cache", "diff:pmu-cache", "read:pmu-branch",
		"diff:pmu-branch", "watch:cpu", "watch:addr", "watch:var",
	};
	static const char *const perf[] = {
		NULL, "sched-in", "sched-out", "schedule", "task-new",
		"task-exit", "task-name", "sched-out (pre-empted)",
		"schedule (pre-empted)",
	};
	size_t i;

	if (id == UFT_EVENT_EXTERN)
		return "external-data";
	if (id >= UFT_EVENT_USER) {
		size_t lo = 0, hi = uf->nevnames;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (uf->evnames[mid].id < id)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < uf->nevnames && uf->evnames[lo].id == id)
			return uf->evnames[lo].name;
		snprintf(buf, len, "user_event:%" PRIu64, id);
	} else if (id >= UFT_EVENT_PERF) {
		i = (size_t)(id - UFT_EVENT_PERF);
		snprintf(buf, len, "linux:%s",
			 i < sizeof(perf) / sizeof(perf[0]) && perf[i] ? perf[i]
								       : "unknown");
	} else if (id >= UFT_EVENT_BUILTIN) {
		i = (size_t)(id - UFT_EVENT_BUILTIN);
		if (i < sizeof(builtin) / sizeof(builtin[0]) && builtin[i])
			return builtin[i];
		snprintf(buf, len, "builtin_event:%" PRIu64, id);
	} else {
		snprintf(buf, len, "kernel_event:%" PRIu64, id);
	}
	return buf;
}

/* All problems as one message: the first, then one per line. */
static int uft_report(struct source *src, struct uftrace *uf, struct diag *d)
{
	size_t i;

	uf->reported = true;
	if (!uf->nproblems) {
		diag_set(d, "%s: out of memory", src->name);
		return -ENOMEM;
	}
	diag_set(d, "%s", uf->problems[0]);
	for (i = 1; i < uf->nproblems; i++) {
		size_t before = d->len;

		diag_add(d, "\n  %s", uf->problems[i]);
		if (d->len >= sizeof(d->msg) - 1) {
			d->len = before;
			d->msg[before] = '\0';
			diag_add(d, "\n  (%zu more problems in %s)",
				 uf->nproblems - i, src->name);
			break;
		}
	}
	if (uf->nomem)
		diag_add(d, "\n  %s: out of memory: some problems were not noted",
			 src->name);
	return -EIO;
}

/* The lines `uftrace dump` prints between records (uftrace-dump.c). */
static int uft_next_text(struct source *src, struct event *ev,
			 struct uft_cur *c, struct diag *d)
{
	struct uftrace *uf = src->priv;
	int ret = uft_lone_next(uf);

	if (ret <= 0) {
		if (ret < 0)
			diag_set(d, "%s: out of memory", src->name);
		return ret;
	}
	c->is_text = true;
	memset(ev, 0, sizeof(*ev));
	ev->seq = uf->seq++;
	ev->type = &uf->types[UFT_TEXT];
	ev->src = src;
	ev->rec = c;
	return 1;
}

/*
 * Any record, into ev and c: uft_next() and uft_next_batch() send here
 * what their fast paths do not take. With a record on the heap, it fails
 * only for want of memory. A record a lone input leaves out
 * (uftrace-depth.c) is passed over; when its file ends there, it returns
 * 0 unless alone (the first event of the call).
 */
static __attribute__((noinline)) int uft_next_full(struct source *src,
						    struct event *ev,
						    struct uft_cur *c,
						    struct diag *d, bool alone)
{
	struct uftrace *uf = src->priv;
	const struct uft_session *sess;
	struct uft_task *t;
	struct uft_symtab *mod;
	struct uft_sym *sym;
	struct uft_rec r;
	int ret, show;
	unsigned fix;

again:
	show = 1;
	fix = UFT_FIX_NONE;
	if (!uf->nheap && uf->lone) {
		ret = uft_next_text(src, ev, c, d);
		if (ret)
			return ret;
	}
	if (!uf->nheap) {
		if (!uf->reported && (uf->nproblems || uf->nomem))
			return uft_report(src, uf, d);
		return 0;
	}
	t = uf->top;
	/*
	 * r in registers: c->rec is read back after calls that could
	 * (for all the compiler knows) change it
	 */
	r = t->rec;
	/* a perf event belongs to the task it names (uft_perf_advance) */
	c->task = t->perf || t->kern ? uft_task_of(uf, t->prec.tid) : t;
	c->kern = t->kern;
	if (t->kern && !c->task)
		c->task = t;	/* a task without TID.dat: no session */
	c->tid = t->kern ? t->prec.tid : c->task->tid;
	c->is_text = false;
	c->perf = t->perf;
	if (t->perf || t->kern)
		c->prec = t->prec;
	c->rec = r;
	sess = c->task != t || !t->kern ? uft_task_session(uf, c->task, r.ts)
					: NULL;
	if (t->kern) {
		/*
		 * under the task's user frames, as uftrace replays them; an
		 * exit's duration is its rettime less its calltime
		 */
		c->depth = (c->task != t ? c->task->depth : 0) + r.depth;
		c->duration = t->prec.kdur;
		c->ktid_len = (uint8_t)snprintf(c->ktid_text,
						sizeof(c->ktid_text), "%5d",
						(int)t->prec.tid);
	} else if (uft_track_fast(uf, t, sess, &r, c) < 0) {
		diag_set(d, "%s: out of memory", src->name);
		return -ENOMEM;
	}
	c->type = uft_type_names[r.type].name;
	c->typelen = uft_type_names[r.type].len;
	c->resolved = false;
	c->comm = sess ? sess->comm : NULL;
	c->symbol = c->buf;
	switch (c->kern && r.type != UFT_EVENT ? UFT_NTYPES : r.type) {
	case UFT_NTYPES:	/* a kernel function: kallsyms */
		c->kraw = r.addr;
		sym = uft_kernel_sym(uf, r.addr, &c->rec.addr);
		if (sym) {
			c->symbol = sym->name;
			c->symlen = sym->namelen;
			c->resolved = true;
		} else {
			c->symlen = (size_t)snprintf(c->buf, sizeof(c->buf),
						     "0x%" PRIx64, c->rec.addr);
		}
		break;
	case UFT_ENTRY:
	case UFT_EXIT:
		sym = uft_resolve_sess(uf, sess, r.ts, r.addr, &mod);
		if (sym) {
			c->symbol = sym->name;
			c->symlen = sym->namelen;
			c->resolved = true;
			if (r.type == UFT_ENTRY)
				fix = sym->fixup;
		} else {
			c->symlen = (size_t)snprintf(c->buf, sizeof(c->buf),
						     "0x%" PRIx64, r.addr);
		}
		break;
	case UFT_EVENT:
		c->symbol = c->kern ? uft_kernel_event_name(uf, r.addr, c->buf,
							    sizeof(c->buf))
				    : uft_event_name(uf, r.addr, c->buf,
						     sizeof(c->buf));
		c->symlen = strlen(c->symbol);
		c->resolved = true;
		break;
	default:
		c->symlen = (size_t)snprintf(c->buf, sizeof(c->buf),
					     "0x%" PRIx64, r.addr);
		break;
	}
	if (c->perf && r.addr == UFT_EVENT_PERF + UFT_PERF_COMM)
		c->comm = c->prec.comm;
	/* what dump does not show of a task's file, a lone input leaves out */
	if (uf->lone && !t->perf && !t->kern) {
		show = uft_dd_step(uf, &r, fix);
		if (show < 0) {
			diag_set(d, "%s: out of memory", src->name);
			return -ENOMEM;
		}
	}
	c->hidden = !show;

	ev->ts = r.ts;
	/* the dump prints the 0 of libmcount's LOST records */
	ev->raw_ts = r.type == UFT_LOST ? r.raw_ts : r.ts;
	ev->has_ts = true;
	ev->seq = uf->seq++;
	ev->cpu = t->cpu;
	ev->has_vcpu = t->has_vcpu;
	ev->vcpu = t->cpu;
	ev->pid = c->task->pid;
	ev->type = &uf->types[c->perf ? UFT_NTYPES + r.addr - UFT_EVENT_PERF
				      : r.type];
	ev->src = src;
	ev->rec = c;

	/* the payload stays with the event; the task reads on into c's */
	if (t->paylen) {
		unsigned char *pay = c->pay;
		size_t cap = c->paycap;

		c->pay = t->pay;
		c->paycap = t->paycap;
		t->pay = pay;
		t->paycap = cap;
	}
	c->paylen = t->paylen;
	c->arglen = t->arglen;
	c->av = t->pay_av;

	/* the task's next record takes its place */
	if (!uft_task_advance_fast(uf, t))
		uf->heap[0] = uf->heap[--uf->nheap];
	if (uf->nheap > 1)
		uft_sift_down(uf, 0);
	/* found now, not at the next call, where it would wait for heap[0] */
	uft_top_update(uf);
	/*
	 * a record dump does not show: only the inverted time banner; the
	 * lines of the next file come alone, not after events of a batch
	 */
	if (!show && !r.inverted) {
		if (!uf->nheap && !alone)
			return 0;
		goto again;
	}
	return 1;
}

/*
 * The commonest record the short way, with no call: an entry, or the exit
 * of the frame on top, of a task (not a perf or kernel file) in the
 * session it had last and in step with its stack (uft_track_fast), whose
 * symbol is in the cache (uft_resolve_sess), without payload. Its event
 * is the one uft_next_full() makes of it; anything else goes there.
 */
int uft_next(struct source *src, struct event *ev, struct diag *d)
{
	struct uftrace *uf = src->priv;
	struct uft_task *t = uf->top;
	struct uft_cur *c = &uf->cur;
	const struct uft_session *sess;
	const struct uft_symcache *sc;
	const struct uft_sym *sym;
	uint64_t ts, addr;
	size_t depth;
	unsigned type;

	if (__builtin_expect(!t, 0))
		return uft_next_full(src, ev, c, d, true);
	ts = t->rec.ts;
	addr = t->rec.addr;
	type = t->rec.type;
	sess = t->sess;
	depth = t->depth;
	sc = uft_symcache_of(uf, addr);
	if (__builtin_expect(t->perf | t->kern | t->resync | (type > UFT_EXIT) |
				     !sess | (t->paylen != 0) | uf->lone,
			     0) ||
	    ts < t->sess_from || ts >= t->sess_until ||
	    sess != t->stack_sess || sc->map != sess->map ||
	    sc->addr != addr || !sc->sym)
		return uft_next_full(src, ev, c, d, true);
	if (type == UFT_ENTRY) {
		if (__builtin_expect(depth >= t->stack_cap, 0))
			return uft_next_full(src, ev, c, d, true);
		t->stack[depth].addr = addr;
		t->stack[depth].ts = ts;
		t->depth = depth + 1;
		c->depth = depth;
		c->duration = 0;
	} else {
		const struct uft_frame *f;

		if (__builtin_expect(!depth || depth > t->stack_cap, 0))
			return uft_next_full(src, ev, c, d, true);
		f = &t->stack[depth - 1];
		if (__builtin_expect(f->addr != addr, 0))
			return uft_next_full(src, ev, c, d, true);
		/* addr has 48 bits: never UFT_NO_ADDR */
		c->duration = ts >= f->ts ? ts - f->ts : 0;
		c->depth = depth - 1;
		t->depth = depth - 1;
	}
	sym = sc->sym;
	c->task = t;
	c->is_text = false;
	c->perf = false;
	c->kern = false;
	c->tid = t->tid;
	c->rec = t->rec;
	c->type = uft_type_names[type].name;
	c->typelen = uft_type_names[type].len;
	c->resolved = true;
	c->comm = sess->comm;
	c->symbol = sym->name;
	c->symlen = sym->namelen;
	c->paylen = 0;
	c->arglen = t->arglen;
	c->av = t->pay_av;

	ev->ts = ts;
	ev->raw_ts = ts;
	ev->has_ts = true;
	ev->seq = uf->seq++;
	ev->cpu = t->cpu;
	ev->has_vcpu = t->has_vcpu;
	ev->vcpu = t->cpu;
	ev->pid = t->pid;
	ev->type = &uf->types[type];
	ev->src = src;
	ev->rec = c;

	/* the task's next record takes its place */
	if (!uft_task_advance_fast(uf, t)) {
		uf->heap[0] = uf->heap[--uf->nheap];
		if (uf->nheap > 1)
			uft_sift_down(uf, 0);
		uft_top_update(uf);
	} else if (uf->nheap > 1) {
		uft_sift_down(uf, 0);
		uft_top_update(uf);
	}
	return 1;
}

/*
 * source_ops.next_batch: up to max events, each with a struct uft_cur of
 * its own (uf->bcur), whole until the next call. A run of fast records
 * (uft_fast_run()) at a time; any other record the whole way
 * (uft_next_full()), which, with a record on the heap, fails only for
 * want of memory: after events, that waits for the next call. The lines
 * of a lone input's dump and the end come alone.
 */
int uft_next_batch(struct source *src, struct event *ev, size_t max,
		   struct diag *d)
{
	struct uftrace *uf = src->priv;
	struct uft_cur *cur = uf->bcur;
	size_t n = 0, k;
	int ret;

	if (__builtin_expect(uf->batch_nomem, 0)) {
		uf->batch_nomem = false;
		diag_set(d, "%s: out of memory", src->name);
		return -ENOMEM;
	}
	if (__builtin_expect(!cur, 0)) {
		cur = calloc(UFT_BATCH, sizeof(*cur));
		if (!cur) {
			diag_set(d, "%s: out of memory", src->name);
			return -ENOMEM;
		}
		uf->bcur = cur;
	}
	if (max > UFT_BATCH)
		max = UFT_BATCH;
	while (n < max) {
		if (!uf->top) {
			/* the end, its problems, a lone input's next lines */
			if (n)
				break;
			uf->bfast_mask &= ~UINT64_C(1);
			return uft_next_full(src, ev, cur, d, true);
		}
		k = uft_fast_run(src, uf, cur + n, ev + n, max - n);
		n += k;
		if (k)
			continue;
		/* cur[n] is not a fast record's now */
		uf->bfast_mask &= ~(UINT64_C(1) << n);
		ret = uft_next_full(src, ev + n, cur + n, d, !n);
		if (ret < 0) {
			if (!n)
				return ret;
			uf->batch_nomem = true;
			break;
		}
		if (!ret)	/* left out, and the file ended */
			break;
		n++;
	}
	return (int)n;
}
