/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One run of the program (main.c): what it holds from the command line to
 * the last line, and the runs other than reading traces through the merge,
 * in run-modes.c: --live's source and its hooks, and --stats over saved
 * statistics.
 */
#ifndef KTF_RUN_H
#define KTF_RUN_H

#include <stddef.h>

#include "diag.h"
#include "options.h"
#include "outfile.h"

struct clock;
struct clock_span;
struct counters;
struct merge;
struct outbuf;
struct render;
struct rules;
struct sink;
struct source;
struct symtab;

#define EXIT_DATA 1
#define EXIT_USAGE 2

struct run {
	struct options opt;
	char *rules_file;	/* owned: -f NAME as found (formats-path.h) */
	struct rules *rules;
	struct source **srcs;
	size_t nsrcs;
	struct clock *clock;
	struct render *render;
	struct outbuf *out;
	struct sink *sink;
	struct merge *merge;
	struct clock_span *spans;	/* owned: per input, for report_alignment() */
	struct outfile outf;	/* -o */
	struct symtab *syms;	/* --guest-syms */
	struct counters *counters;	/* owned: --counters */
	size_t ncounters;
};

/*
 * A message on standard error after "kvmtrace_format: ", with control
 * bytes other than new lines and tabs escaped (main.c).
 */
void run_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * --live: the one source, the kernel's buffers (or a trace.dat's pages
 * with --live-replay), opened into r. Returns 0, an exit status, or
 * -ENOMEM.
 */
int run_open_live(struct run *r, struct diag *d);
/*
 * --stats A.json B.json …: saved statistics merged (stats-merge.c) and
 * written. Returns an exit status, or -1 when the inputs are traces.
 */
int run_saved(struct run *r);

#endif
