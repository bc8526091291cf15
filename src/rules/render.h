/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Rendering events through rules: keys bind to slots the first time a rule
 * meets an event type of a source; after that, rendering looks nothing up
 * by name and allocates nothing.
 */
#ifndef KTF_RENDER_H
#define KTF_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "rules-table.h"
#include "source.h"

struct diag;
struct outbuf;
struct source;

/* Slots of the fields every event has; source fields are >= 0. */
enum render_slot {
	SLOT_TS = -1,
	SLOT_RELTS = -2,
	SLOT_CPU = -3,
	SLOT_PID = -4,
	SLOT_NAME = -5,
	SLOT_DOMAIN = -6,
	SLOT_SOURCE = -7,
	SLOT_GUEST_TS = -8,
	SLOT_SYSTEM = -9,
	/*
	 * a key the events of a binding lack (a glob rule's, met at run
	 * time): every event of it has no value there
	 */
	SLOT_MISSING = -10,
	SLOT_SECS = -11,	/* ts as float seconds (render_bind checks the clock) */
	/*
	 * rule aliases (YAML), any number of them: SLOT_ALIAS_BASE - 2j for
	 * a join (lo | hi << 32: aux[2j], aux[2j + 1] = slots of lo, hi),
	 * SLOT_ALIAS_BASE - 2j - 1 for an enum (aux[2j] = slot of the number,
	 * aux[2j + 1] = alias index)
	 */
	SLOT_ALIAS_BASE = -1000,
};

/* Pairs of aux a binding may hold: every alias slot fits an int32_t. */
#define SLOT_AUX_MAX ((uint32_t)1 << 28)

static inline bool render_slot_is_enum(int32_t slot)
{
	return slot <= SLOT_ALIAS_BASE && ((SLOT_ALIAS_BASE - slot) & 1);
}

static inline bool render_slot_is_join(int32_t slot)
{
	return slot <= SLOT_ALIAS_BASE && !((SLOT_ALIAS_BASE - slot) & 1);
}

/* The aux pair of an alias slot. */
static inline uint32_t render_slot_aux(int32_t slot)
{
	return (uint32_t)(SLOT_ALIAS_BASE - slot) / 2;
}

/* How the renderer reads a key: the common cases without a call. */
enum fetch_kind {
	FETCH_SLOT = 0,		/* render_value() */
	FETCH_REC_U32,		/* a u32 at a byte offset of ev->rec */
	FETCH_REC_U64,		/* a u64 at a byte offset of ev->rec */
	FETCH_REC_S64,		/* an s64 at a byte offset of ev->rec */
	FETCH_REC_STR,		/* a const char * at off, its size_t at off2 */
	FETCH_CPU,		/* ev->cpu */
	FETCH_PID,		/* ev->pid */
	FETCH_CONST_STR,	/* str: the same for every event of the binding */
	FETCH_TS_INT,		/* ev->ts, 0 without a time stamp */
	FETCH_RELTS,
};

struct fetch {
	enum fetch_kind kind;
	uint32_t off;
	uint32_t off2;
	const char *str;	/* FETCH_CONST_STR: borrowed */
	size_t len;
};

/*
 * How render_event() writes one op of a template for a binding: the
 * commonest conversions each have their own few instructions; the rest
 * take the general path (the value through its slot, then pyfmt or the
 * inline integer formats).
 */
