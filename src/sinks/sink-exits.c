// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --exits=csv|jsonl: one row per exit, for engines that load CSV or JSON
 * lines (SQLite, DuckDB, Spark, ClickHouse). The pairing is --stats' own
 * (exits.h), so the rows add up to its tables: per reason, the count of
 * rows with a duration, their sum, min and max are its count, total, min
 * and max; rows without one are its unpaired.
 *
 * Columns (a header line first): host, input, vm, vcpu, reason,
 * reason_name, start_ns, duration_ns, guest_rip, guest_sym, domain.
 * A row is written when its exit ends (at its entry, at the next exit of
 * its vCPU, or at the end of the inputs), so rows come in the order exits
 * end. CSV quotes a field holding a comma, a quote or a line end, quotes
 * doubled (RFC 4180), lines end in LF; JSON lines escape strings as the
 * Chrome output does, and an empty cell is null.
 *
 * The hot path copies per-vCPU and per-reason text made once and writes
 * digits by hand; memory grows with vCPUs and reasons (capped), never
 * with rows.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "exits.h"
#include "outbuf.h"
#include "pyfmt.h"
#include "render.h"
#include "sink.h"

/* A piece of a row made once: CSV or JSON text. */
struct exits_text {
	char *s;		/* owned */
	size_t len;
};

/* Per vCPU (index into pairs.v): where its exit came from. */
struct exits_vrow {
	uint32_t src;		/* the input of its pending exit */
	uint32_t prefix_src;	/* the input prefix was made for; or NONE */
	struct exits_text prefix;	/* host, input, vm, vcpu, up to reason */
};

#define EXITS_NONE	UINT32_MAX
/* reason keys below this find their name in a table, not the map */
#define EXITS_SMALL	1024

struct sink_exits {
	struct sink sink;
	struct exits x;
	bool json;
	double mhz;
	const char *host;		/* borrowed: --host; or NULL */
	struct sink_time time;
	struct source **srcs;		/* borrowed (begin) */
	size_t nsrcs;
	struct exits_type *types;	/* owned: per (input, type) */
	struct exits_vrow *vrows;	/* owned: by index into pairs.v */
	uint32_t nvrows;
	struct sink_map name_map;	/* reason key -> index into names */
	uint16_t name_small[EXITS_SMALL];	/* key -> index + 1; 0 none */
	struct exits_text *names;	/* owned: reason, reason_name cells */
	size_t nnames, cap_names;
	uint64_t rows;
	/* exits_ns(): the last whole seconds of the TSC and their ticks */
	uint64_t tick_s, tick_base;
	/* the last whole seconds printed and their digits */
	uint64_t sec;
	char sec_text[24];
	uint8_t sec_len;		/* 0: none yet */
};

/* Per input, per event type: what the sinks know of it (sink-util.h). */
struct exits_type {
	struct sink_type *st;		/* owned: by event_type.index */
	uint32_t n;
};

/* ------------------------------------------------------------ escapes */

/* s as a CSV field: quoted when it holds , " CR or LF. <= 2 len + 2. */
static size_t exits_csv(char *p, const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r')
			break;
	if (i == len) {
		memcpy(p, s, len);
		return len;
	}
	p[n++] = '"';
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			p[n++] = '"';
		p[n++] = s[i];
	}
	p[n++] = '"';
	return n;
}

#define EXITS_BOUND(len) (6 * (len) + 2)

/* s as a cell of the row format: a CSV field or a JSON string. */
static size_t exits_cell(const struct sink_exits *c, char *p, const char *s,
			 size_t len)
{
	return c->json ? sink_json_str(p, s, len) : exits_csv(p, s, len);
}

/* ------------------------------------------------------- made once */

static int exits_text_set(struct exits_text *t, const char *s, size_t len)
{
	char *n = malloc(len ? len : 1);

	if (!n)
		return -ENOMEM;
	memcpy(n, s, len);
	free(t->s);
	t->s = n;
	t->len = len;
	return 0;
}

/* The name of an input's machine: --host, what it says, its name. */
static const char *exits_host(const struct sink_exits *c,
			      const struct source *src)
{
	if (c->host)
		return c->host;
	return src->hostname ? src->hostname : src->name;
}

