// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "filter.h"
#include "filter-int.h"
#include "rules-names.h"
#include "rules.h"
#include "sink-util.h"

struct filter *filter_create(void)
{
	struct filter *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->hi = UINT64_MAX;
	return f;
}

void filter_destroy(struct filter *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nevents; i++)
		rule_fini(&f->events[i]);
	free(f->events);
	free(f->hit);
	free(f->seen);
	free(f->seen_sys);
	free(f->vcpus);
	free(f->pids);
	for (i = 0; i < f->nsrcs; i++)
		free(f->srcs[i].types);
	free(f->srcs);
	free(f);
}

bool filter_active(const struct filter *f)
{
	return f && (f->nevents || f->nvcpus || f->npids || f->has_time);
}

static int filter_add_event(struct filter *f, const char *s, size_t len,
			    struct diag *d)
{
	struct rule rule = { 0 }, *n;
	const char *why = NULL;
	bool *hit;
	int ret;

	if (!len) {
		diag_set(d, "--events: empty item: write ids, names, system:name or globs separated by commas");
		return -EINVAL;
	}
	ret = rules_parse_id(s, len, &rule, &why);
	if (ret < 0) {
		diag_set(d, "--events: '%.*s': %s", (int)len, s,
			 why ? why : "bad event");
		rule_fini(&rule);
		return ret == -ENOMEM ? -ENOMEM : -EINVAL;
	}
	n = realloc(f->events, (f->nevents + 1) * sizeof(*n));
	if (n)
		f->events = n;
	hit = n ? realloc(f->hit, (f->nevents + 1) * sizeof(*hit)) : NULL;
	if (!hit) {
		rule_fini(&rule);
		diag_set(d, "out of memory");
		return -ENOMEM;
	}
	f->hit = hit;
	f->hit[f->nevents] = false;
	f->events[f->nevents++] = rule;
	return 0;
}

static int filter_parse_u64(const char *s, size_t len, uint64_t *out)
{
	char buf[32], *end;
	unsigned long long v;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	/* decimal, or hex with 0x: a leading 0 is not octal here */
	if (len > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X') &&
	    isxdigit((unsigned char)buf[2]))
		v = strtoull(buf + 2, &end, 16);
	else if (isdigit((unsigned char)buf[0]))
		v = strtoull(buf, &end, 10);
	else
		return -EINVAL;
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

/* "3", "0x10", "2-5": one item of --vcpu or --pid. */
static int filter_add_range(struct filter_range **v, size_t *n,
			    const char *opt, const char *s, size_t len,
			    struct diag *d)
{
	const char *dash = memchr(s, '-', len);
	struct filter_range r, *nv;

	if (dash ? filter_parse_u64(s, (size_t)(dash - s), &r.lo) < 0 ||
			   filter_parse_u64(dash + 1,
					    len - (size_t)(dash - s) - 1, &r.hi) < 0
		 : filter_parse_u64(s, len, &r.lo) < 0) {
		diag_set(d, "--%s: '%.*s': not a number or a range (write 0,2-3)",
			 opt, (int)len, s);
		return -EINVAL;
	}
	if (!dash)
		r.hi = r.lo;
	if (r.lo > r.hi) {
		diag_set(d, "--%s: '%.*s': the range is empty", opt, (int)len, s);
		return -EINVAL;
	}
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv) {
		diag_set(d, "out of memory");
		return -ENOMEM;
	}
	*v = nv;
	nv[(*n)++] = r;
	return 0;
}

/* Split arg at commas; call the item parser for each. */
static int filter_list(struct filter *f, const char *opt, const char *arg,
		       struct diag *d)
{
	const char *p = arg;
	int ret = 0;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (!strcmp(opt, "events"))
			ret = filter_add_event(f, p, len, d);
		else if (!strcmp(opt, "vcpu"))
			ret = filter_add_range(&f->vcpus, &f->nvcpus, opt, p, len,
					       d);
		else
			ret = filter_add_range(&f->pids, &f->npids, opt, p, len,
					       d);
		if (ret < 0 || !comma)
			return ret;
		p = comma + 1;
	}
}

/* "12.5" (its 's' cut off): seconds, to the ns exactly. */
static int filter_parse_secs(const char *s, size_t len, struct filter_bound *b)
{
	uint64_t whole = 0, frac = 0;
	size_t i = 0, nd = 0;
	bool digits = false;

	for (; i < len && isdigit((unsigned char)s[i]); i++, digits = true) {
		/* 2^64 ns is 584 years: more seconds than any clock counts */
		if (whole > UINT64_MAX / 1000000000u / 10 - 1)
			return -EINVAL;
		whole = whole * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < len && s[i] == '.')
		for (i++; i < len && isdigit((unsigned char)s[i]); i++) {
			digits = true;
			if (nd < 9) {
				frac = frac * 10 + (uint64_t)(s[i] - '0');
				nd++;
			} else if (s[i] != '0') {
				b->ns_more = true;
			}
		}
	if (!digits || i != len)
		return -EINVAL;
	for (; nd < 9; nd++)
		frac *= 10;
	b->set = true;
	b->secs = true;
	b->ns = whole * 1000000000u + frac;
	b->f = (double)whole + (double)frac / 1e9;
	return 0;
}