enum render_step {
	RSTEP_GENERIC = 0,
	RSTEP_NONE,		/* a literal alone (a chunk of a long one) */
	RSTEP_END,		/* the last literal, then the newline: every
				 * binding's steps end with one */
	RSTEP_U32_HEX8,		/* %08x of a record word (FETCH_REC_U32) */
	RSTEP_U32_HEX8_UP,	/* %08X of one */
	RSTEP_TS_DEC,		/* %d, no width, of the time stamp in ticks */
	RSTEP_STR,		/* plain %s of a FETCH_REC_STR */
	RSTEP_CONST_STR,	/* plain %s of a FETCH_CONST_STR */
	RSTEP_U64_DEC,		/* %d, no width, of a FETCH_REC_U64 */
	RSTEP_S64_DEC,		/* the same of a FETCH_REC_S64 (>= 0; else
				 * the general path) */
	RSTEP_RELTS_DEC,	/* %d, %Nd or %0Nd (N <= 16: ro->width, the
				 * padding ro->fill) of relts (>= 0; else the
				 * general path) */
	RSTEP_CPU_DEC,		/* the same of ev->cpu */
	RSTEP_PID_DEC,		/* the same of ev->pid (>= 0; else the
				 * general path) */
	RSTEP_U64_HEX,		/* %x or %#x, no width, of a FETCH_REC_U64 */
	RSTEP_U64_HEX_UP,	/* %X or %#X of one */
	RSTEP_U32_HEX,		/* %x, %0Nx (N <= 8: ro->width) of a
				 * FETCH_REC_U32: its digits, zeros before
				 * them up to the width */
	RSTEP_U32_HEX_UP,	/* %X, %0NX of one */
	RSTEP_U32_DEC,		/* %d, %Nd, %0Nd (N <= 16) of one, as
				 * RSTEP_CPU_DEC */
	RSTEP_U32_HEX16,	/* two RSTEP_U32_HEX8 with no text between
				 * (rip = 0x%(3)08x%(2)08x): off, then off2 */
	RSTEP_U32_HEX16_UP,	/* the same of two RSTEP_U32_HEX8_UP */
	RSTEP_U32_HEX8X2,	/* two RSTEP_U32_HEX8 with text between
				 * (vcpu = 0x%(vcpu)08x  pid = 0x%(pid)08x):
				 * off, the len bytes at str, off2 */
	RSTEP_U32_HEX8X2_UP,	/* the same of two RSTEP_U32_HEX8_UP */
	/*
	 * The head of every classic rule, three steps in one:
	 * RSTEP_TS_DEC, the literal text2 (len2 bytes), RSTEP_RELTS_DEC
	 * (width, fill; conv2 its conversion), the literal text3 (len3
	 * bytes), RSTEP_U32_HEX8X2 (%(ts)d (+%(relts)12d)  VMEXIT  vcpu =
	 * 0x%(vcpu)08x  pid = 0x%(pid)08x): two fewer jumps per line
	 */
	RSTEP_TS_RELTS_HEX8X2,
	RSTEP_U64_HEX16,	/* %016x of a FETCH_REC_U64 (rule 0's
				 * 0x%(event)016x): all 16 digits */
	RSTEP_U64_HEX16_UP,	/* %016X of one */
	RSTEP_FIELD_STR,	/* plain %s of a source field (slot off >= 0,
				 * FETCH_SLOT, no symbol): its string through
				 * source_ops.field, no render_generic; any
				 * other value the general path */
};

/* The longest literal of a step (render_ops() cuts longer ones) */
#define RENDER_LIT_MAX 32

/*
 * One step: the literal text before a conversion, then the conversion,
 * with what its key's fetch says at hand (each load the renderer makes
 * waits for the one before it: ro, then the value, then its bytes).
 */