/* v's cells up to the reason: host, input, vm, vcpu (JSON: the keys). */
static int exits_prefix(struct sink_exits *c, const struct sink_vcpu *v,
			struct exits_vrow *r)
{
	const struct source *src = c->srcs[r->src];
	const char *host = exits_host(c, src), *vm = NULL;
	size_t hl = strlen(host), il = strlen(src->name), vl = 0, n = 0;
	bool vcpu = sink_key_kind(v->key) == SINK_VCPU;
	char *buf, *p;
	int ret;

	if (vcpu) {
		vm = c->x.pairs.vms.names[sink_key_vm(v->key)];
		/* a VM known by its pid: the number */
		if (!c->x.pairs.vms.named[sink_key_vm(v->key)] &&
		    !strncmp(vm, "pid ", 4))
			vm += 4;
		vl = strlen(vm);
	}
	buf = malloc(EXITS_BOUND(hl) + EXITS_BOUND(il) + EXITS_BOUND(vl) +
		     96);
	if (!buf)
		return -ENOMEM;
	p = buf;
#define EXITS_LIT(s) (memcpy(p + n, s, sizeof(s) - 1), n += sizeof(s) - 1)
	if (c->json)
		EXITS_LIT("{\"host\":");
	n += exits_cell(c, p + n, host, hl);
	EXITS_LIT(",");
	if (c->json)
		EXITS_LIT("\"input\":");
	n += exits_cell(c, p + n, src->name, il);
	EXITS_LIT(",");
	if (c->json)
		EXITS_LIT("\"vm\":");
	if (vm)
		n += exits_cell(c, p + n, vm, vl);
	else if (c->json)
		EXITS_LIT("null");
	EXITS_LIT(",");
	if (c->json)
		EXITS_LIT("\"vcpu\":");
	if (vcpu)
		n += pyfmt_u64_dec(p + n, sink_key_vcpu(v->key));
	else if (c->json)
		EXITS_LIT("null");
	EXITS_LIT(",");
	if (c->json)
		EXITS_LIT("\"reason\":");
#undef EXITS_LIT
	ret = exits_text_set(&r->prefix, buf, n);
	free(buf);
	r->prefix_src = r->src;
	return ret;
}

/*
 * The reason's number and its name, as one piece of a row (CSV "7,NAME";
 * JSON '7,"reason_name":"NAME"'): at p, its length (<= EXITS_BOUND(len) +
 * 40).
 */
static size_t exits_reason_cell(const struct sink_exits *c, char *p,
				uint64_t reason, const char *name, size_t len)
{
	size_t n = pyfmt_u64_dec(p, reason);
	static const char key[] = ",\"reason_name\":";

	if (c->json) {
		memcpy(p + n, key, sizeof(key) - 1);
		n += sizeof(key) - 1;
	} else {
		p[n++] = ',';
	}
	return n + exits_cell(c, p + n, name, len);
}

/* The reason cell of v's exit ev, made on first sight: v->ref. */
static __attribute__((noinline)) int
exits_reason_name(struct sink_exits *c, struct sink_vcpu *v,
		  const struct sink_type *st, const struct event *ev)
{
	uint32_t i;
	char name[128], *cell;
	size_t len;
	void *grown;
	int ret;

	if (v->reason < EXITS_SMALL && c->name_small[v->reason]) {
		v->ref = c->name_small[v->reason] - 1u;
		return 0;
	}
	i = sink_map_find(&c->name_map, v->reason);
	if (i != SINK_MAP_EMPTY) {
		v->ref = i;
		return 0;
	}
	if (c->nnames >= SINK_MAXKEYS) {
		v->ref = EXITS_NONE;	/* its default name, each time */
		return 0;
	}
	if (!sink_reason_name(c->sink.render, ev, st, exits_key_value(v->reason),
			      name, sizeof(name)))
		name[sink_reason_default(name, exits_key_value(v->reason))] = '\0';
	len = strlen(name);
	cell = malloc(EXITS_BOUND(len) + 40);
	grown = c->names;
	if (!cell || sink_reserve(&grown, &c->cap_names, c->nnames,
				  sizeof(*c->names)) < 0) {
		free(cell);
		return -ENOMEM;
	}
	c->names = grown;
	c->names[c->nnames].s = cell;
	c->names[c->nnames].len = exits_reason_cell(c, cell,
						    exits_key_value(v->reason),
						    name, len);
	ret = sink_map_add(&c->name_map, v->reason, (uint32_t)c->nnames);
	if (ret < 0)
		return ret;
	v->ref = (uint32_t)c->nnames++;
	/* nnames <= SINK_MAXKEYS: fits */
	if (v->reason < EXITS_SMALL)
		c->name_small[v->reason] = (uint16_t)c->nnames;
	return 0;
}