static int filter_parse_bound(const char *s, size_t len,
			      struct filter_bound *b)
{
	char buf[64], *end;

	memset(b, 0, sizeof(*b));
	if (!len)
		return 0;
	if (s[len - 1] == 's')
		return filter_parse_secs(s, len - 1, b);
	if (len >= sizeof(buf) || !(isdigit((unsigned char)s[0]) || s[0] == '.'))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	b->set = true;
	if (filter_parse_u64(s, len, &b->u) == 0) {
		b->is_int = true;
		b->f = (double)b->u;
		return 0;
	}
	errno = 0;
	b->f = strtod(buf, &end);
	if (errno || *end || end == buf || !isfinite(b->f) || b->f < 0)
		return -EINVAL;
	return 0;
}

static int filter_time_range(struct filter *f, const char *arg,
			     struct diag *d)
{
	const char *tilde = strchr(arg, '~');
	struct filter_bound from, to;

	if (!tilde || filter_parse_bound(arg, (size_t)(tilde - arg), &from) < 0 ||
	    filter_parse_bound(tilde + 1, strlen(tilde + 1), &to) < 0) {
		diag_set(d, "--time-range: '%s': write START~END (either may be empty): ts as it prints (ticks, ns, or seconds with -c), or seconds with an s (1.5s~2s)",
			 arg);
		return -EINVAL;
	}
	if (from.set && to.set && from.secs == to.secs && from.f > to.f) {
		diag_set(d, "--time-range: '%s': the range is empty (START after END)",
			 arg);
		return -EINVAL;
	}
	f->has_time = true;
	f->time_arg = arg;
	f->from = from;
	f->to = to;
	return filter_set_clock(f, CLOCK_NS, 0, NULL);
}

int filter_option(struct filter *f, const char *name, const char *arg,
		  struct diag *d)
{
	if (!strcmp(name, "events") || !strcmp(name, "vcpu") ||
	    !strcmp(name, "pid"))
		return filter_list(f, name, arg, d);
	if (!strcmp(name, "time-range"))
		return filter_time_range(f, arg, d);
	diag_set(d, "no filter named '%s'", name);
	return -ENOENT;
}

/* A bound on the timeline's integer ts (lo: the first inside, else the last). */
static uint64_t filter_bound_ts(const struct filter_bound *b, bool lo)
{
	if (!b->set)
		return lo ? 0 : UINT64_MAX;
	if (b->secs)	/* a nanosecond timeline */
		return b->ns + (lo && b->ns_more);
	if (b->is_int)
		return b->u;
	/* ticks written with a fraction: the ticks inside */
	if (b->f >= 0x1p64)
		return UINT64_MAX;
	return (uint64_t)(lo ? ceil(b->f) : floor(b->f));
}

int filter_set_clock(struct filter *f, enum clock_kind timeline, double mhz,
		     struct diag *d)
{
	bool secs = f->from.secs || f->to.secs;

	f->timeline = timeline;
	f->seconds = mhz > 0 && timeline == CLOCK_TSC;
	f->ticks_per_sec = mhz * 1000000.0;
	if (secs && !f->seconds && timeline != CLOCK_NS) {
		if (d && timeline == CLOCK_TSC)
			diag_set(d, "--time-range: '%s': seconds, on a timeline of TSC ticks: give the TSC's rate with -c MHZ",
				 f->time_arg);
		else if (d)
			diag_set(d, "--time-range: '%s': seconds, on a timeline that is a counter (no seconds): give ts as it prints, without the s",
				 f->time_arg);
		return -EINVAL;
	}
	f->lo = filter_bound_ts(&f->from, true);
	f->hi = filter_bound_ts(&f->to, false);
	return 0;
}

void filter_time_origin(struct filter *f, uint64_t origin)
{
	if (!f || !f->has_time || f->seconds)
		return;
	f->lo = f->lo > UINT64_MAX - origin ? UINT64_MAX : f->lo + origin;
	if (f->hi != UINT64_MAX)
		f->hi = f->hi > UINT64_MAX - origin ? UINT64_MAX
						    : f->hi + origin;
}