struct render_op {
	/* what every step reads, on the first of its two cache lines: */
	/* the literal's lit_len bytes, then zeros: copied whole */
	char text[RENDER_LIT_MAX];
	const char *str;	/* FETCH_CONST_STR: its fetch's str and len;
				 * RSTEP_U64_HEX(_UP): "0x" ("0X"), and 2
				 * with '#', else 0; RSTEP_U32_HEX8X2(_UP):
				 * the text between, in the tmpl's */
	/*
	 * where render_events() writes the step, its label's address
	 * (goto *go: no table to index), set when the binding's first
	 * event is rendered (its gate, struct binding)
	 */
	const void *go;
	uint32_t off;		/* its fetch's off and off2 */
	uint32_t off2;
	uint32_t len;
	uint16_t lit_len;	/* at most RENDER_LIT_MAX */
	uint8_t step;		/* enum render_step; RSTEP_NONE, RSTEP_END:
				 * no conversion */
	uint8_t width;		/* RSTEP_*_DEC (<= 16), RSTEP_U32_HEX (<= 8):
				 * the width, 0 for none */
	/* the second: RSTEP_TS_RELTS_HEX8X2's (see there) */
	char text2[16] __attribute__((aligned(64)));
	char text3[RENDER_LIT_MAX];	/* len3 bytes, then zeros */
	uint8_t len2;
	uint8_t len3;
	uint32_t conv2;
	uint64_t fill;		/* RSTEP_*_DEC: 8 bytes of the padding,
				 * ' ', or '0' for %0Nd */
	/* the third: the binder's and the general path's */
	const char *lit __attribute__((aligned(64)));	/* the literal, in
							 * the tmpl's text:
							 * borrowed */
	uint32_t conv;		/* the conversion: index of its tmpl_op */
	uint8_t fetch;		/* enum fetch_kind */
	/*
	 * RSTEP_S64_DEC, RSTEP_PID_DEC, RSTEP_U64_HEX(_UP): the text of the
	 * value last written (a tid, a pid, a function's address: the same
	 * from one event to the next), memo_len bytes of it; at first
	 * UINT64_MAX, no value the first two write, and 0 with its text
	 */
	uint8_t memo_len;
	uint64_t memo_v;
	char memo[32];
} __attribute__((aligned(64)));

struct binding {
	/* what render_events() reads of every event's binding, first */
	/*
	 * need with RMODE_TEMPLATE once render_events() set its steps'
	 * labels (render_op.go), else SIZE_MAX: one test of the room left
	 * sends a full buffer, the other modes and a binding's first event
	 * off the path
	 */
	size_t gate;
	uint8_t mode;			/* enum render_mode */
	size_t need;			/* room to reserve: bound + 1 + slack */
	struct render_op *rops;		/* owned: the template's ops as steps */
	const struct tmpl_op *ops;	/* at hand: rule->tmpl's */
	const struct rule *rule;	/* borrowed; NULL: no rule */
	int32_t *slots;			/* owned: one per key of rule->tmpl */
	struct fetch *fetch;		/* owned: one per key */
	size_t nrops;
	int32_t *aux;			/* owned: pairs, see SLOT_JOIN_BASE */
	uint32_t naux;			/* pairs used */
	/*
	 * owned, per key, or NULL: 1 where %s, %r, %a print the name the
	 * format gives the value (source_ops.field_symbol)
	 */
	uint8_t *symbolic;
	const char *text;		/* at hand: rule->tmpl's */
};

/* What render_event does with an event of a binding. */
enum render_mode {
	RMODE_DEFAULT = 0,	/* no rule: the source's default rendering */
	RMODE_SKIP,		/* a skip rule: nothing */
	RMODE_TYPEERROR,	/* the 2008 fallback */
	RMODE_TEMPLATE,
};

/*
 * Events whose type has an id (kvmtrace) bind per rule, not per type: a
 * random stream may hold millions of ids, and all but a few meet rule 0.
 */
struct render_idcache {
	uint64_t id;
	struct binding *b;	/* borrowed from by_rule */
};

#define RENDER_IDCACHE 64

/*
 * The idcache slot of an event id: Fibonacci hashing, the top 6 bits of
 * the 32-bit product of its low word (kvmtrace's ids have 28 bits; the
 * slot's id is compared whole). (id ^ id >> 6) put kvmtrace's 0x0001xxxx
 * and 0x0002xxxx events in the same slots.
 */
static inline uint32_t render_idhash(uint64_t id)
{
	return (uint32_t)id * 0x9E3779B1u >> 26;
}

struct render_src {
	struct binding **by_type;	/* owned, indexed by event_type.index */
	uint32_t n;
	struct binding **by_rule;	/* owned: [0] no rule, [i + 1] rule i */
	struct render_idcache idcache[RENDER_IDCACHE];
	/*
	 * borrowed from by_rule, NULL until bound: the binding of ids
	 * outside render.id_lo .. id_lo + id_span, which no exact rule
	 * names (never in idcache: a stream of random ids evicted the
	 * common ones)
	 */
	struct binding *other;
};