/* ------------------------------------------------------------- rows */

/* Make c->vrows[vi] exist. 0 or -ENOMEM. */
static __attribute__((noinline)) int exits_vrows(struct sink_exits *c,
						 uint32_t vi)
{
	void *grown = c->vrows;
	uint32_t old = c->nvrows, i;

	if (sink_grow(&grown, &c->nvrows, vi, sizeof(*c->vrows)) < 0)
		return -ENOMEM;
	c->vrows = grown;
	for (i = old; i < c->nvrows; i++)
		c->vrows[i].prefix_src = EXITS_NONE;
	return 0;
}

static int exits_begin_cb(struct exits *x, struct sink_vcpu *v,
			  const struct sink_type *st, const struct event *ev)
{
	struct sink_exits *c = container_of(x, struct sink_exits, x);
	uint32_t vi = (uint32_t)(v - x->pairs.v);

	if (__builtin_expect(vi >= c->nvrows, 0) && exits_vrows(c, vi) < 0)
		return -ENOMEM;
	c->vrows[vi].src = ev->src->index;
	if (__builtin_expect(v->reason < EXITS_SMALL, 1) &&
	    c->name_small[v->reason]) {
		v->ref = c->name_small[v->reason] - 1u;
		return 0;
	}
	return exits_reason_name(c, v, st, ev);
}

/* v in decimal at p: its length. */
static inline size_t exits_dec(char *p, uint64_t v)
{
	unsigned n = pyfmt_dec_len(v);

	pyfmt_dec_back(p + n, v);
	return n;
}

/* Exactly 9 digits of v < 10^9 at p. */
static inline void exits_dec9(char *p, uint32_t v)
{
	uint32_t hi = v / 100000000;

	p[0] = (char)('0' + hi);
	pyfmt_dec8(p + 1, v - hi * 100000000);
}

/* The text of s seconds' ns, s * 10^9 (its digits but the last 9). */
static __attribute__((noinline)) void exits_sec(struct sink_exits *c,
						uint64_t s)
{
	c->sec = s;
	c->sec_len = (uint8_t)pyfmt_u64_dec(c->sec_text, s);
}

/*
 * Host time ts in ns (sink_time_ns()) in decimal at p: its length. The
 * whole seconds come apart from the rest, their digits made once a second
 * (up to 8 bytes past the digits may change).
 */
static inline size_t exits_ns(struct sink_exits *c, char *p, uint64_t ts)
{
	const struct sink_time *t = &c->time;
	uint64_t s, ns;

	if (t->timeline == CLOCK_TSC) {
		if (!t->hz_fast)
			return exits_dec(p, sink_time_ns(t, ts));
		/*
		 * sink_time_ns(): ts = s hz + r, r's ns rounded; s divided
		 * out once a second (0 at first: tick_base 0, tick_s 0)
		 */
		if (ts - c->tick_base >= t->hz) {
			c->tick_s = sink_time_div(t, ts);
			c->tick_base = c->tick_s * t->hz;
		}
		s = c->tick_s;
		ns = sink_time_div(t, (ts - c->tick_base) * 1000000000u +
					      t->hz / 2);
		if (ns >= 1000000000u) {
			/* rounded up to the next second */
			s++;
			ns -= 1000000000u;
		}
	} else {
		s = ts / 1000000000u;
		ns = ts - s * 1000000000u;
	}
	if (!s)
		return exits_dec(p, ns);
	if (s != c->sec || !c->sec_len)
		exits_sec(c, s);
	memcpy(p, c->sec_text, 24);
	exits_dec9(p + c->sec_len, (uint32_t)ns);
	return c->sec_len + 9u;
}

/* "0x" and the hex digits of v (up to 8 bytes past them may change) */
static inline size_t exits_hex(char *p, uint64_t v)
{
	p[0] = '0';
	p[1] = 'x';
	return 2 + pyfmt_hex_put(p + 2, v);
}

/*
 * The row of v's exit at p (room made): one body for both formats, json
 * a constant in each copy, so neither tests it per cell.
 */
