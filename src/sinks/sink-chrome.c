// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Chrome trace-event JSON, as Perfetto and chrome://tracing load it:
 *
 *   {"traceEvents":[
 *   {"name":"process_name","ph":"M","pid":1,...},
 *   {"name":"VMEXIT",...,"ph":"X","ts":1.234,"dur":0.5,"pid":1,"tid":1,...},
 *   ...
 *   ],"displayTimeUnit":"ns","metadata":{...}}
 *
 * Streamed: one event in, at most a few JSON objects out; nothing is held
 * but one entry per vCPU, thread and exit reason.
 *
 *  - One process per domain: pid 1 the host, pid 2 the guest, named after
 *    their inputs. One thread per vCPU, task or CPU, numbered from 1 in
 *    order of appearance and named by "thread_name" metadata events.
 *  - An exit and the next entry on the same vCPU (kvmtrace VMEXIT and
 *    VMENTRY, kvm:kvm_exit and kvm:kvm_entry) make one complete slice
 *    ("ph":"X") named after the exit reason.
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

#include "clock.h"
#include "diag.h"
#include "outbuf.h"
#include "pyfmt.h"
#include "render.h"
#include "sink-util.h"
#include "sink.h"

#define CHROME_MAXFIELDS	256
#define CHROME_IDCACHE		256
#define CHROME_HEADMAX		120
#define CHROME_LABELMAX		200	/* bytes of a name kept in a head */
/* bytes an event takes besides its head, strings and args */
#define CHROME_SLACK		256
#define CHROME_NOREF		UINT32_MAX	/* a reason without a name */

struct chrome_field {
	int32_t slot;
	char *key;		/* owned: ,"name": (the first without ,) */
	size_t keylen;
	bool word;		/* a kvmtrace data word: left out if 0 at the end */
};

/* What the sink knows about one event type of one source. */
struct chrome_type {
	bool init;
	struct sink_type st;
	char *head;		/* owned: {"name":…,"cat":…,"ph":"i","s":"t","ts": */
	size_t headlen;
	char *cat;		/* owned: "cat":"…" */
	size_t catlen;
	struct chrome_field *fields;	/* owned */
	size_t nfields;
	bool add_pid;		/* no field holds the pid: add "pid" */
	bool add_cpu;		/* the fields held common_cpu: add "cpu" */
	int8_t named;		/* exits: reasons have names (-1: not known) */
};

struct chrome_src {
	struct chrome_type *types;	/* owned, by event_type.index */
	uint32_t n;
};

/* The head of instants of one kvmtrace id (the name depends on the id). */
struct chrome_idhead {
	uint64_t id;
	uint32_t src;
	bool valid;
	uint8_t len;
	char head[CHROME_HEADMAX];
};

struct chrome_thread {
	uint64_t key;		/* sink_thread_key() */
	uint32_t open;		/* function entries still open (B without E) */
};

struct chrome_reason {
	char *name;		/* owned: the JSON string, quoted; NULL: none */
	size_t len;
};

struct sink_chrome {
	struct sink sink;
	double mhz;
	struct sink_time time;
	struct source **srcs;		/* borrowed (begin) */
	size_t nsrcs;
	struct chrome_src *csrcs;	/* owned, by source.index */
	struct chrome_idhead idheads[CHROME_IDCACHE];
	struct sink_map thread_map;	/* key -> index into threads */
	struct chrome_thread *threads;	/* owned */
	size_t nthreads;
	size_t cap_threads;
	struct sink_pairs pairs;
	struct sink_map reason_map;	/* (domain, kind, reason) -> index */
	struct chrome_reason *reasons;	/* owned */
	size_t nreasons;
	size_t cap_reasons;
	bool any;			/* an event was seen */
	uint64_t first_ts, last_ts;
	uint64_t events;
	uint64_t exits_unpaired;	/* another exit came first */
	uint64_t exits_open;		/* no entry before the end */
	uint64_t calls_no_entry;	/* exits whose entry came before */
	uint64_t calls_no_exit;		/* entries open at the end */
	bool ended;
};

/* ------------------------------------------------------------ writing */

static char *chrome_reserve(struct sink_chrome *c, size_t n)
{
	return outbuf_reserve(c->sink.out, n);
}

static void chrome_commit(struct sink_chrome *c, const char *start,
			  const char *end)
{
	outbuf_commit(c->sink.out, (size_t)(end - start));
}

