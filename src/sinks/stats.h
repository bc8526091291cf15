/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The statistics sink's own header: its state (sink-stats.c collects),
 * table cells and units (stats-table.c), the summary tables
 * (stats-report.c).
 */
#ifndef KTF_STATS_H
#define KTF_STATS_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "exits.h"
#include "hist.h"
#include "sink-util.h"
#include "sink.h"

#define STATS_MAXCOLS	16
#define STATS_CELL	256	/* bytes of a table cell */

struct stats_cell {
	size_t len;
	char s[STATS_CELL];
};

struct stats_counter {
	enum domain domain;
	bool has_id;
	uint64_t id;
	char *name;		/* owned; NULL: an id without a name */
	uint64_t count;
};

struct stats_type {
	bool init;
	bool calls;		/* its input may hold calls (uftrace) */
	int8_t named;		/* exits: reasons have names (-1: not known) */
	struct sink_type st;
	uint32_t counter;	/* types without has_id */
};

struct stats_src {
	struct stats_type *types;	/* owned, by event_type.index */
	uint32_t n;
	uint64_t events;
	bool any_ts;
	uint64_t first, last;
};

/* A distribution of exit times and the exits that met no entry. */
struct stats_dist {
	struct hist h;
	uint64_t unpaired;
};

/* One exit reason. */
struct stats_reason {
	uint64_t key;		/* stats_reason_key(); STATS_OTHER: the rest */
	char *name;		/* owned; NULL: "exit 0x…" */
	struct stats_dist d;
};

#define STATS_OTHER	UINT64_MAX	/* the key of "the rest" rows */

/*
 * Rows found by a 64-bit key, at most SINK_MAXKEYS of them and then one
 * more, "other", that takes every key beyond. Rows are size bytes,
 * zeroed when made.
 */
struct stats_rows {
	struct sink_map map;	/* key -> index */
	void *v;		/* owned */
	size_t n;
	size_t cap;
	size_t size;
	uint32_t other;		/* the index of "other", or SINK_MAP_EMPTY */
	uint64_t beyond;	/* distinct keys seen beyond the cap: at least */
};

/* A VM, vCPU and reason. */
struct stats_cross {
	uint32_t vcpu;		/* index into pairs.v */
	uint32_t reason;	/* index into reasons */
	struct stats_dist d;
};

/* What exits were about: a port, an address, an MSR, … */
struct stats_kind {
	uint64_t key;		/* value << 3 | enum sink_kind */
	uint64_t count;
	uint64_t total;
	uint64_t max;
};

/* Exits at one guest function, of one reason. */
struct stats_gfunc {
	const char *sym;	/* borrowed (symtab or a guest input); NULL: other */
	uint32_t reason;	/* index into reasons */
	uint64_t count;
	uint64_t total;
};

/* One of the longest exits (stats-longest.c): what its row prints */
struct stats_long {
	uint64_t dur;
	uint64_t start;		/* its exit's time stamp */
	uint64_t seq;		/* exits paired before it */
	uint64_t key;		/* its vCPU's (sink_vcpu.key) */
	uint64_t kind_value;
	int64_t host_tid;
	const char *sym;	/* borrowed (as stats_gfunc's); or NULL */
	uint32_t reason;	/* index into reasons */
	uint8_t kind;		/* enum sink_kind */
	uint8_t domain;		/* enum domain: the exit's */
};

#define STATS_LONGEST	1	/* longest exits of each reason, by default */

/* The longest exits of one reason: a heap (stats-longest.c) */
struct stats_lheap {
	struct stats_long *h;	/* owned: alloc of them */
	uint32_t n, alloc;
};

#define STATS_GSTACK	64	/* guest call depth followed per vCPU */

/* The guest functions open on one guest vCPU (a uftrace guest's calls). */
struct stats_gcpu {
	uint32_t top;			/* entries open (may exceed the stack) */
	uint64_t stack[STATS_GSTACK];	/* their addresses */
};

