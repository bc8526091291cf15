/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One event on its way from a source through the merge to a sink.
 *
 * A source owns the storage of its current event; the event and everything
 * it points to stay valid until that source's next() is called again.
 */
#ifndef KTF_EVENT_H
#define KTF_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct source;

enum value_kind {
	VALUE_NONE = 0,
	VALUE_INT,	/* neg ? -u : u; covers u64, s64 and their differences */
	VALUE_FLOAT,
	VALUE_STR,	/* s, len; borrowed until the source's next() */
};

struct value {
	enum value_kind kind;
	bool neg;
	uint64_t u;
	double f;
	const char *s;
	size_t len;
};

static inline void value_set_u64(struct value *v, uint64_t u)
{
	v->kind = VALUE_INT;
	v->neg = false;
	v->u = u;
}

static inline void value_set_s64(struct value *v, int64_t i)
{
	v->kind = VALUE_INT;
	v->neg = i < 0;
	v->u = i < 0 ? -(uint64_t)i : (uint64_t)i;
}

static inline void value_set_str(struct value *v, const char *s, size_t len)
{
	v->kind = VALUE_STR;
	v->s = s;
	v->len = len;
}

static inline void value_set_float(struct value *v, double f)
{
	v->kind = VALUE_FLOAT;
	v->f = f;
}

/*
 * A kind of event within one source: a kvmtrace event id, a trace.dat
 * event format, a uftrace record type. Sources hand out dense indices so
 * that later stages can keep per-type tables. A type with has_id (kvmtrace)
 * is matched by its id alone and may be shared and re-stamped with each
 * record's id: such streams can hold millions of distinct ids.
 */
struct event_type {
	uint32_t index;		/* dense within its source, from 0 */
	bool has_id;		/* numeric rule ids match id (kvmtrace) */
	uint64_t id;		/* kvmtrace event id, trace.dat event id */
	const char *system;	/* owned by the source; may be NULL */
	const char *name;	/* owned by the source; may be NULL */
	/*
	 * Listed by source_ops.each_type as a type the input may hold,
	 * though nothing in it says so (uftrace's perf events): checks that
	 * must be sure of an input's formats pass over it.
	 */
	bool possible;
};

enum domain {
	DOMAIN_HOST = 0,
	DOMAIN_GUEST,
};

struct event {
	uint64_t ts;			/* on the host timeline: the merge key */
	uint64_t raw_ts;		/* on the source's own clock, as recorded */
	uint64_t seq;			/* position within its source, from 0 */
	bool has_ts;			/* false: a kvmtrace record without TSC */
	uint32_t cpu;
	int64_t pid;
	bool has_vcpu;			/* the event knows its vCPU */
	uint32_t vcpu;
	const struct event_type *type;	/* borrowed from the source */
	struct source *src;		/* borrowed */
	const void *rec;		/* source-private data; borrowed */
	/*
	 * A damaged record the reader reported and counted (a trace.dat
	 * record its format does not fit): only the reference tool's line
	 * prints it (built-in rules, text); rules, --stats and --chrome
	 * leave it out. Readers that never set it leave it false.
	 */
	bool damaged;
	/* set by the pipeline on the stream as printed */
	bool relts_neg;
	uint64_t relts;
};

/*
 * relts of a stamp ts after last, the stamp before it (0: none), as the
 * 2008 tool printed %(relts)d: how far, and *neg when it stepped back.
 * run_set_relts() and the kvmtrace reader (source_ops.batch_relts).
 */
static inline uint64_t event_relts(uint64_t ts, uint64_t last, bool *neg)
{
	uint64_t rel = ts < last ? last - ts : ts - last;

	*neg = ts < last;
	return __builtin_expect(!last, 0) ? 0 : rel;
}

#endif
