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
#include "sink-util.h"
#include "sink.h"

#define STATS_MAXCOLS	10
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

/* One exit reason. */
struct stats_reason {
	uint64_t key;		/* stats_reason_key() */
	char *name;		/* owned; NULL: "exit 0x…" */
	/*
	 * The host time of each paired exit: n values in durs, or while n is
	 * 1 in one (most reasons of a random stream are seen once).
	 */
	uint64_t *durs;		/* owned */
	uint64_t one;
	uint64_t n;
	uint64_t cap;
	uint64_t total;
	uint64_t unpaired;
};

/* reason value, kvm:kvm_exit (not a kvmtrace VMEXIT), domain */
static inline uint64_t stats_reason_key(uint64_t value, bool tracedat,
					enum domain d)
{
	return (value & ((1ull << 61) - 1)) << 2 | (uint64_t)tracedat << 1 |
	       (uint64_t)d;
}

struct sink_stats {
	struct sink sink;
	bool csv;
	double mhz;
	struct sink_time time;
	struct source **srcs;		/* borrowed (begin) */
	size_t nsrcs;
	struct stats_src *ssrcs;	/* owned, by source.index */
	struct stats_counter *counters;	/* owned */
	size_t ncounters;
	size_t cap_counters;
	struct sink_map id_map;		/* (id, domain) -> counter */
	struct stats_reason *reasons;	/* owned */
	size_t nreasons;
	size_t cap_reasons;
	struct sink_map reason_map;	/* stats_reason_key() -> index */
	struct sink_pairs pairs;
	uint64_t events;
	uint64_t entries_unpaired;	/* an entry without an exit before */
	bool any_id;			/* the events table has an id column */
};

static inline int stats_nomem(struct diag *d)
{
	diag_set(d, "out of memory");
	return -ENOMEM;
}

#define STATS_NOREF UINT32_MAX

/* sink-stats.c: the reason of v's pending exit. 0 or -ENOMEM. */
int stats_pending_reason(struct sink_stats *c, struct sink_vcpu *v,
			 struct stats_reason **out);

/* ------------------------------------------- stats-table.c: cells, units */

void stats_u64(struct stats_cell *cell, uint64_t v);
/* A string into a cell, cut to fit. */
void stats_str(struct stats_cell *cell, const char *s);
void stats_hexid(struct stats_cell *cell, uint64_t id);
/* A duration in the stats unit: µs with three decimals, or ticks. */
void stats_dur(const struct sink_stats *c, struct stats_cell *cell,
	       uint64_t ticks);
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
	size_t ncols;
	const char *const *head;	/* borrowed */
	const char *right;		/* 'r' per right-aligned column */
	size_t nrows;
	void (*row)(const struct sink_stats *c, size_t i,
		    struct stats_cell *cells);
	void (*measure)(const struct sink_stats *c, size_t *w);
};

int stats_put(struct outbuf *o, const char *s, size_t n);
int stats_printf(struct outbuf *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int stats_table_out(const struct sink_stats *c, const struct stats_table *t);

/* ------------------------------------------- stats-report.c */

/* The tables of the summary, in order. 0 or -ENOMEM. */
int stats_report(struct sink_stats *c);

#endif