/* --stats-sort: what orders the rows of the exit tables, most first */
enum stats_sort_by {
	STATS_SORT_TIME = 0,	/* total host time */
	STATS_SORT_COUNT,
	STATS_SORT_MAX,
	STATS_SORT_P99,
};

enum stats_mode {
	STATS_TABLE = 0,
	STATS_CSV,
	STATS_HIST,	/* tables and a log2 histogram per reason */
	STATS_JSON,
};

struct stats_func;

struct stats_crow;

struct stats_merged;

#define STATS_RING	16	/* a power of two */
#define STATS_ID_HITS	256	/* a power of two */
#define STATS_SMALL	1024
#define STATS_XREFS	128

struct sink_stats {
	struct sink sink;
	struct stats_func *func;	/* owned: uftrace functions (stats-func.h) */
	bool csv;			/* cells as CSV and JSON write them */
	enum stats_mode mode;
	enum stats_sort_by sort;
	unsigned top;			/* --stats-top; 0: the defaults */
	bool exits_first;		/* text: the exit tables open the report */
	double mhz;
	struct sink_time time;
	const struct symtab *syms;	/* borrowed; may be NULL */
	struct source *sym_src;		/* else a guest input's kallsyms */
	/* else the guest function open on the vCPU (stats-guest.c) */
	struct sink_map gcpu_map;	/* (VM, vCPU) -> index into gcpus */
	struct stats_gcpu *gcpus;	/* owned */
	size_t ngcpus, cap_gcpus;
	struct sink_map gname_map;	/* address -> index into gnames */
	char **gnames;			/* owned, each owned */
	size_t ngnames, cap_gnames;
	struct source **srcs;		/* borrowed (begin) */
	size_t nsrcs;
	struct stats_src *ssrcs;	/* owned, by source.index */
	struct stats_counter *counters;	/* owned */
	size_t ncounters;
	size_t cap_counters;
	struct sink_map id_map;		/* (id, domain) -> counter */
	/* the last (id, domain) keys found there, by their low bits */
	struct stats_id_hit {
		uint64_t key;		/* 0: none (key 0 always misses) */
		uint32_t counter;
	} id_hits[STATS_ID_HITS];
	uint32_t counter_other;		/* ids beyond the cap; or EMPTY */
	struct stats_rows reasons;	/* struct stats_reason */
	/* reason keys below STATS_SMALL: their index in reasons + 1; 0 none */
	uint16_t reason_small[STATS_SMALL];
	struct stats_rows cross;	/* struct stats_cross */
	/*
	 * Per vCPU (index into pairs.v), made on its first exit: its cross
	 * rows by reason index below STATS_XREFS, index + 1; 0 not known.
	 */
	uint32_t **xrows;		/* owned, each owned */
	uint32_t nxrows;
	struct stats_rows kinds;	/* struct stats_kind */
	struct stats_rows funcs;	/* struct stats_gfunc */
	struct stats_dist *vcpus;	/* owned: by index into pairs.v */
	uint32_t nvcpus;
	struct stats_dist *vms;		/* owned: by VM index */
	uint32_t nvms;
	struct stats_dist all;
	/*
	 * The longest paired exits of each reason so far, at most
	 * cap_longest of each (--stats-top, else STATS_LONGEST): a heap per
	 * reason index (stats-longest.c); nlongest in all, gathered into
	 * longest and sorted there, longest first, by the report.
	 */
	struct stats_lheap *lheaps;	/* owned: nlheaps of them */
	size_t nlheaps;
	struct stats_long *longest;	/* owned */
	size_t nlongest, cap_longest;
	/*
	 * all, reasons, vcpus and vms take every exit as it ends (true), or
	 * are folded from the cross rows, which then part the exits, at the
	 * end or when a cross row "other" would take one (false): one
	 * histogram written per exit instead of five.
	 */
	bool dists_live;
	/*
	 * The last durations of cross rows, not yet in their histograms:
	 * an exit's row is fetched into the cache when it ends, its bucket
	 * STATS_RING / 2 exits later, and counted after STATS_RING (the
	 * counters, thousands of rows, are rarely in the cache; the order
	 * they are added in changes nothing). Counted before any reads them.
	 */
	struct stats_pending {
		uint32_t row;		/* index into cross */
		uint64_t dur;
	} ring[STATS_RING];
	unsigned ring_n;		/* held, the oldest at ring_at */
	unsigned ring_at;
	struct exits x;			/* the pairing (exits.h) */
	uint64_t events;
	bool any_id;			/* the events table has an id column */
	bool json_any;			/* a JSON member was written */
	const char *json_name;		/* the next table's JSON member */
	/* saved statistics read back (stats-merge.c): no vCPU tables */
	struct stats_merged *merged;	/* owned; NULL: a run */
	/* filled by the report for its row callbacks */
	const struct stats_crow *crows;	/* --counters rows (stats-counters.c) */
	uint32_t *order;		/* owned: rows in print order */
	size_t norder;
};

