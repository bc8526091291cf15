/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats-func's own declarations, shared by its files:
 *
 *   stats-func.c          uftrace report's accounting, the rows
 *   stats-func-tfilter.c  the time filter saved with the recording
 *   stats-func-write.c    the table
 */
#ifndef KTF_STATS_FUNC_INT_H
#define KTF_STATS_FUNC_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sink-util.h"

struct source;

#define SF_EVENT_PERF		200000u
#define SF_SCHED_IN		(SF_EVENT_PERF + 1)
#define SF_SCHED_OUT		(SF_EVENT_PERF + 2)
#define SF_SCHED_OUT_PREEMPT	(SF_EVENT_PERF + 7)
#define SF_NOSLOT		(-1)
#define SF_UNBOUND		(-2)
#define SF_UNKNOWN		UINT64_MAX	/* a frame entered before the data */

#define SF_MAX_STACK		1024	/* OPT_RSTACK_DEFAULT */
#define SF_DEF_DEPTH		1024	/* OPT_DEPTH_DEFAULT */

#define SF_EVENT_USER		1000000u

enum { SF_TYPE, SF_TID, SF_SYMBOL, SF_ADDR, SF_DEPTH, SF_TFILTER, SF_NSLOTS };

/* A record as the accounting takes it. */
struct sf_rec {
	uint64_t addr;
	uint64_t depth;
	uint64_t ts;
	uint32_t row;
	char kind;		/* 'e'ntry, e'x'it, 'l'ost, e'v'ent */
	char fix;		/* sf_fixup() of an entry's name */
	bool keep;		/* a perf event: the time filter keeps it */
};

/* One of uftrace's struct uftrace_fstack. */
struct sf_slot {
	uint64_t addr;		/* function, or sched-out event id */
	uint64_t total;		/* start time, then the call's time */
	uint64_t child;
	uint32_t row;		/* the name of addr; UINT32_MAX: "<addr>" */
	int32_t orig_depth;	/* the filter depth before the entry */
	bool valid;
	bool norecord;
};

struct sf_task {
	struct source *src;	/* borrowed */
	int64_t tid;
	struct sf_slot *slots;	/* owned */
	size_t cap;
	int64_t sc;		/* task->stack_count */
	int64_t usc;		/* task->user_stack_count */
	int32_t fdepth;		/* task->filter.depth */
	bool set;		/* task->fstack_set */
	bool lost_seen;
	bool nomem;		/* a slot could not be had */
	uint64_t last_time;	/* of the last record (LOST: 0) */
	bool last_perf;		/* that was a perf event */
	uint64_t tfilter;	/* the time filter; 0: none */
	struct sf_rec *wait;	/* owned: records held by the time filter */
	size_t nwait;
	size_t capwait;
	struct sf_rec out;	/* a sched-out held by the time filter */
	bool has_out;
};

struct sf_types {
	int32_t *slots;		/* owned: SF_NSLOTS per type index */
	size_t ntypes;
};

struct stats_func {
	struct stats_func_row *rows;	/* owned */
	size_t nrows;
	size_t caprows;
	struct sink_map names;	/* name hash -> row */
	struct sf_task *tasks;	/* owned */
	size_t ntasks;
	size_t captasks;
	struct sink_map tids;	/* (source, tid) -> task */
	struct sf_types *srcs;	/* owned, by source index */
	size_t nsrcs;
	int64_t setjmp_count;	/* fstack.c's setjmp_count: of any task */
	uint64_t perf_time;	/* of the last perf event (perf.c's one rec) */
};

/* Room for one more of n elements of size bytes, doubling. */
int stats_func_grow(void *v, size_t n, size_t *cap, size_t size);
/* One record of t as uftrace's read_rstack() hands it on. */
int stats_func_consume(struct stats_func *f, struct sf_task *t,
		       const struct sf_rec *r);
/* stats-func-tfilter.c: a record of a task with a time filter. */
int stats_func_tfilter(struct stats_func *f, struct sf_task *t,
		       const struct sf_rec *r);
/* The records the time filter held, in their order. */
int stats_func_release(struct stats_func *f, struct sf_task *t);

#endif
