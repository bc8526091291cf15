// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Chrome trace-event JSON, as Perfetto and chrome://tracing load it:
 *
 *   {"traceEvents":[
 *   {"name":"process_name","ph":"M","pid":1,...},
 *   {"name":"VMEXIT",...,"ph":"X","ts":1.234,"dur":0.5,"pid":1,"tid":1,...},
 *   ...
 *   ],"metadata":{...}}
 *
 * Streamed: one event in, at most a few JSON objects out; nothing is held
 * but one entry per vCPU, thread and exit reason.
 *
 *  - One process per domain: pid 1 the host, pid 2 the guest, named after
 *    their inputs, and one per VM an input names, and a program's own
 *    (QEMU's) per pid (chrome-prog.c); a process appears with
 *    its first thread (none is empty). One thread (track) per vCPU, task
 *    or CPU, numbered from 1 in order of appearance and named for what it
 *    is: "vCPU N (host tid T)", "guest vCPU N", "host CPU N", "task
 *    comm:tid", "guest task comm:tid".
 *  - An exit and the next entry on the same vCPU (kvmtrace VMEXIT and
 *    VMENTRY, kvm:kvm_exit and kvm:kvm_entry) make one complete slice
 *    ("ph":"X") named after the exit reason, with the reason's number,
 *    the guest RIP, its function and libtraceevent's text as args.
 *  - sched_switch, irq and softirq entries and exits: slices on their
 *    CPU's track (chrome-cpu.c).
 *  - uftrace function entries and exits are "B" and "E" on the task's
 *    thread. Repaired at the edges as merge.py does: an exit whose entry
 *    came before the trace becomes a slice from the trace's first time
 *    stamp; entries still open at the end are closed at its last.
 *  - Every other event is an instant ("ph":"i", thread scope) with its
 *    fields as args; kvmtrace data words that are 0 at the end are left
 *    out (a record without them reads them as 0).
 *  - ts is in µs with three decimals (exact to the ns) when the timeline
 *    is in ns, or TSC with -c MHZ; otherwise raw ticks, and the metadata
 *    says so.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chrome.h"
#include "diag.h"
#include "outbuf.h"
#include "render.h"

/* ------------------------------------------------------------ threads */

/* -------------------------------------------------------- event types */

/* ------------------------------------------------------------- events */

/*
 * The reason's index: its name (the type's for it, or "exit 0x…") and
 * its JSON {"name":…,"cat":"kvm" are made on first sight; reasons of
 * types that name none are kept apart (by number alone).
 */
static int chrome_reason(struct sink_chrome *c, const struct chrome_type *ct,
			 const struct event *ev, uint64_t reason, bool named,
			 uint32_t *out)
{
	struct sink_map *map = named ? &c->reason_map : &c->dreason_map;
	uint64_t key = named ? reason << 2 | (ev->type->has_id ? 0 : 2) |
				       ev->src->domain
			     : reason;
	uint32_t i = sink_map_find(map, key);
	struct chrome_reason *r;
	char name[128];
	size_t len;
	void *grown;

	if (i != SINK_MAP_EMPTY) {
		*out = i;
		return 0;
	}
	if (c->nreasons >= SINK_MAXKEYS) {
		/* beyond the cap: the reason's number as its name */
		*out = CHROME_NOREF;
		return 0;
	}
	grown = c->reasons;
	if (sink_reserve(&grown, &c->cap_reasons, c->nreasons, sizeof(*c->reasons)) < 0)
		return -ENOMEM;
	c->reasons = grown;
	r = &c->reasons[c->nreasons];
	if (named && sink_reason_name(c->sink.render, ev, &ct->st, reason, name,
				      sizeof(name)))
		len = strlen(name);
	else
		len = sink_reason_default(name, reason);
	r->name = malloc(len + 1 + SINK_JSON_BOUND(len) + 32);
	if (!r->name)
		return -ENOMEM;
	memcpy(r->name, name, len);
	r->name[len] = '\0';
	r->len = len;
	r->name_iid = 0;
	r->jname = r->name + len + 1;
	r->jlen = (size_t)(CHROME_LIT(r->jname, "{\"name\":") - r->jname);
	r->jlen += sink_json_str(r->jname + r->jlen, name, len);
	r->jlen = (size_t)(CHROME_LIT(r->jname + r->jlen, ",\"cat\":\"kvm\"") -
			   r->jname);
	i = (uint32_t)c->nreasons;
	if (sink_map_add(map, key, i) < 0) {
		free(r->name);
		return -ENOMEM;
	}
	c->nreasons++;
	*out = i;
	return 0;
}

/* The name of the reason of v's exit (buf: room for its number). */
static void chrome_reason_name(const struct sink_chrome *c,
			       struct tl_event *te, const struct sink_vcpu *v,
			       char *buf)
{
	const struct chrome_reason *r =
		v->ref != CHROME_NOREF ? &c->reasons[v->ref] : NULL;

	if (r) {
		te->name = r->name;
		te->namelen = r->len;
		te->name_kept = true;
		te->name_iid = (uint32_t *)&r->name_iid;
		te->jname = r->jname;
		te->jnamelen = r->jlen;
	} else {
		te->name = buf;
		te->namelen = sink_reason_default(buf, v->reason);
	}
}

/*
 * What the sink keeps of vCPU v's exit (v in pairs.v), made on first
 * sight; NULL: out of memory.
 */
static struct chrome_exitargs *chrome_xargs(struct sink_chrome *c,
					    const struct sink_vcpu *v)
{
	uint32_t idx = (uint32_t)(v - c->pairs.v);
	void *grown = c->xargs;

	if (sink_grow(&grown, &c->nxargs, idx, sizeof(*c->xargs)) < 0)
		return NULL;
	c->xargs = grown;
	return &c->xargs[idx];
}

/*
 * The Chrome thread of vCPU v (v in pairs.v; its xargs made): kept in
 * its xargs, a key's thread never changes (a hash lookup at each exit
 * and entry before).
 */
static int chrome_vcpu_tid(struct sink_chrome *c, const struct sink_vcpu *v,
			   const struct event *ev, const struct sink_type *st,
			   uint32_t *tid)
{
	struct chrome_exitargs *x = &c->xargs[v - c->pairs.v];

	if (__builtin_expect(x->tid != 0, 1)) {
		*tid = x->tid;
		return 0;
	}
	if (chrome_thread(c, v->key, ev, st, tid) < 0)
		return -ENOMEM;
	x->tid = *tid;
	return 0;
}

/* The args an exit's slice will carry: its RIP, function and text. */
static int chrome_exit_args(struct sink_chrome *c, const struct chrome_type *ct,
			    const struct event *ev, struct sink_vcpu *v)
{
	struct chrome_exitargs *x = &c->xargs[v - c->pairs.v];
	const char *sym = NULL;
	struct value val;
	size_t n = 0;

	v->has_rip = sink_exit_rip(&ct->st, ev, &v->rip) == 0;
	if (ct->sym != SINK_NOSLOT &&
	    ev->src->ops->field(ev->src, ev, ct->sym, &val) == 0 &&
	    val.kind == VALUE_STR) {
		sym = val.s;
		n = val.len;
	} else if (v->has_rip && c->sym_src) {
		sym = c->sym_src->ops->func_at(c->sym_src, v->rip);
		n = sym ? strlen(sym) : 0;
	}
	x->symlen = (uint16_t)(n < CHROME_SYMMAX ? n : CHROME_SYMMAX);
	if (x->symlen)
		memcpy(x->sym, sym, x->symlen);
	x->infolen = 0;
	if (ct->st.info != SINK_NOSLOT &&
	    ev->src->ops->field(ev->src, ev, ct->st.info, &val) == 0 &&
	    val.kind == VALUE_STR) {
		x->infolen = (uint16_t)(val.len < CHROME_INFOMAX ? val.len
								 : CHROME_INFOMAX);
		memcpy(x->info, val.s, x->infolen);
	}
	return 0;
}

/* reason, rip, symbol and info of v's exit. */
static size_t chrome_exit_argv(const struct sink_chrome *c,
			       struct tl_arg *a, const struct sink_vcpu *v,
			       size_t *jargs)
{
	uint32_t idx = (uint32_t)(v - c->pairs.v);
	const struct chrome_exitargs *x = idx < c->nxargs ? &c->xargs[idx]
							  : NULL;
	size_t n = 0;

	/* JSON's bound of each (the encoder's loop over them was 50
	 * instructions an exit) */
	*jargs = 2 * TL_ARGBOUND(TL_K("reason"));
	tl_arg_u64(&a[n++], TL_K("reason"), v->reason);
	if (v->has_rip)
		tl_arg_u64(&a[n++], TL_HEXK("rip"), v->rip);
	if (x && x->symlen) {
		tl_arg_str(&a[n++], TL_K("symbol"), x->sym, x->symlen);
		*jargs += TL_ARGBOUND(TL_K("symbol")) +
			  SINK_JSON_BOUND(x->symlen);
	}
	if (x && x->infolen) {
		tl_arg_str(&a[n++], TL_K("info"), x->info, x->infolen);
		*jargs += TL_ARGBOUND(TL_K("info")) +
			  SINK_JSON_BOUND(x->infolen);
	}
	return n;
}

/* The slice of an exit, or an instant at the exit (unpaired). */
static int chrome_exit_write(struct sink_chrome *c, const struct sink_vcpu *v,
			     uint32_t tid, uint64_t end, bool unpaired,
			     const struct tl_key *note)
{
	struct tl_arg a[5];
	char name[32];
	struct tl_event te;

	tl_event_init(&te, unpaired ? TL_INSTANT : TL_SLICE);
	te.pid = chrome_tid_pid(c, tid);
	te.tid = tid;
	te.ts = v->exit_ts;
	te.end = end;
	te.cat = "kvm";
	te.catlen = 3;
	te.args = a;
	chrome_reason_name(c, &te, v, name);
	te.nargs = chrome_exit_argv(c, a, v, &te.jargs);
	if (note) {
		tl_arg_note(&a[te.nargs], note);
		te.jargs += TL_ARGBOUND(note) +
			    SINK_JSON_BOUND(a[te.nargs].v.len);
		te.nargs++;
	}
	return chrome_emit(c, &te);
}

/* The slice of an exit: named after the exit reason, cat "kvm". */
static int chrome_exit_slice(struct sink_chrome *c, const struct sink_vcpu *v,
			     uint32_t tid, uint64_t end,
			     const struct tl_key *note)
{
	return chrome_exit_write(c, v, tid, end, false, note);
}

/* An exit whose entry never came: an instant at the exit. */
static int chrome_exit_unpaired(struct sink_chrome *c,
				const struct sink_vcpu *v, uint32_t tid)
{
	return chrome_exit_write(c, v, tid, v->exit_ts, true,
				 TL_NOTE("unpaired",
					 "another exit came before its entry"));
}

static int chrome_exit(struct sink_chrome *c, struct chrome_type *ct,
		       const struct event *ev, struct diag *d)
{
	struct sink_vcpu *v = sink_pairs_find(&c->pairs, &ct->st, ev, false);
	uint64_t reason = 0, key;
	uint32_t ref, tid;

	if (!v)
		return chrome_nomem(d);
	if (v->over) {
		/* a vCPU beyond the cap: an instant, never paired */
		if (chrome_thread_key(c, &ct->st, ev, SINK_EXIT, &key) < 0)
			return chrome_nomem(d);
		return chrome_instant(c, ct, ev, key, NULL, d);
	}
	if (sink_field_at(ev, ct->st.reason, ct->st.at_reason, &reason) < 0)
		reason = 0;
	/* the vCPU's thread exists from its first exit on */
	if (!chrome_xargs(c, v) ||
	    chrome_vcpu_tid(c, v, ev, &ct->st, &tid) < 0)
		return chrome_nomem(d);
	if (v->pending) {
		c->exits_unpaired++;
		if (chrome_exit_unpaired(c, v, tid) < 0)
			return chrome_nomem(d);
	}
	/* v stays valid: no vCPU was added since sink_pairs_find() */
	if (ct->named < 0)
		ct->named = sink_reason_named(c->sink.render, ev, &ct->st);
	if (chrome_reason(c, ct, ev, reason, ct->named, &ref) < 0)
		return chrome_nomem(d);
	v->pending = true;
	v->exit_ts = ev->ts;
	v->reason = reason;
	v->ref = ref;
	return chrome_exit_args(c, ct, ev, v) < 0 ? chrome_nomem(d) : 0;
}

static int chrome_entry(struct sink_chrome *c, const struct chrome_type *ct,
			const struct event *ev, struct diag *d)
{
	struct sink_vcpu *v = sink_pairs_find(&c->pairs, &ct->st, ev, true);
	uint32_t tid;

	if (!v)
		return chrome_nomem(d);
	if (!v->pending) {
		if (chrome_event_tid(c, &ct->st, ev, SINK_ENTRY, &tid) < 0)
			return chrome_nomem(d);
		return chrome_instant_tid(c, ct, ev, tid, NULL, d);
	}
	v->pending = false;
	c->exits_paired++;
	/* pending: its exit made its xargs */
	if (chrome_vcpu_tid(c, v, ev, &ct->st, &tid) < 0 ||
	    chrome_exit_slice(c, v, tid, ev->ts, NULL) < 0)
		return chrome_nomem(d);
	return 0;
}

static int chrome_call(struct sink_chrome *c, const struct chrome_type *ct,
		       const struct event *ev, struct diag *d)
{
	int dir = sink_call_dir(&ct->st, ev);
	uint64_t key;
	struct chrome_thread *th;
	struct tl_event te;
	struct tl_arg arg;
	struct value sym;
	uint32_t tid;

	tl_event_init(&te, TL_END);
	if (chrome_thread_key(c, &ct->st, ev, SINK_CALL, &key) < 0)
		return chrome_nomem(d);
	if (ev->src->ops->field(ev->src, ev, ct->st.symbol, &sym) < 0 ||
	    sym.kind != VALUE_STR || !sym.len) {
		sym.kind = VALUE_STR;
		sym.s = "?";
		sym.len = 1;
	}
	/*
	 * uftrace's perf events: from a sched-out to the next sched-in the
	 * task is off the CPU, a "linux:schedule" slice as uftrace dump
	 * --chrome shows it
	 */
	if (dir == 2 && sym.len >= 14 && !memcmp(sym.s, "linux:sched-", 12)) {
		bool out = sym.len >= 15 && !memcmp(sym.s + 12, "out", 3);

		if (chrome_thread(c, key, ev, &ct->st, &tid) < 0)
			return chrome_nomem(d);
		th = &c->threads[tid - 1];
		if (out && !th->sched) {
			th->sched = true;
			dir = 1;
			sym.s = "linux:schedule";
			sym.len = 14;
		} else if (!out && th->sched && th->open) {
			th->sched = false;
			dir = -1;
		}
	}
	/* an event record: an instant named after the event; lost: "lost" */
	if (dir != 1 && dir != -1)
		return chrome_instant(c, ct, ev, key, dir == 2 ? &sym : NULL, d);
	if (chrome_thread(c, key, ev, &ct->st, &tid) < 0)
		return chrome_nomem(d);
	th = &c->threads[tid - 1];
	te.pid = chrome_tid_pid(c, tid);
	te.tid = tid;
	te.ts = ev->ts;
	if (dir < 0 && th->open) {
		th->open--;
		te.ph = TL_END;
		return chrome_emit(c, &te) < 0 ? chrome_nomem(d) : 0;
	}
	te.name = sym.s;
	te.namelen = sym.len;
	te.cat = ct->rawcat;
	te.catlen = ct->rawcatlen;
	if (dir > 0) {
		th->open++;
		te.ph = TL_BEGIN;
	} else {
		/* its entry came before the trace: from the first stamp */
		c->calls_no_entry++;
		te.ph = TL_SLICE;
		te.outer = true;
		te.ts = c->first_ts;
		te.end = ev->ts;
		tl_arg_str(&arg, TL_K("repaired"),
			   TL_KEY("entry before the trace start"));
		te.args = &arg;
		te.nargs = 1;
	}
	return chrome_emit(c, &te) < 0 ? chrome_nomem(d) : 0;
}

static int chrome_event(struct sink_chrome *c, const struct event *ev,
			struct diag *d);

/*
 * Chrome's viewer stops near 256 MiB of JSON: said once, when the output
 * passes it (the run goes on).
 */
static int sink_chrome_event(struct sink *s, const struct event *ev,
			     struct diag *d)
{
	struct sink_chrome *c = container_of(s, struct sink_chrome, sink);
	int ret = chrome_event(c, ev, d);

	if (__builtin_expect(c->enc->bytes > CHROME_BIG, 0) && !c->big_said &&
	    !c->perfetto) {
		c->big_said = true;
		if (s->warn)
			s->warn(s->warn_arg, "--chrome: the JSON is past 256 MiB, near where Chrome's trace viewer stops loading; --perfetto -o FILE holds the same timeline in Perfetto's protobuf, in less than half the bytes");
	}
	return ret;
}

static int chrome_event(struct sink_chrome *c, const struct event *ev,
			struct diag *d)
{
	struct chrome_type *ct = chrome_type(c, ev, d);
	enum sink_role role;
	uint64_t key;
	uint32_t tid;

	if (!ct)
		return -ENOMEM;
	if (!c->any) {
		c->any = true;
		c->first_ts = c->last_ts = ev->ts;
	} else if (ev->ts > c->last_ts) {
		c->last_ts = ev->ts;
	} else if (ev->ts < c->first_ts) {
		c->first_ts = ev->ts;
	}
	if (ct->cpu_role)
		return chrome_cpu_event(c, ct, ev, d);
	/* a program's event: an instant on its process's track */
	if (ct->prog) {
		if (chrome_prog_key(c, ev, &key) < 0)
			return chrome_nomem(d);
		return chrome_instant(c, ct, ev, key, NULL, d);
	}
	role = sink_role(&ct->st, ev);
	switch (role) {
	case SINK_EXIT:
		return chrome_exit(c, ct, ev, d);
	case SINK_ENTRY:
		return chrome_entry(c, ct, ev, d);
	case SINK_CALL:
		return chrome_call(c, ct, ev, d);
	case SINK_EVENT:
		break;
	}
	if (chrome_event_tid(c, &ct->st, ev, role, &tid) < 0)
		return chrome_nomem(d);
	return chrome_instant_tid(c, ct, ev, tid, NULL, d);
}

/* --------------------------------------------------------- begin, end */

static int sink_chrome_begin(struct sink *s, struct source **srcs, size_t n,
			     struct diag *d)
{
	struct sink_chrome *c = container_of(s, struct sink_chrome, sink);

	c->srcs = srcs;
	c->nsrcs = n;
	c->csrcs = calloc(n ? n : 1, sizeof(*c->csrcs));
	if (!c->csrcs)
		return chrome_nomem(d);
	sink_time_init(&c->time, s->render ? s->render->timeline : CLOCK_TSC,
		       c->mhz);
	/*
	 * Chrome's time stamps are µs: raw ticks would draw a 1 s trace as
	 * 40 minutes. A trace.dat that records the TSC's rate (TSC2NSEC) is
	 * on a nanosecond timeline already; nothing else records it.
	 */
	if (c->time.timeline == CLOCK_TSC && !c->time.ns) {
		diag_set(d, "%s: the timeline is the TSC and no input records its frequency; pass -c MHZ (the TSC rate, e.g. -c 2400) or --tsc-mhz MHZ",
			 c->perfetto ? "--perfetto" : "--chrome");
		return -EINVAL;
	}
	/* exits' functions without symbols of their own: a guest input's */
	for (size_t i = 0; !c->sym_src && i < n; i++)
		if (srcs[i]->domain == DOMAIN_GUEST && srcs[i]->ops->func_at)
			c->sym_src = srcs[i];
	if (c->enc->ops->begin(c->enc) < 0)
		return chrome_nomem(d);
	return 0;
}

/* Close what is open at the last time stamp. */
static int chrome_close_all(struct sink_chrome *c)
{
	size_t i;
	uint32_t j;

	for (i = 0; i < c->pairs.n; i++) {
		struct sink_vcpu *v = &c->pairs.v[i];
		uint32_t t = sink_map_find(&c->thread_map, v->key);
		const struct tl_key *note =
			TL_NOTE("repaired", "no entry before the trace end");

		if (!v->pending || t == SINK_MAP_EMPTY)
			continue;
		v->pending = false;
		c->exits_open++;
		if (chrome_exit_slice(c, v, t + 1, c->last_ts, note) < 0)
			return -ENOMEM;
	}
	for (i = 0; i < c->nthreads; i++) {
		for (j = 0; j < c->threads[i].open; j++) {
			struct tl_arg arg;
			struct tl_event te = {
				.ph = TL_END,
				.pid = c->threads[i].pid,
				.tid = (uint32_t)i + 1,
				.ts = c->last_ts,
				.args = &arg,
				.nargs = 1,
			};

			tl_arg_str(&arg, TL_K("repaired"),
				   TL_KEY("exit after the trace end"));
			if (chrome_emit(c, &te) < 0)
				return -ENOMEM;
		}
		c->calls_no_exit += c->threads[i].open;
		c->threads[i].open = 0;
	}
	return 0;
}

static int sink_chrome_end(struct sink *s, struct diag *d)
{
	struct sink_chrome *c = container_of(s, struct sink_chrome, sink);

	if (c->ended)
		return 0;
	c->ended = true;
	if (chrome_close_all(c) < 0 || chrome_cpu_close(c) < 0 ||
	    chrome_counters(c) < 0 || (!c->perfetto && chrome_footer(c) < 0))
		return chrome_nomem(d);
	/* as --stats and --exits say it (exits_warn_unpaired()) */
	if (!c->exits_paired && c->exits_unpaired + c->exits_open && s->warn) {
		/* one text for --chrome and --perfetto: one timeline */
		diag_set(d, "warning: ");
		sink_unpaired_add(d, c->exits_unpaired + c->exits_open,
				  "slice of the timeline ");
		diag_add(d, "each is a mark at its exit (the last of a vCPU runs to the trace's end); record the entries beside the exits and keep them (--events)");
		s->warn(s->warn_arg, d->msg);
		diag_init(d);
	}
	return 0;
}

static void sink_chrome_destroy(struct sink *s)
{
	struct sink_chrome *c;
	size_t i;
	uint32_t j;

	if (!s)
		return;
	c = container_of(s, struct sink_chrome, sink);
	for (i = 0; c->csrcs && i < c->nsrcs; i++) {
		for (j = 0; j < c->csrcs[i].n; j++)
			chrome_type_fini(&c->csrcs[i].types[j]);
		free(c->csrcs[i].types);
	}
	free(c->csrcs);
	sink_map_fini(&c->thread_map);
	free(c->threads);
	sink_pairs_fini(&c->pairs);
	sink_map_fini(&c->vm_pids);
	sink_map_fini(&c->reason_map);
	sink_map_fini(&c->dreason_map);
	chrome_cpu_fini(c);
	chrome_prog_fini(c);
	free(c->xargs);
	for (i = 0; i < c->nreasons; i++)
		free(c->reasons[i].name);
	free(c->reasons);
	tl_enc_destroy(c->enc);
	free(c);
}

static const struct sink_ops sink_chrome_ops = {
	.name = "chrome",
	.begin = sink_chrome_begin,
	.event = sink_chrome_event,
	.end = sink_chrome_end,
	.destroy = sink_chrome_destroy,
};

struct sink *sink_chrome_create(struct outbuf *out, struct render *render,
				double mhz, bool perfetto)
{
	struct sink_chrome *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->perfetto = perfetto;
	c->enc = perfetto ? tl_pf_create(out, &c->time)
			  : tl_json_create(out, &c->time);
	if (!c->enc) {
		free(c);
		return NULL;
	}
	c->sink.ops = &sink_chrome_ops;
	c->sink.out = out;
	c->sink.render = render;
	c->mhz = mhz;
	return &c->sink;
}