static inline char *chrome_lit(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

#define CHROME_LIT(p, s) chrome_lit(p, s, sizeof(s) - 1)

static inline char *chrome_dec(char *p, uint64_t v)
{
	return p + pyfmt_u64_dec(p, v);
}

/* A time stamp: µs with three decimals, or ticks. */
static inline char *chrome_ts(const struct sink_chrome *c, char *p,
			      uint64_t ts)
{
	if (c->time.ns)
		return p + sink_put_us(p, sink_time_ns(&c->time, ts));
	return chrome_dec(p, ts);
}

/* "ts":from,"dur":to-from, both ends rounded alike so that slices nest. */
static char *chrome_span(const struct sink_chrome *c, char *p, uint64_t from,
			 uint64_t to)
{
	uint64_t a = from, b = to;

	if (c->time.ns) {
		a = sink_time_ns(&c->time, from);
		b = sink_time_ns(&c->time, to);
	}
	if (b < a)
		b = a;
	p = CHROME_LIT(p, "\"ts\":");
	p = c->time.ns ? p + sink_put_us(p, a) : chrome_dec(p, a);
	p = CHROME_LIT(p, ",\"dur\":");
	return c->time.ns ? p + sink_put_us(p, b - a) : chrome_dec(p, b - a);
}

static char *chrome_pid_tid(char *p, enum domain dom, uint32_t tid)
{
	p = CHROME_LIT(p, ",\"pid\":");
	p = chrome_dec(p, (uint64_t)dom + 1);
	p = CHROME_LIT(p, ",\"tid\":");
	return chrome_dec(p, tid);
}

/* Separate this object from the one before. */
static inline char *chrome_sep(struct sink_chrome *c, char *p)
{
	if (c->events++)
		*p++ = ',';
	*p++ = '\n';
	return p;
}

static int chrome_nomem(struct diag *d)
{
	diag_set(d, "out of memory");
	return -ENOMEM;
}

/* A metadata event: {"name":what,"ph":"M","pid":P,"tid":T,"args":{…}}. */
static int chrome_meta(struct sink_chrome *c, const char *what,
		       enum domain dom, uint32_t tid, const char *key,
		       const char *s, size_t slen, int64_t num)
{
	size_t n = strlen(what) + strlen(key) + SINK_JSON_BOUND(slen) +
		   CHROME_SLACK;
	char *p = chrome_reserve(c, n), *start = p;

	if (!p)
		return -ENOMEM;
	p = chrome_sep(c, p);
	p = CHROME_LIT(p, "{\"name\":\"");
	p = chrome_lit(p, what, strlen(what));
	p = CHROME_LIT(p, "\",\"ph\":\"M\"");
	p = chrome_pid_tid(p, dom, tid);
	p = CHROME_LIT(p, ",\"args\":{\"");
	p = chrome_lit(p, key, strlen(key));
	p = CHROME_LIT(p, "\":");
	if (s) {
		p += sink_json_str(p, s, slen);
	} else {
		if (num < 0)
			*p++ = '-';
		p = chrome_dec(p, num < 0 ? -(uint64_t)num : (uint64_t)num);
	}
	p = CHROME_LIT(p, "}}");
	chrome_commit(c, start, p);
	return 0;
}

/* ------------------------------------------------------------ threads */

/* The Chrome tid of thread key (from 1), announced on first sight. */
static int chrome_thread(struct sink_chrome *c, uint64_t key,
			 const struct event *ev, const struct sink_type *st,
			 uint32_t *tid)
{
	void *grown;
	uint32_t i = sink_map_find(&c->thread_map, key);
	uint64_t num = sink_key_number(key);
	enum domain dom = sink_key_domain(key);
	char name[96];
	const char *nm = name;
	size_t nlen;
	struct value v;
	int64_t order;

	if (i != SINK_MAP_EMPTY) {
		*tid = i + 1;
		return 0;
	}
	grown = c->threads;
	if (sink_reserve(&grown, &c->cap_threads, c->nthreads, sizeof(*c->threads)) < 0)
		return -ENOMEM;
	c->threads = grown;
	i = (uint32_t)c->nthreads;
	if (sink_map_add(&c->thread_map, key, i) < 0)
		return -ENOMEM;
	c->threads[i].key = key;
	c->threads[i].open = 0;
	c->nthreads++;
	*tid = i + 1;

	switch (sink_key_kind(key)) {
	/* vCPUs first, then CPUs, then tasks; within int32 */
	case SINK_VCPU:
		nlen = (size_t)snprintf(name, sizeof(name), "vCPU %" PRIu64, num);
		order = num < 99999 ? (int64_t)num : 99999;
		break;
	case SINK_CPU:
		nlen = (size_t)snprintf(name, sizeof(name), "CPU %" PRIu64, num);
		order = 100000 + (num < 99999 ? (int64_t)num : 99999);
		break;
	default:
		order = 200000 + (num < (1u << 30) ? (int64_t)num : (1 << 30));
		if (st->comm != SINK_NOSLOT && (uint64_t)ev->pid == num &&
		    ev->src->ops->field(ev->src, ev, st->comm, &v) == 0 &&
		    v.kind == VALUE_STR && v.len) {
			nlen = (size_t)snprintf(name, sizeof(name), "%.*s %" PRIu64,
						(int)(v.len > 64 ? 64 : v.len),
						v.s, num);
		} else {
			nlen = (size_t)snprintf(name, sizeof(name), "task %" PRIu64,
						num);
		}
		break;
	}
	if (nlen >= sizeof(name))
		nlen = sizeof(name) - 1;
	if (chrome_meta(c, "thread_name", dom, *tid, "name", nm, nlen, 0) < 0 ||
	    chrome_meta(c, "thread_sort_index", dom, *tid, "sort_index", NULL,
			0, order) < 0)
		return -ENOMEM;
	return 0;
}

/* The thread an event belongs on. */
static uint64_t chrome_thread_key(const struct sink_type *st,
				  const struct event *ev, enum sink_role role)
{
	enum domain dom = ev->src->domain;
	uint64_t tid;

	if (role == SINK_CALL) {
		if (sink_field_u64(ev, st->tid, &tid) < 0)
			tid = (uint64_t)ev->pid;
		return sink_thread_key(dom, SINK_TASK, tid);
	}
	if (ev->has_vcpu)
		return sink_thread_key(dom, SINK_VCPU, ev->vcpu);
	if (ev->pid > 0)
		return sink_thread_key(dom, SINK_TASK, (uint64_t)ev->pid);
	return sink_thread_key(dom, SINK_CPU, ev->cpu);
}

/* -------------------------------------------------------- event types */

static void chrome_type_fini(struct chrome_type *ct)
{
	size_t i;

	for (i = 0; i < ct->nfields; i++)
		free(ct->fields[i].key);
	free(ct->fields);
	free(ct->head);
	free(ct->cat);
}

/*
 * Fields that are not args: what the event's name, category, process and
 * thread say already, and libtraceevent's text (a print per event).
 */
static bool chrome_skip_field(const char *name)
{
	static const char *const skip[] = { "info", "id", "system", "name",
					    "comm" };
	size_t i;

	if (!strncmp(name, "common_", 7))
		return true;
	for (i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strcmp(name, skip[i]))
			return true;
	return false;
}

static bool chrome_is_word(const char *name)
{
	return name[0] >= '1' && name[0] <= '9' && !name[1];
}

/* {"name":NAME,"cat":"…","ph":"i","s":"t","ts": into buf; its length. */
static size_t chrome_make_head(const struct chrome_type *ct, char *buf,
			       const char *name, size_t len)
{
	char *p = buf;

	p = CHROME_LIT(p, "{\"name\":");
	p += sink_json_str(p, name, len);
	*p++ = ',';
	p = chrome_lit(p, ct->cat, ct->catlen);
	p = CHROME_LIT(p, ",\"ph\":\"i\",\"s\":\"t\",\"ts\":");
	return (size_t)(p - buf);
}

static int chrome_type_init(struct sink_chrome *c, struct chrome_type *ct,
			    const struct event *ev)
{
	const struct event_type *t = ev->type;
	struct source *src = ev->src;
	const char *names[CHROME_MAXFIELDS];
	const char *cat = t->system ? t->system : src->ops->kind;
	const char *name;
	char idname[24];
	size_t i, n = 0, k;

	sink_type_init(&ct->st, src, t);
	ct->named = -1;
	ct->cat = malloc(SINK_JSON_BOUND(strlen(cat)) + 8);
	if (!ct->cat)
		return -ENOMEM;
	ct->catlen = (size_t)(CHROME_LIT(ct->cat, "\"cat\":") - ct->cat);
	ct->catlen += sink_json_str(ct->cat + ct->catlen, cat, strlen(cat));
	if (!t->has_id) {
		name = sink_event_name(c->sink.render, ev);
		if (!name) {
			snprintf(idname, sizeof(idname), "0x%08" PRIx64, t->id);
			name = idname;
		}
		ct->head = malloc(SINK_JSON_BOUND(strlen(name)) + ct->catlen +
				  64);
		if (!ct->head)
			return -ENOMEM;
		ct->headlen = chrome_make_head(ct, ct->head, name, strlen(name));
	}
	if (src->ops->fields)
		n = src->ops->fields(src, t, names, CHROME_MAXFIELDS);
	if (n > CHROME_MAXFIELDS)
		n = CHROME_MAXFIELDS;
	ct->fields = calloc(n ? n : 1, sizeof(*ct->fields));
	if (!ct->fields)
		return -ENOMEM;
	ct->add_pid = true;
	for (i = 0; i < n; i++) {
		struct chrome_field *f = &ct->fields[ct->nfields];
		int idx;

		if (!strcmp(names[i], "common_cpu"))
			ct->add_cpu = true;
		if (chrome_skip_field(names[i]))
			continue;
		idx = src->ops->bind(src, t, names[i]);
		if (idx < 0)
			continue;
		if (!strcmp(names[i], "pid"))
			ct->add_pid = false;
		f->slot = idx;
		f->word = t->has_id && chrome_is_word(names[i]);
		f->key = malloc(SINK_JSON_BOUND(strlen(names[i])) + 2);
		if (!f->key)
			return -ENOMEM;
		k = 0;
		if (ct->nfields)
			f->key[k++] = ',';
		k += sink_json_str(f->key + k, names[i], strlen(names[i]));
		f->key[k++] = ':';
		f->keylen = k;
		ct->nfields++;
	}
	ct->init = true;
	return 0;
}

static struct chrome_type *chrome_type(struct sink_chrome *c,
				       const struct event *ev, struct diag *d)
{
	struct chrome_src *cs = &c->csrcs[ev->src->index];
	uint32_t ti = ev->type->index;
	struct chrome_type *ct;
	void *grown;

	grown = cs->types;
	if (sink_grow(&grown, &cs->n, ti, sizeof(*cs->types)) < 0)
		goto nomem;
	cs->types = grown;
	ct = &cs->types[ti];
	if (!ct->init && chrome_type_init(c, ct, ev) < 0)
		goto nomem;
	return ct;
nomem:
	chrome_nomem(d);
	return NULL;
}

/* The head of an instant of ev: per type, or per id (kvmtrace). */
static const char *chrome_head(struct sink_chrome *c,
			       const struct chrome_type *ct,
			       const struct event *ev, size_t *len,
			       char *scratch)
{
	uint64_t id = ev->type->id;
	struct chrome_idhead *h;
	const char *name;
	char idname[24];
	size_t nlen;

	if (!ev->type->has_id) {
		*len = ct->headlen;
		return ct->head;
	}
	h = &c->idheads[(id ^ (id >> 7)) & (CHROME_IDCACHE - 1)];
	if (h->valid && h->id == id && h->src == ev->src->index) {
		*len = h->len;
		return h->head;
	}
	name = sink_event_name(c->sink.render, ev);
	if (!name) {
		snprintf(idname, sizeof(idname), "0x%08" PRIx64, id);
		name = idname;
	}
	nlen = strlen(name);
	if (SINK_JSON_BOUND(nlen) + ct->catlen + 48 > CHROME_HEADMAX) {
		/* a long label: not cached, and cut to what scratch holds */
		if (nlen > CHROME_LABELMAX)
			nlen = CHROME_LABELMAX;
		*len = chrome_make_head(ct, scratch, name, nlen);
		return scratch;
	}
	h->len = (uint8_t)chrome_make_head(ct, h->head, name, nlen);
	h->id = id;
	h->src = ev->src->index;
	h->valid = true;
	*len = h->len;
	return h->head;
}

/* ------------------------------------------------------------- events */

static char *chrome_value(char *p, const struct value *v)
{
	switch (v->kind) {
	case VALUE_INT:
		if (v->neg && v->u)
			*p++ = '-';
		return chrome_dec(p, v->u);
	case VALUE_FLOAT:
		if (v->f != v->f || v->f - v->f != 0)	/* nan, inf */
			return CHROME_LIT(p, "null");
		return p + snprintf(p, 32, "%.17g", v->f);
	case VALUE_STR:
		return p + sink_json_str(p, v->s, v->len);
	case VALUE_NONE:
		break;
	}
	return CHROME_LIT(p, "null");
}

/* An instant of ev on thread key, named after its type or after name. */
static int chrome_instant(struct sink_chrome *c, const struct chrome_type *ct,
			  const struct event *ev, uint64_t key,
			  const struct value *name, struct diag *d)
{
	struct value vals[CHROME_MAXFIELDS];
	char scratch[SINK_JSON_BOUND(CHROME_LABELMAX) + CHROME_HEADMAX];
	const char *head;
	size_t headlen, i, n = ct->nfields, need;
	uint32_t tid;
	char *p, *start;

	if (chrome_thread(c, key, ev, &ct->st, &tid) < 0)
		return chrome_nomem(d);
	if (name) {
		headlen = chrome_make_head(ct, scratch, name->s,
					   name->len < CHROME_LABELMAX ? name->len
								       : CHROME_LABELMAX);
		head = scratch;
	} else {
		head = chrome_head(c, ct, ev, &headlen, scratch);
	}
	need = headlen + CHROME_SLACK;
	for (i = 0; i < n; i++) {
		const struct chrome_field *f = &ct->fields[i];

		if (ev->src->ops->field(ev->src, ev, f->slot, &vals[i]) < 0)
			vals[i].kind = VALUE_NONE;
		need += f->keylen + 48;
		if (vals[i].kind == VALUE_STR)
			need += SINK_JSON_BOUND(vals[i].len);
	}
	/* kvmtrace: data words that are 0 at the end are not written */
	while (n && ct->fields[n - 1].word && vals[n - 1].kind == VALUE_INT &&
	       vals[n - 1].u == 0)
		n--;
	p = start = chrome_reserve(c, need);
	if (!p)
		return chrome_nomem(d);
	p = chrome_sep(c, p);
	p = chrome_lit(p, head, headlen);
	p = chrome_ts(c, p, ev->ts);
	p = chrome_pid_tid(p, ev->src->domain, tid);
	p = CHROME_LIT(p, ",\"args\":{");
	for (i = 0; i < n; i++) {
		p = chrome_lit(p, ct->fields[i].key, ct->fields[i].keylen);
		p = chrome_value(p, &vals[i]);
	}
	if (ct->add_pid) {
		if (n)
			*p++ = ',';
		p = CHROME_LIT(p, "\"pid\":");
		if (ev->pid < 0)
			*p++ = '-';
		p = chrome_dec(p, ev->pid < 0 ? -(uint64_t)ev->pid
					      : (uint64_t)ev->pid);
	}
	if (ct->add_cpu) {
		p = CHROME_LIT(p, ",\"cpu\":");
		p = chrome_dec(p, ev->cpu);
	}
	p = CHROME_LIT(p, "}}");
	chrome_commit(c, start, p);
	return 0;
}

/* The reason's index: its name is made on first sight. */
static int chrome_reason(struct sink_chrome *c, const struct chrome_type *ct,
			 const struct event *ev, uint64_t reason, uint32_t *out)
{
	uint64_t key = reason << 2 | (ev->type->has_id ? 0 : 2) |
		       ev->src->domain;
	uint32_t i = sink_map_find(&c->reason_map, key);
	struct chrome_reason *r;
	char name[128];
	void *grown;

	if (i != SINK_MAP_EMPTY) {
		*out = i;
		return 0;
	}
	grown = c->reasons;
	if (sink_reserve(&grown, &c->cap_reasons, c->nreasons, sizeof(*c->reasons)) < 0)
		return -ENOMEM;
	c->reasons = grown;
	r = &c->reasons[c->nreasons];
	r->name = NULL;
	r->len = 0;
	if (sink_reason_name(c->sink.render, ev, &ct->st, reason, name,
			     sizeof(name))) {
		r->name = malloc(SINK_JSON_BOUND(strlen(name)));
		if (!r->name)
			return -ENOMEM;
		r->len = sink_json_str(r->name, name, strlen(name));
	}
	i = (uint32_t)c->nreasons;
	if (sink_map_add(&c->reason_map, key, i) < 0) {
		free(r->name);
		return -ENOMEM;
	}
	c->nreasons++;
	*out = i;
	return 0;
}

/* The quoted name of the reason of v's exit. */
static char *chrome_reason_name(const struct sink_chrome *c, char *p,
				const struct sink_vcpu *v)
{
	const struct chrome_reason *r =
		v->ref != CHROME_NOREF ? &c->reasons[v->ref] : NULL;

	if (r && r->name)
		return chrome_lit(p, r->name, r->len);
	*p++ = '"';
	p += sink_reason_default(p, v->reason);
	*p++ = '"';
	return p;
}

/* The slice of an exit: {"name":REASON,"cat":"kvm","ph":"X",…}. */
static int chrome_exit_slice(struct sink_chrome *c, const struct sink_vcpu *v,
			     uint32_t tid, uint64_t end, const char *note)
{
	size_t len = v->ref != CHROME_NOREF ? c->reasons[v->ref].len : 0;
	char *p = chrome_reserve(c, len + CHROME_SLACK), *start = p;

	if (!p)
		return -ENOMEM;
	p = chrome_sep(c, p);
	p = CHROME_LIT(p, "{\"name\":");
	p = chrome_reason_name(c, p, v);
	p = CHROME_LIT(p, ",\"cat\":\"kvm\",\"ph\":\"X\",");
	p = chrome_span(c, p, v->exit_ts, end);
	p = chrome_pid_tid(p, sink_key_domain(v->key), tid);
	p = CHROME_LIT(p, ",\"args\":{\"reason\":");
	p = chrome_dec(p, v->reason);
	if (note) {
		p = CHROME_LIT(p, ",\"repaired\":\"");
		p = chrome_lit(p, note, strlen(note));
		*p++ = '"';
	}
	p = CHROME_LIT(p, "}}");
	chrome_commit(c, start, p);
	return 0;
}

/* An exit whose entry never came: an instant at the exit. */
static int chrome_exit_unpaired(struct sink_chrome *c,
				const struct sink_vcpu *v, uint32_t tid)
{
	size_t len = v->ref != CHROME_NOREF ? c->reasons[v->ref].len : 0;
	char *p = chrome_reserve(c, len + CHROME_SLACK), *start = p;

	if (!p)
		return -ENOMEM;
	p = chrome_sep(c, p);
	p = CHROME_LIT(p, "{\"name\":");
	p = chrome_reason_name(c, p, v);
	p = CHROME_LIT(p, ",\"cat\":\"kvm\",\"ph\":\"i\",\"s\":\"t\",\"ts\":");
	p = chrome_ts(c, p, v->exit_ts);
	p = chrome_pid_tid(p, sink_key_domain(v->key), tid);
	p = CHROME_LIT(p, ",\"args\":{\"reason\":");
	p = chrome_dec(p, v->reason);
	p = CHROME_LIT(p, ",\"unpaired\":\"another exit came before its entry\"}}");
	chrome_commit(c, start, p);
	return 0;
}

static int chrome_exit(struct sink_chrome *c, struct chrome_type *ct,
		       const struct event *ev, struct diag *d)
{
	struct sink_vcpu *v = sink_pairs_get(&c->pairs, &ct->st, ev);
	uint64_t reason = 0;
	uint32_t ref, tid;

	if (!v)
		return chrome_nomem(d);
	if (sink_field_u64(ev, ct->st.reason, &reason) < 0)
		reason = 0;
	/* the vCPU's thread exists from its first exit on */
	if (chrome_thread(c, v->key, ev, &ct->st, &tid) < 0)
		return chrome_nomem(d);
	if (v->pending) {
		c->exits_unpaired++;
		if (chrome_exit_unpaired(c, v, tid) < 0)
			return chrome_nomem(d);
	}
	/* v stays valid: no vCPU was added since sink_pairs_get() */
	if (ct->named < 0)
		ct->named = sink_reason_named(c->sink.render, ev, &ct->st);
	if (!ct->named)
		ref = CHROME_NOREF;
	else if (chrome_reason(c, ct, ev, reason, &ref) < 0)
		return chrome_nomem(d);
	v->pending = true;
	v->exit_ts = ev->ts;
	v->reason = reason;
	v->ref = ref;
	return 0;
}

static int chrome_entry(struct sink_chrome *c, const struct chrome_type *ct,
			const struct event *ev, struct diag *d)
{
	struct sink_vcpu *v = sink_pairs_get(&c->pairs, &ct->st, ev);
	uint32_t tid;

	if (!v)
		return chrome_nomem(d);
	if (!v->pending)
		return chrome_instant(c, ct, ev,
				      chrome_thread_key(&ct->st, ev, SINK_ENTRY),
				      NULL, d);
	v->pending = false;
	if (chrome_thread(c, v->key, ev, &ct->st, &tid) < 0 ||
	    chrome_exit_slice(c, v, tid, ev->ts, NULL) < 0)
		return chrome_nomem(d);
	return 0;
}

static int chrome_call(struct sink_chrome *c, const struct chrome_type *ct,
		       const struct event *ev, struct diag *d)
{
	uint64_t key = chrome_thread_key(&ct->st, ev, SINK_CALL);
	int dir = sink_call_dir(&ct->st, ev);
	struct chrome_thread *th;
	struct value sym;
	uint32_t tid;
	char *p, *start;

	if (ev->src->ops->field(ev->src, ev, ct->st.symbol, &sym) < 0 ||
	    sym.kind != VALUE_STR || !sym.len) {
		sym.kind = VALUE_STR;
		sym.s = "?";
		sym.len = 1;
	}
	/* an event record: an instant named after the event; lost: "lost" */
	if (dir != 1 && dir != -1)
		return chrome_instant(c, ct, ev, key, dir == 2 ? &sym : NULL, d);
	if (chrome_thread(c, key, ev, &ct->st, &tid) < 0)
		return chrome_nomem(d);
	th = &c->threads[tid - 1];
	p = start = chrome_reserve(c, SINK_JSON_BOUND(sym.len) + ct->catlen +
					      CHROME_SLACK);
	if (!p)
		return chrome_nomem(d);
	p = chrome_sep(c, p);
	if (dir < 0 && th->open) {
		th->open--;
		p = CHROME_LIT(p, "{\"ph\":\"E\",\"ts\":");
		p = chrome_ts(c, p, ev->ts);
		p = chrome_pid_tid(p, ev->src->domain, tid);
		*p++ = '}';
		chrome_commit(c, start, p);
		return 0;
	}
	p = CHROME_LIT(p, "{\"name\":");
	p += sink_json_str(p, sym.s, sym.len);
	*p++ = ',';
	p = chrome_lit(p, ct->cat, ct->catlen);
	if (dir > 0) {
		th->open++;
		p = CHROME_LIT(p, ",\"ph\":\"B\",\"ts\":");
		p = chrome_ts(c, p, ev->ts);
		p = chrome_pid_tid(p, ev->src->domain, tid);
		*p++ = '}';
	} else {
		/* its entry came before the trace: from the first stamp */
		c->calls_no_entry++;
		p = CHROME_LIT(p, ",\"ph\":\"X\",");
		p = chrome_span(c, p, c->first_ts, ev->ts);
		p = chrome_pid_tid(p, ev->src->domain, tid);
		p = CHROME_LIT(p, ",\"args\":{\"repaired\":\"entry before the trace start\"}}");
	}
	chrome_commit(c, start, p);
	return 0;
}

static int sink_chrome_event(struct sink *s, const struct event *ev,
			     struct diag *d)
{
	struct sink_chrome *c = container_of(s, struct sink_chrome, sink);
	struct chrome_type *ct = chrome_type(c, ev, d);
	enum sink_role role;

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
	return chrome_instant(c, ct, ev, chrome_thread_key(&ct->st, ev, role),
			      NULL, d);
}

/* --------------------------------------------------------- begin, end */

static int chrome_process(struct sink_chrome *c, enum domain dom)
{
	size_t i, len = 0, n = 0;
	char *name, *p;
	int ret;

	for (i = 0; i < c->nsrcs; i++)
		if (c->srcs[i]->domain == dom)
			len += strlen(c->srcs[i]->name) + 2;
	if (!len)
		return 0;
	name = malloc(len + 16);
	if (!name)
		return -ENOMEM;
	p = name + sprintf(name, "%s:", dom == DOMAIN_GUEST ? "guest" : "host");
	for (i = 0; i < c->nsrcs; i++) {
		if (c->srcs[i]->domain != dom)
			continue;
		p += sprintf(p, "%s %s", n++ ? "," : "", c->srcs[i]->name);
	}
	ret = chrome_meta(c, "process_name", dom, 0, "name", name,
			  (size_t)(p - name), 0);
	if (ret == 0)
		ret = chrome_meta(c, "process_sort_index", dom, 0, "sort_index",
				  NULL, 0, dom);
	free(name);
	return ret;
}

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
	if (outbuf_put(s->out, "{\"traceEvents\":[", 16) < 0 ||
	    chrome_process(c, DOMAIN_HOST) < 0 ||
	    chrome_process(c, DOMAIN_GUEST) < 0)
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

		if (!v->pending || t == SINK_MAP_EMPTY)
			continue;
		v->pending = false;
		c->exits_open++;
		if (chrome_exit_slice(c, v, t + 1, c->last_ts,
				      "no entry before the trace end") < 0)
			return -ENOMEM;
	}
	for (i = 0; i < c->nthreads; i++) {
		for (j = 0; j < c->threads[i].open; j++) {
			char *p = chrome_reserve(c, CHROME_SLACK), *start = p;

			if (!p)
				return -ENOMEM;
			p = chrome_sep(c, p);
			p = CHROME_LIT(p, "{\"ph\":\"E\",\"ts\":");
			p = chrome_ts(c, p, c->last_ts);
			p = chrome_pid_tid(p, sink_key_domain(c->threads[i].key),
					   (uint32_t)i + 1);
			p = CHROME_LIT(p, ",\"args\":{\"repaired\":\"exit after the trace end\"}}");
			chrome_commit(c, start, p);
		}
		c->calls_no_exit += c->threads[i].open;
		c->threads[i].open = 0;
	}
	return 0;
}