static inline __attribute__((always_inline)) size_t
exits_row(struct sink_exits *c, const struct exits_vrow *r,
	  const struct sink_vcpu *v, bool paired, uint64_t dur,
	  const char *name, size_t len, size_t symlen, char *p, const bool json)
{
	size_t n = r->prefix.len;

#define EXITS_LIT(s) (memcpy(p + n, s, sizeof(s) - 1), n += sizeof(s) - 1)
	memcpy(p, r->prefix.s, n);
	memcpy(p + n, name, len);
	n += len;
	if (json)
		EXITS_LIT(",\"start_ns\":");
	else
		p[n++] = ',';
	n += exits_ns(c, p + n, v->exit_ts);
	if (json)
		EXITS_LIT(",\"duration_ns\":");
	else
		p[n++] = ',';
	if (paired)
		n += exits_dec(p + n, dur);
	else if (json)
		EXITS_LIT("null");
	if (json)
		EXITS_LIT(",\"guest_rip\":");
	else
		p[n++] = ',';
	if (v->has_rip) {
		if (json)
			p[n++] = '"';
		n += exits_hex(p + n, v->rip);
		if (json)
			p[n++] = '"';
	} else if (json) {
		EXITS_LIT("null");
	}
	if (json)
		EXITS_LIT(",\"guest_sym\":");
	else
		p[n++] = ',';
	if (v->sym)
		n += exits_cell(c, p + n, v->sym, symlen);
	else if (json)
		EXITS_LIT("null");
	if (exits_key_domain(v->reason) == DOMAIN_GUEST) {
		if (json)
			EXITS_LIT(",\"domain\":\"guest\"}\n");
		else
			EXITS_LIT(",guest\n");
	} else if (json) {
		EXITS_LIT(",\"domain\":\"host\"}\n");
	} else {
		EXITS_LIT(",host\n");
	}
#undef EXITS_LIT
	return n;
}

static int exits_end_cb(struct exits *x, struct sink_vcpu *v, bool paired,
			uint64_t dur)
{
	struct sink_exits *c = container_of(x, struct sink_exits, x);
	struct exits_vrow *r = &c->vrows[v - x->pairs.v];
	size_t symlen = v->sym ? strlen(v->sym) : 0, len;
	char dflt[EXITS_BOUND(24) + 40], name_s[24];
	const char *name;
	char *p;

	if (r->prefix_src != r->src && exits_prefix(c, v, r) < 0)
		return -ENOMEM;
	if (v->ref == EXITS_NONE) {
		len = sink_reason_default(name_s, exits_key_value(v->reason));
		len = exits_reason_cell(c, dflt, exits_key_value(v->reason),
					name_s, len);
		name = dflt;
	} else {
		name = c->names[v->ref].s;
		len = c->names[v->ref].len;
	}
	p = outbuf_reserve(c->sink.out, r->prefix.len + len +
					EXITS_BOUND(symlen) + 192);
	if (!p)
		return -ENOMEM;
	if (c->json)
		outbuf_commit(c->sink.out, exits_row(c, r, v, paired, dur, name,
						     len, symlen, p, true));
	else
		outbuf_commit(c->sink.out, exits_row(c, r, v, paired, dur, name,
						     len, symlen, p, false));
	c->rows++;
	return 0;
}

static const struct exits_ops sink_exits_pairing = {
	.begin = exits_begin_cb,
	.end = exits_end_cb,
};

/* ------------------------------------------------------------- sink */

static int sink_exits_nomem(struct diag *d)
{
	diag_set(d, "out of memory");
	return -ENOMEM;
}

/* exits_type() of a type not looked at yet. */
static __attribute__((noinline)) struct sink_type *
exits_type_new(struct sink_exits *c, const struct event *ev)
{
	struct exits_type *t = &c->types[ev->src->index];
	uint32_t ti = ev->type->index, old = t->n, i;
	void *grown = t->st;

	if (ti >= t->n) {
		if (sink_grow(&grown, &t->n, ti, sizeof(*t->st)) < 0)
			return NULL;
		t->st = grown;
		/* role 0xff: not looked at yet */
		for (i = old; i < t->n; i++)
			t->st[i].role = 0xff;
	}
	if (t->st[ti].role == 0xff)
		sink_type_init(&t->st[ti], ev->src, ev->type);
	return &t->st[ti];
}

static inline struct sink_type *exits_type(struct sink_exits *c,
					   const struct event *ev)
{
	struct exits_type *t = &c->types[ev->src->index];
	uint32_t ti = ev->type->index;

	if (__builtin_expect(ti < t->n && t->st[ti].role != 0xff, 1))
		return &t->st[ti];
	return exits_type_new(c, ev);
}

static int sink_exits_event(struct sink *s, const struct event *ev,
			    struct diag *d)
{
	struct sink_exits *c = container_of(s, struct sink_exits, sink);
	struct sink_type *st = exits_type(c, ev);
	int ret;