/*
 * The bindings of the event types met last, one load and a compare
 * instead of the walk through the input's render_src. Types with ids
 * (kvmtrace's, whose id changes with each record) never enter.
 */
struct render_tcache {
	const struct event_type *type;
	const struct binding *b;
};

#define RENDER_TCACHE 64

/*
 * By the type's index (dense in its input) and the input's: the first
 * RENDER_TCACHE types of an input never evict one another, whatever the
 * size of the reader's type records (hashing their addresses made three
 * of ten trace.dat events miss once struct tc_type grew by 8 bytes).
 */
static inline uint32_t render_thash(const struct event_type *t,
				    uint32_t src_index)
{
	return (t->index + src_index * 13u) & (RENDER_TCACHE - 1);
}

struct render_id {
	uint64_t id;
	uint32_t rule;
};

/* An event as a warning names it at the end (render_unmatched_report()) */
struct render_note {
	char what[192];		/* "record S of SRC, event ..." */
	bool has_id;		/* an id without a name of its own */
	uint64_t id;
};

struct render {
	const struct rules *rules;	/* borrowed */
	double mhz;			/* -c MHZ; 0: time stamps in ticks */
	enum clock_kind timeline;	/* -c converts only a TSC timeline */
	/*
	 * RSTEP_TS_DEC of a stamp of 9 to 16 digits: the digits of its
	 * part above the low 8 as last printed (0: none yet), the same
	 * from one event to the next but every 10^8 ticks
	 */
	uint64_t ts_hi;
	char ts_hi_text[8];
	uint32_t ts_hi_len;
	/*
	 * RSTEP_TS_RELTS_HEX8X2: the stamp last printed whole (UINT64_MAX:
	 * none, or ts_hi changed since), of 9 to 16 digits, and its low 8
	 * as unpacked BCD, the last digit in the low byte: the next stamp,
	 * this one plus its relts, is the sum of the two's digits
	 */
	uint64_t bcd_x;
	uint64_t bcd;
	/*
	 * render_generic()'s negative errno where it returns NULL (an
	 * int *err of render_events()'s local: GCC made its address at
	 * every step, on the stack)
	 */
	int err;
	struct render_tcache tcache[RENDER_TCACHE];
	struct render_src *srcs;	/* owned, indexed by source.index */
	/*
	 * owned, indexed by source.index: where its id rules' bindings
	 * are, its own render_src or that of an earlier input it shares
	 * them with (source_ops.bind_class)
	 */
	struct render_src **idsrcs;
	size_t nsrcs;
	struct render_id *ids;		/* owned: exact id rules, sorted */
	size_t nids;
	uint64_t id_lo, id_span;	/* ids[0].id, ids[nids - 1].id - it */
	long id_fallback;		/* rule for other ids, or -1 */
	/* borrowed: the inputs whose glob rules the first event checks */
	struct source **globs_srcs;	/* NULL: checked (render_event) */
	size_t globs_n;
	/*
	 * Set once render_check() passed: a key that an event met later
	 * lacks binds to SLOT_MISSING instead of being refused.
	 */
	bool checked;
	/*
	 * owned, one per rule (NULL until an event lacks a value): per key
	 * of its template, the events that had no value there
	 */
	struct render_missing **missing;
	/*
	 * The events render_events() went through, the lines they made,
	 * and those of them no rule named that printed nothing (no default
	 * rendering: a kvmtrace record, as the 2008 tool left it out), the
	 * first of these said in unmatched, and the first event of all in
	 * first: render_unmatched_report()
	 */
	uint64_t nevents;
	uint64_t nlines;
	uint64_t nunmatched;
	struct render_note unmatched;
	struct render_note first;
};

/*
 * Events of a rule with no value for one of its keys (a host/guest key of
 * a thread no GUEST option names, a glob rule's key that other formats
 * have, uftrace's retval on an entry): the key prints as an empty string
 * in the conversion's width, and render_missing_report() says how many.
 */