static inline int stats_nomem(struct diag *d)
{
	diag_set(d, "out of memory");
	return -ENOMEM;
}

#define STATS_NOREF UINT32_MAX

struct symtab;

/* ------------------------------------------- stats-exits.c */

void stats_rows_init(struct stats_rows *r, size_t size);
void stats_rows_fini(struct stats_rows *r);
/*
 * The row of key: found, made (zeroed, *made set), or "other" beyond the
 * cap. 0 with *idx, or -ENOMEM.
 */
int stats_rows_get(struct stats_rows *r, uint64_t key, uint32_t *idx,
		   bool *made);
static inline void *stats_row(const struct stats_rows *r, size_t i)
{
	return (char *)r->v + i * r->size;
}

/* The pairing's callbacks (exits.h): exits into the tables. */
extern const struct exits_ops stats_exits_ops;
/* its callbacks, for sink-stats.c to call them directly */
int stats_exit_begin(struct exits *x, struct sink_vcpu *v,
		     const struct sink_type *st, const struct event *ev);
int stats_exit_end(struct exits *x, struct sink_vcpu *v, bool paired,
		   uint64_t dur);
/* At the end: exits still waiting met no entry. 0 or -ENOMEM. */
int stats_exits_finish(struct sink_stats *c);

/* Count the durations of c->ring into their histograms. 0 or -ENOMEM. */
int stats_ring_flush(struct sink_stats *c);

/* ------------------------------------------- stats-guest.c */

/* A guest's function entry or exit (uftrace): follows what is open. */
int stats_guest_call(struct sink_stats *c, const struct stats_type *st,
		     const struct event *ev);
/* The guest function open on v's vCPU, borrowed; or NULL. */
const char *stats_guest_func(const struct sink_stats *c,
			     const struct sink_vcpu *v);
void stats_guest_fini(struct sink_stats *c);

/* ------------------------------------------- stats-exit-tables.c */

/* The name of reason r (a row of c->reasons). */
void stats_reason_cell(struct stats_cell *cell, const struct stats_reason *r);
/* What a kind of exit is about ("pio port", …); NULL: none. */
const char *stats_kind_name(unsigned kind);

/* The exit tables, in order (after stats_exits_finish). 0 or -ENOMEM. */
int stats_exits_report(struct sink_stats *c);
void stats_exits_fini(struct sink_stats *c);

/* ------------------------------------------- stats-longest.c */

/* A paired exit of reason index ref that lasted dur: among its longest? */
static inline bool stats_longest_wants(const struct sink_stats *c,
				       uint32_t ref, uint64_t dur)
{
	const struct stats_lheap *l;

	if (ref >= c->nlheaps)
		return true;	/* the reason's first: no heap yet */
	l = &c->lheaps[ref];
	return l->n < c->cap_longest || dur >= l->h[0].dur;
}