/* Does one --events item match type t (name: its KVM_TRC_* name)? */
static bool filter_events_one(const struct rule *rule,
			      const struct event_type *t, const char *name,
			      const char *label)
{
	if (rules_match(rule, t))
		return true;
	if (label && rule->match == RULE_NAME && !strcmp(rule->name, label))
		return true;
	if (label && rule->match == RULE_GLOB &&
	    !strchr(rule->pattern, ':') && fnmatch(rule->pattern, label, 0) == 0)
		return true;
	if (!name)
		return false;
	if (rule->match == RULE_NAME && !strcmp(rule->name, name))
		return true;
	return rule->match == RULE_GLOB && !strchr(rule->pattern, ':') &&
	       fnmatch(rule->pattern, name, 0) == 0;
}

/* A name the inputs have, for "did you mean" (best effort: no memory, no name). */
static void filter_seen(struct filter *f, const char *system,
			const char *name)
{
	const char **n;
	size_t i;

	if (!name || f->nseen >= FILTER_SEEN_MAX)
		return;
	for (i = 0; i < f->nseen; i++)
		if (!strcmp(f->seen[i], name) &&
		    (f->seen_sys[i] == system ||
		     (f->seen_sys[i] && system && !strcmp(f->seen_sys[i], system))))
			return;
	n = realloc(f->seen_sys, (f->nseen + 1) * sizeof(*n));
	if (!n)
		return;
	f->seen_sys = n;
	n = realloc(f->seen, (f->nseen + 1) * sizeof(*n));
	if (!n)
		return;
	f->seen = n;
	f->seen_sys[f->nseen] = system;
	f->seen[f->nseen++] = name;
}

/*
 * --events for a type (once per type): as rules match, plus KVM_TRC_*
 * names of ids; each item that matches is marked, and the name kept.
 */
static bool filter_events_eval(struct filter *f, const struct event_type *t)
{
	const char *name = t->has_id && !t->name ? sink_kvmtrace_name(t->id)
						  : NULL;
	const struct rule *own = f->rules ? rules_lookup(f->rules, t) : NULL;
	const char *label = own ? own->label : NULL;
	bool any = false;
	size_t i;

	filter_seen(f, label ? NULL : t->system,
		    label ? label : t->name ? t->name : name);
	for (i = 0; i < f->nevents; i++) {
		if (!filter_events_one(&f->events[i], t, name, label))
			continue;
		f->hit[i] = true;
		any = true;
	}
	return any;
}

/* The filter's record of ev's source and type, or NULL (out of memory). */
static struct filter_src *filter_src(struct filter *f, const struct event *ev)
{
	size_t i = ev->src->index;

	if (i >= f->nsrcs) {
		size_t n = i + 1;
		struct filter_src *ns = realloc(f->srcs, n * sizeof(*ns));

		if (!ns)
			return NULL;
		memset(ns + f->nsrcs, 0, (n - f->nsrcs) * sizeof(*ns));
		f->srcs = ns;
		f->nsrcs = n;
	}
	return &f->srcs[i];
}

static struct filter_type *filter_type(struct filter *f, const struct event *ev)
{
	struct filter_src *fs = filter_src(f, ev);
	uint32_t ti = ev->type->index;

	if (!fs)
		return NULL;
	if (ti >= fs->n) {
		uint32_t n = fs->n ? fs->n : 16;
		struct filter_type *nt;

		while (n <= ti)
			n *= 2;
		nt = realloc(fs->types, n * sizeof(*nt));
		if (!nt)
			return NULL;
		memset(nt + fs->n, 0, (n - fs->n) * sizeof(*nt));
		fs->types = nt;
		fs->n = n;
	}
	return &fs->types[ti];
}

/*
 * An id's slot in filter_src.ids: Fibonacci hashing of its low 32 bits,
 * whose top bits mix them all; the low byte xor the next, before, put
 * each KVM_TRC_* id of one class (0x00010001, VMENTRY) on the slot of
 * the same number in the next (0x00020001, PAGE_FAULT), and the two
 * evaluated the --events patterns again each time they took turns
 */
static inline uint32_t filter_idhash(uint64_t id)
{
	return (uint32_t)id * 0x9E3779B1u >> (32 - FILTER_IDCACHE_BITS);
}

static bool filter_events(struct filter *f, const struct event *ev)
{
	const struct event_type *t = ev->type;
	struct filter_type *ft;

	if (t->has_id) {
		struct filter_src *fs = filter_src(f, ev);
		struct filter_idcache *c;

		if (!fs)
			return filter_events_eval(f, t);
		c = &fs->ids[filter_idhash(t->id)];
		if (c->state == FILTER_UNKNOWN || c->id != t->id) {
			c->id = t->id;
			c->state = filter_events_eval(f, t) ? FILTER_YES
							    : FILTER_NO;
		}
		return c->state == FILTER_YES;
	}
	ft = filter_type(f, ev);
	if (!ft)
		return filter_events_eval(f, t);
	if (ft->events == FILTER_UNKNOWN)
		ft->events = filter_events_eval(f, t) ? FILTER_YES : FILTER_NO;
	return ft->events == FILTER_YES;
}

