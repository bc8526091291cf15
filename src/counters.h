/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --counters=FILE: the interval counts `perf stat -I MS` writes, with any
 * -x separator or in its human format, as Chrome counter tracks and a
 * --stats table. Times in the file are seconds since perf stat started;
 * they land on the timeline at a start: an "rdtsc N" first line (as
 * merge.py, where this comes from, reads it: N TSC ticks), --counters-start,
 * or else the first event of the timeline (the run says so).
 */
#ifndef KTF_COUNTERS_H
#define KTF_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct diag;

/* One interval of one counter. */
struct counters_point {
	uint64_t t_ns;		/* the end of the interval, since perf started */
	uint32_t series;	/* index into names */
	bool counted;		/* false: <not counted>, <not supported> */
	double count;		/* as printed */
	double value;		/* count scaled up by the running percentage */
};

struct counters {
	char *path;			/* owned */
	char **names;			/* owned, each owned: counters by name */
	size_t nnames;
	uint32_t *slots;		/* owned: names by hash, index + 1 */
	size_t nslots;			/* a power of two, or 0 */
	uint64_t seed;			/* of the hash (names cannot be
					 * chosen to collide) */
	struct counters_point *points;	/* owned, in file order */
	size_t npoints, cap;
	bool has_rdtsc;			/* an "rdtsc N" first line */
	uint64_t rdtsc;
	/* where t = 0 lies on the timeline; set before the sinks use it */
	bool has_start;
	uint64_t start;
	bool start_defaulted;		/* a sink took its first event's ts */
};

/*
 * Read path into c (zeroed by the caller). Returns 0, -ENOMEM, -ENOENT
 * (cannot open it, or it is neither a regular file nor a pipe: a device
 * would be read for ever) or -EINVAL with d filled ("FILE:LINE: …") for a
 * line that is no perf stat -I output (longer than COUNTERS_LINE_MAX, a
 * NUL byte in it, a count that is no finite number).
 */
#define COUNTERS_LINE_MAX	65536
int counters_load(struct counters *c, const char *path, struct diag *d);
void counters_fini(struct counters *c);
/*
 * The counters of c whose total (or an interval scaled up by the share it
 * ran) is past a double's range, named in d; how many. Their total shows
 * as none (null in JSON) in --stats.
 */
size_t counters_overflows(const struct counters *c, struct diag *d);

#endif
