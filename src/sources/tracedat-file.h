/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What kvmtrace_format reads from a trace.dat itself, beside libtracecmd:
 * the trace clock (no function the installed trace-cmd.h declares tells
 * it), the TSC2NSEC option, and a check of the version 6 layout that
 * libtracecmd 1.3.1 gets wrong (see tracedat-file.c).
 */
#ifndef KTF_TRACEDAT_FILE_H
#define KTF_TRACEDAT_FILE_H

#include <stdbool.h>

#include "diag.h"

struct tracedat_file {
	unsigned version;	/* 6 or 7; 0 when neither */
	char compression[32];	/* version 7: "none", "zstd", …; else "" */
	char *clock;		/* the trace clock, named as libtracecmd does;
				 * NULL when the file does not say */
	bool tsc2nsec;		/* TSC2NSEC: libtracecmd hands out ns */
};

/*
 * Read the file's header and options. Returns 0 (also for files of other
 * versions, with version 0), or a negative errno with d saying what is
 * wrong with the file and where (name names it in messages).
 */
int tracedat_file_read(const char *name, const char *path,
		       struct tracedat_file *f, struct diag *d);
void tracedat_file_free(struct tracedat_file *f);

/*
 * Write an uncompressed copy of the compressed version 7 trace.dat at path
 * to out (from offset 0), for a libtracecmd that lacks its algorithm: the
 * sections in their order, each inflated, CPU data page-aligned, every
 * offset the options hold moved with them. Returns 0, or a negative errno
 * with d saying what is wrong with the file.
 */
int tracedat_inflate(const char *name, const char *path, int out,
		     struct diag *d);

/*
 * The same copy without the kallsyms table (an empty one in its place):
 * *kallsyms gets the text (caller frees; NULL when the file has none),
 * for tep_parse_kallsyms() when something first needs a symbol. Parsing
 * the table is most of the cost of opening a small file, and the fields
 * of events never need it.
 */
int tracedat_inflate_lean(const char *name, const char *path, int out,
			  char **kallsyms, struct diag *d);

/* The clock name in the text of tracefs' trace_clock ("local [x86-tsc]"). */
char *tracedat_parse_clock(const char *text, size_t len);

#endif
