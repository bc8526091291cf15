/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The saved statistics read back (stats-merge.c): what the merge keeps of
 * the files, shared with the longest exits' rows (stats-merge-long.c).
 */
#ifndef KTF_STATS_MERGE_INT_H
#define KTF_STATS_MERGE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats-json.h"
#include "stats.h"

#define SM_NAME	256	/* bytes of a name kept */

struct stats_minput {
	char *file;		/* owned */
	char *input;		/* owned */
	char kind[32];
	char domain[8];
	uint64_t events;
};

/* The cells of a longest_exits row, in the order they are printed */
enum { SML_START, SML_DOMAIN, SML_VM, SML_VCPU, SML_TID, SML_REASON,
       SML_ABOUT, SML_FUNC, SML_NCELLS };

/* One row of a file's longest_exits: its cells as saved, its duration */
struct stats_mlong {
	size_t file;		/* its file, by its place among them */
	size_t row;		/* its place in that file */
	uint64_t dur;
	char *cell[SML_NCELLS];	/* owned; NULL: none (null) */
};

struct stats_merged {
	struct stats_minput *inputs;	/* owned */
	size_t ninputs, cap;
	size_t nfiles;
	char unit[8];			/* "us" or "ticks": the first file's */
	const char *first;		/* borrowed: the first file's name */
	const char *const *files;	/* borrowed: the paths, by place */
	struct stats_mlong *longs;	/* owned */
	size_t nlongs, cap_longs;
	/*
	 * The longest exits of each reason are whole to this many: the
	 * fewest a file keeps of each (its longest_per_reason; 0: saved
	 * before the table); UINT64_MAX: no file yet. short_file: that file.
	 */
	uint64_t whole;
	size_t short_file;
};

/* ------------------------------------------------------- stats-merge.c */

/* A duration cell (µs with three decimals, or ticks) in the run's unit. */
int sm_dur(struct sj *j, const struct stats_merged *m, bool *null,
	   uint64_t *v);

/* -------------------------------------------------- stats-merge-long.c */

/* One row of longest_exits, of the file m->nfiles, its row-th. */
int sm_long(struct stats_merged *m, size_t row, struct sj *j);
/*
 * The file m->nfiles ended: it kept the per_reason longest exits of each
 * reason, so the merge's are whole to that many at most.
 */
void sm_long_file(struct stats_merged *m, uint64_t per_reason);
void sm_long_free(struct stats_merged *m);

#endif