/* Keep v's exit of dur if it is among the longest. 0 or -ENOMEM. */
int stats_longest_add(struct sink_stats *c, const struct sink_vcpu *v,
		      uint64_t dur);
/* Their table, longest first (after stats_exits_finish). 0 or -ENOMEM. */
int stats_longest_table(struct sink_stats *c);
/*
 * The headings of a longest exits table from its domain column on, the
 * STATS_LONGEST_COLS of them, as c writes them (the csv duration's into
 * dur, of size bytes); their alignment: STATS_LONGEST_RIGHT. A run's
 * table and a merge's (stats-merge-long.c) put theirs before them.
 */
#define STATS_LONGEST_COLS	8
#define STATS_LONGEST_RIGHT	"llrrlrll"
void stats_longest_heads(const struct sink_stats *c, const char **head,
			 char *dur, size_t size);
void stats_longest_fini(struct sink_stats *c);

/* ------------------------------------------- stats-table.c: cells, units */

void stats_u64(struct stats_cell *cell, uint64_t v);
/* A string into a cell, cut to fit. */
void stats_str(struct stats_cell *cell, const char *s);
void stats_hexid(struct stats_cell *cell, uint64_t id);
/*
 * A duration in the stats unit (exits.h: ns when c->time.ns, else ticks)
 * as µs with three decimals, or ticks.
 */
void stats_dur(const struct sink_stats *c, struct stats_cell *cell,
	       uint64_t v);
/* x / n rounded half up, exact. */
uint64_t stats_div_round(unsigned __int128 x, uint64_t n);
/* The mean of n durations: µs with three decimals, or ticks with one. */
void stats_mean(const struct sink_stats *c, struct stats_cell *cell,
		uint64_t total, size_t n);
/* 100 * count / all with two decimals. */
void stats_percent(struct stats_cell *cell, uint64_t count, uint64_t all);
/* A time stamp as the text output's %(ts) prints it. */
void stats_ts(const struct sink_stats *c, struct stats_cell *cell,
	      uint64_t ts);
const char *stats_dur_unit(const struct sink_stats *c);
const char *stats_ts_unit(const struct sink_stats *c);
const char *stats_domain(enum domain d);
void stats_max(size_t *w, size_t len);

/* ------------------------------------------- stats-table.c: tables */

/*
 * A table: row() formats a row into fixed cells, nothing is kept per row.
 * The text form measures the columns first: with measure(), which finds
 * the widest cell of each column from the largest values without
 * formatting every row, or else by formatting every row twice.
 */
struct stats_table {
	const char *name;		/* the JSON member, the CSV title */
	size_t ncols;
	const char *const *head;	/* borrowed */
	const char *right;		/* 'r' per right-aligned column */
	size_t nrows;
	void (*row)(const struct sink_stats *c, size_t i,
		    struct stats_cell *cells);
	void (*measure)(const struct sink_stats *c, size_t *w);
	/* JSON: the histogram of row i, as "hist" pairs; may be NULL */
	const struct hist *(*hist)(const struct sink_stats *c, size_t i);
};

int stats_put(struct outbuf *o, const char *s, size_t n);
int stats_printf(struct outbuf *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Text, CSV or a JSON member (t->name) holding an array of objects. */
int stats_table_out(struct sink_stats *c, const struct stats_table *t);
/* JSON: ,"name": before a member. */
int stats_json_member(struct sink_stats *c, const char *name);

/* ------------------------------------------- stats-report.c */

/* The tables of the summary, in order. 0 or -ENOMEM. */
int stats_report(struct sink_stats *c);
/* --counters: their table (stats-counters.c). 0 or -ENOMEM. */
int stats_counters_report(struct sink_stats *c);

/* ------------------------------------------- stats-merge.c */

/* The inputs of the merged files (a merged report's inputs table). */
int stats_merge_inputs_table(struct sink_stats *c);
/* The longest exits of all the merged files, with the file of each. */
int stats_merge_longest_table(struct sink_stats *c);
void stats_merge_free(struct stats_merged *m);

#endif