static int filter_range_cmp(const void *a, const void *b)
{
	const struct filter_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Sort ranges and merge those that overlap or touch: *n shrinks. */
static void filter_ranges_merge(struct filter_range *v, size_t *n)
{
	size_t i, out = 0;

	if (!*n)
		return;
	qsort(v, *n, sizeof(*v), filter_range_cmp);
	for (i = 1; i < *n; i++) {
		if (v[i].lo <= v[out].hi ||
		    (v[out].hi != UINT64_MAX && v[i].lo == v[out].hi + 1)) {
			if (v[i].hi > v[out].hi)
				v[out].hi = v[i].hi;
		} else {
			v[++out] = v[i];
		}
	}
	*n = out + 1;
}

/* Binary search of sorted, disjoint ranges: a long list costs log n. */
static bool filter_in(const struct filter_range *v, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x < v[mid].lo)
			hi = mid;
		else if (x > v[mid].hi)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

/* One more value --pid or --vcpu left out: counted, in the span */
static inline void filter_seen_value(uint64_t *n, uint64_t *lo, uint64_t *hi,
				     uint64_t x)
{
	if (!(*n)++ || x < *lo)
		*lo = x;
	if (x > *hi)
		*hi = x;
}

/* ev's vCPU: the vcpu_id field where the format has one, else ev->vcpu. */
static bool filter_vcpu(struct filter *f, const struct event *ev,
			uint64_t *vcpu)
{
	struct filter_type *ft = ev->type->has_id ? NULL : filter_type(f, ev);
	struct source *src = ev->src;

	if (ft && !ft->vcpu_init) {
		int idx = src->ops->bind ? src->ops->bind(src, ev->type,
							   "vcpu_id")
					 : -ENOENT;

		ft->vcpu_slot = idx >= 0 ? idx : SINK_NOSLOT;
		ft->vcpu_init = true;
	}
	if (ft && sink_field_u64(ev, ft->vcpu_slot, vcpu) == 0)
		return true;
	if (ev->has_vcpu) {
		*vcpu = ev->vcpu;
		return true;
	}
	return false;
}

bool filter_match(struct filter *f, const struct event *ev)
{
	uint64_t vcpu;

	if (!f)
		return true;
	if (!f->sorted) {
		filter_ranges_merge(f->vcpus, &f->nvcpus);
		filter_ranges_merge(f->pids, &f->npids);
		f->sorted = true;
	}
	if (f->has_time && ev->has_ts) {
		if (!f->stamped++ || ev->ts < f->first_ts)
			f->first_ts = ev->ts;
		if (ev->ts > f->last_ts)
			f->last_ts = ev->ts;
	}
	if (f->nevents) {
		if (!filter_events(f, ev))
			return false;
		f->events_passed++;
	}
	if (f->has_time) {
		if (f->seconds) {
			/* as ts prints with -c: the same double */
			double s = (double)ev->ts / f->ticks_per_sec;

			if ((f->from.set && s < f->from.f) ||
			    (f->to.set && s > f->to.f))
				return false;
		} else if (ev->ts < f->lo || ev->ts > f->hi) {
			return false;
		}
		f->time_passed++;
	}
	if (f->npids) {
		if (ev->pid < 0) {
			f->pid_none++;
			return false;
		}
		if (!filter_in(f->pids, f->npids, (uint64_t)ev->pid)) {
			if (!f->pid_passed)
				filter_seen_value(&f->pid_seen, &f->pid_lo,
						  &f->pid_hi,
						  (uint64_t)ev->pid);
			return false;
		}
		f->pid_passed = true;
	}
	if (f->nvcpus) {
		if (!filter_vcpu(f, ev, &vcpu)) {
			f->vcpu_none++;
			return false;
		}
		if (!filter_in(f->vcpus, f->nvcpus, vcpu)) {
			if (!f->vcpu_passed)
				filter_seen_value(&f->vcpu_seen, &f->vcpu_lo,
						  &f->vcpu_hi, vcpu);
			return false;
		}
		f->vcpu_passed = true;
	}
	return true;
}

void filter_set_rules(struct filter *f, const struct rules *rules)
{
	f->rules = rules;
}

static int filter_seen_type(const struct event_type *t, void *arg)
{
	filter_seen(arg, t->system, t->name);
	return 0;
}

void filter_set_sources(struct filter *f, struct source **srcs, size_t n)
{
	size_t i;

	for (i = 0; f->nevents && i < n; i++)
		if (srcs[i]->ops->each_type)
			srcs[i]->ops->each_type(srcs[i], filter_seen_type, f);
}