struct render_missing {
	uint64_t count;
	const struct source *src;	/* borrowed: the first such event's */
	const struct event_type *type;	/* borrowed */
	uint64_t seq;
};

struct render *render_create(const struct rules *rules, double mhz,
			     size_t nsources);
void render_destroy(struct render *r);
/*
 * Does any rule print relts (%(relts)d, %(reltsc)d, an alias of them, or
 * with -c the 2008 TypeError line)? Else no one reads event.relts.
 */
bool render_needs_relts(const struct render *r);

/*
 * Check every rule against what the inputs can hold, before any output.
 * Returns 0 or a negative errno with diag filled (a rule-file error).
 * Glob rules ("kvm:*", "*") are checked at the first event, before it is
 * printed (render_event): a key that no format they are the rule for has
 * is a typo; srcs must stay open until then.
 */
int render_check(struct render *r, struct source **srcs, size_t n,
		 struct diag *d);

/*
 * One warning per key that some events had no value for (struct
 * render_missing), through warn. Call while the inputs are open.
 */
void render_missing_report(const struct render *r,
			   void (*warn)(void *arg, const char *msg),
			   void *arg);

/*
 * A warning, through warn, when the run rendered events and printed
 * nothing: no rule matched any of them (a rule file of other events, ids
 * mistyped), or every one the rules printed nothing for went to a skip
 * rule (a file that prints exits and skips the rest, over a trace
 * without exits): how many, and the first of them; id_name (NULL: none)
 * names an event of an id without a name of its own (kvmtrace's). Call
 * while the inputs are open.
 */
void render_unmatched_report(const struct render *r,
			     const char *(*id_name)(uint64_t id),
			     void (*warn)(void *arg, const char *msg),
			     void *arg);

/* The glob-rule check of render_check, run by render_event once. */
int render_check_globs(struct render *r, const struct event *first,
		       struct diag *d);

/*
 * Render ev. Returns 1 if something was written, 0 if no rule applies and
 * the source has no default rendering, -EINVAL for a rule-file error found
 * at first use (diag filled), -ERANGE for a value the template cannot print
 * (diag filled), -ENOMEM.
 */
int render_event(struct render *r, const struct event *ev, struct outbuf *o,
		 struct diag *d);

/*
 * Render ev[0 .. n - 1] in turn, as render_event() each (without the
 * call per event: one input's batch, source_ops.next_batch). Stops early
 * when the output's reader went away (o->closed). Returns how many
 * printed something, or render_event()'s negative errno for the event
 * ev[*done]; *done: the events rendered before it.
 */
int render_events(struct render *r, const struct event *ev, size_t n,
		  struct outbuf *o, size_t *done, struct diag *d);

/* The binding for ev (for sinks that look at rules without rendering). */
int render_binding(struct render *r, const struct event *ev,
		   const struct binding **out, struct diag *d);

/*
 * The slot of a field by name, for sinks that read fields without a
 * template (t NULL: any event of src). 0 or -ENOENT.
 */
int render_field_slot(struct source *src, const struct event_type *t,
		      const char *key, int32_t *slot);

/* Fetch the value of a bound slot (b may be NULL for plain field slots). */
int render_value(const struct render *r, const struct binding *b,
		 const struct event *ev, int32_t slot, struct value *v);

/*
 * render-bind.c's, for render-check.c: a binding of rule to events of type
 * t of src (t NULL: any event of src), 0 or a negative errno with diag
 * filled; one key of it; the error of key i, which events of type t lack.
 */
int render_bind(const struct render *r, struct source *src,
		const struct event_type *t, const struct rule *rule,
		struct binding **out, struct diag *d);
void render_binding_free(struct binding *b);
int render_bind_key(struct binding *b, struct source *src,
		    const struct event_type *t, const char *key,
		    int32_t *slot);
void render_unknown_key(const struct render *r, struct source *src,
			const struct event_type *t, const struct rule *rule,
			size_t i, struct diag *d);

#endif