	if (__builtin_expect(!st, 0))
		return sink_exits_nomem(d);
	/* exits_event(), the callbacks inlined */
	switch (sink_role(st, ev)) {
	case SINK_EXIT:
		ret = exits_exit_with(&c->x, st, ev, exits_begin_cb,
				      exits_end_cb);
		break;
	case SINK_ENTRY:
		ret = exits_entry_with(&c->x, st, ev, exits_end_cb);
		break;
	case SINK_CALL:
		ret = 0;
		break;
	default:
		ret = exits_kind(&c->x, st, ev);
	}
	if (__builtin_expect(ret < 0, 0))
		return sink_exits_nomem(d);
	return 0;
}

static const char exits_head[] =
	"host,input,vm,vcpu,reason,reason_name,start_ns,duration_ns,guest_rip,guest_sym,domain\n";

static int sink_exits_begin(struct sink *s, struct source **srcs, size_t n,
			    struct diag *d)
{
	struct sink_exits *c = container_of(s, struct sink_exits, sink);
	size_t i;

	c->srcs = srcs;
	c->nsrcs = n;
	sink_time_init(&c->time, s->render ? s->render->timeline : CLOCK_TSC,
		       c->mhz);
	if (!c->time.ns) {
		diag_set(d, "--exits: the timeline is %s and its columns are in ns: %s",
			 c->time.timeline == CLOCK_TSC ? "the TSC" : "a counter",
			 c->time.timeline == CLOCK_TSC
				 ? "give the TSC's frequency with -c MHZ"
				 : "declare the inputs' clock with --clock=INPUT=ns");
		return -EINVAL;
	}
	c->types = calloc(n ? n : 1, sizeof(*c->types));
	if (!c->types)
		return sink_exits_nomem(d);
	c->x.ops = &sink_exits_pairing;
	c->x.time = &c->time;
	c->x.want_rip = true;
	/* without --guest-syms, a guest input's own symbols (kallsyms) */
	for (i = 0; !c->x.syms && !c->x.sym_src && i < n; i++)
		if (srcs[i]->domain == DOMAIN_GUEST && srcs[i]->ops->func_at)
			c->x.sym_src = srcs[i];
	if (!c->json && outbuf_put(s->out, exits_head, sizeof(exits_head) - 1) < 0)
		return sink_exits_nomem(d);
	return 0;
}

static int sink_exits_end(struct sink *s, struct diag *d)
{
	struct sink_exits *c = container_of(s, struct sink_exits, sink);

	if (exits_finish(&c->x) < 0)
		return sink_exits_nomem(d);
	/* as --stats says "Exits: none": not a silent empty table */
	if (!c->rows && s->warn) {
		diag_set(d, "warning: --exits: no exit among the events (no kvm:kvm_exit or kvmtrace VMEXIT): %s",
			 c->json ? "no row was written" :
				   "only the header line was written");
		s->warn(s->warn_arg, d->msg);
		diag_init(d);
	}
	exits_warn_unpaired(&c->x, "--exits", s->warn, s->warn_arg);
	return 0;
}

static void sink_exits_destroy(struct sink *s)
{
	struct sink_exits *c;
	size_t i;

	if (!s)
		return;
	c = container_of(s, struct sink_exits, sink);
	for (i = 0; c->types && i < c->nsrcs; i++)
		free(c->types[i].st);
	free(c->types);
	for (i = 0; i < c->nvrows; i++)
		free(c->vrows[i].prefix.s);
	free(c->vrows);
	for (i = 0; i < c->nnames; i++)
		free(c->names[i].s);
	free(c->names);
	sink_map_fini(&c->name_map);
	exits_fini(&c->x);
	free(c);
}

static const struct sink_ops sink_exits_ops = {
	.name = "exits",
	.begin = sink_exits_begin,
	.event = sink_exits_event,
	.end = sink_exits_end,
	.destroy = sink_exits_destroy,
};

struct sink *sink_exits_create(struct outbuf *out, struct render *render,
			       const char *format, double mhz,
			       const struct symtab *syms, const char *host)
{
	struct sink_exits *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->sink.ops = &sink_exits_ops;
	c->sink.out = out;
	c->sink.render = render;
	c->json = format && !strcmp(format, "jsonl");
	c->mhz = mhz;
	c->host = host;
	c->x.syms = syms;
	return &c->sink;
}