static const char *chrome_clock_note(const struct sink_chrome *c, char *buf,
				     size_t len)
{
	if (c->time.ns && c->time.timeline == CLOCK_TSC)
		snprintf(buf, len, "us, from TSC ticks at %.17g MHz (-c)",
			 c->time.mhz);
	else if (c->time.ns)
		snprintf(buf, len, "us, from nanoseconds");
	else if (c->time.timeline == CLOCK_TSC)
		snprintf(buf, len, "ticks, unknown frequency: pass -c MHZ");
	else
		snprintf(buf, len, "ticks of a counter of unknown unit");
	return buf;
}

static int chrome_footer(struct sink_chrome *c)
{
	struct outbuf *o = c->sink.out;
	char note[128], *p, *start;
	size_t i, need = 1024;

	for (i = 0; i < c->nsrcs; i++)
		need += SINK_JSON_BOUND(strlen(c->srcs[i]->name)) + 128;
	p = start = outbuf_reserve(o, need);
	if (!p)
		return -ENOMEM;
	p = CHROME_LIT(p, "\n],\"displayTimeUnit\":\"ns\",\"metadata\":{\"generator\":\"kvmtrace_format " PACKAGE_VERSION "\",\"clock\":");
	chrome_clock_note(c, note, sizeof(note));
	p += sink_json_str(p, note, strlen(note));
	p = CHROME_LIT(p, ",\"inputs\":[");
	for (i = 0; i < c->nsrcs; i++) {
		const struct source *src = c->srcs[i];
		const char *clk = clock_name(src->clock);

		if (i)
			*p++ = ',';
		p = CHROME_LIT(p, "{\"name\":");
		p += sink_json_str(p, src->name, strlen(src->name));
		p = CHROME_LIT(p, ",\"kind\":");
		p += sink_json_str(p, src->ops->kind, strlen(src->ops->kind));
		p = CHROME_LIT(p, ",\"domain\":");
		p = src->domain == DOMAIN_GUEST ? CHROME_LIT(p, "\"guest\",\"pid\":2")
						: CHROME_LIT(p, "\"host\",\"pid\":1");
		p = CHROME_LIT(p, ",\"clock\":");
		p += sink_json_str(p, clk, strlen(clk));
		*p++ = '}';
	}
	p = CHROME_LIT(p, "],\"repaired\":{\"exits_without_entry_at_end\":");
	p = chrome_dec(p, c->exits_open);
	p = CHROME_LIT(p, ",\"exits_followed_by_exit\":");
	p = chrome_dec(p, c->exits_unpaired);
	p = CHROME_LIT(p, ",\"calls_entered_before_start\":");
	p = chrome_dec(p, c->calls_no_entry);
	p = CHROME_LIT(p, ",\"calls_open_at_end\":");
	p = chrome_dec(p, c->calls_no_exit);
	p = CHROME_LIT(p, "}}}\n");
	outbuf_commit(o, (size_t)(p - start));
	return 0;
}

static int sink_chrome_end(struct sink *s, struct diag *d)
{
	struct sink_chrome *c = container_of(s, struct sink_chrome, sink);

	if (c->ended)
		return 0;
	c->ended = true;
	if (chrome_close_all(c) < 0 || chrome_footer(c) < 0)
		return chrome_nomem(d);
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
	sink_map_fini(&c->reason_map);
	for (i = 0; i < c->nreasons; i++)
		free(c->reasons[i].name);
	free(c->reasons);
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
				double mhz)
{
	struct sink_chrome *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->sink.ops = &sink_chrome_ops;
	c->sink.out = out;
	c->sink.render = render;
	c->mhz = mhz;
	return &c->sink;
}
