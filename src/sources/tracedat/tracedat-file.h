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
#include <stdint.h>

#include "diag.h"

/* One sample of a TIME_SHIFT option (libtracecmd's ts_offset_sample). */
struct tracedat_sample {
	uint64_t time;		/* on the guest's clock */
	int64_t offset;
	uint64_t scaling;
	uint64_t fraction;	/* 0 when the file has no fraction arrays */
};

/*
 * TIME_SHIFT (id 12), as libtracecmd 3.1.6 keeps it: per CPU the samples
 * sorted by time, those of an equal time dropped but the first.
 */
struct tracedat_shift {
	uint64_t peer;		/* the host's trace id */
	uint32_t flags;		/* bit 0: interpolate */
	uint32_t ncpus;
	bool fractions;		/* the file has the fraction arrays */
	uint32_t *n;		/* owned: per CPU its number of samples */
	struct tracedat_sample **s;	/* owned: per CPU its samples */
	uint64_t **start;	/* owned: per CPU per piece (pair of samples
				 * libtracecmd takes) the host time it starts at */
};

/* A host's GUEST option (id 13): a guest and the host threads of its vCPUs. */
struct tracedat_guest {
	char *name;		/* owned */
	uint64_t traceid;	/* the guest's TRACEID */
	uint32_t nvcpus;
	int32_t *pids;		/* owned: per vCPU the host thread running it */
};

/* Where one CPU's data of the top instance lies in the file. */
struct tracedat_cpu {
	uint32_t cpu;
	uint64_t off, size;	/* uncompressed files: bytes of pages */
};

struct tracedat_file {
	unsigned version;	/* 6 or 7; 0 when neither */
	uint32_t page_size;	/* of the ring buffer, as the header says */
	char compression[32];	/* version 7: "none", "zstd", …; else "" */
	char *clock;		/* the trace clock, named as libtracecmd does;
				 * NULL when the file does not say */
	bool clock_option;	/* clock came from TRACECLOCK, not from the
				 * top instance's BUFFER option (a file of
				 * trace-cmd split): only then does
				 * libtracecmd print the raw count */
	bool tsc2nsec;		/* TSC2NSEC: libtracecmd hands out ns */
	bool date;		/* DATE (trace-cmd record --date): libtracecmd
				 * adds its offset: wall-clock times */
	uint32_t tsc2nsec_mult, tsc2nsec_shift;
	char *hostname;		/* owned: UNAME's node name; NULL: none */
	struct tracedat_shift *shift;	/* owned: TIME_SHIFT; NULL: none */
	struct tracedat_guest *guests;	/* owned: GUEST options, in file order */
	size_t nguests;
	/* owned: the top instance's CPU data (v6: its table; v7: its BUFFER
	 * option), where the file says */
	struct tracedat_cpu *cpus;
	uint32_t ncpus;
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
 * offset the options hold moved with them. What could make the copy far
 * larger than the file is damage, refused before anything is written:
 * CPU data that overlap, a size beyond what the compressed bytes can give
 * (zstd's and zlib's own bounds), in the flyrecord and in every other
 * section. Each CPU's size may count its chunk count (trace-cmd 3.2 and
 * later) or not (3.1). A copy larger than the room where out is (free
 * space, ulimit -f) is refused with -ENOSPC and the numbers. out -1:
 * those checks only, nothing written, for libtracecmd to read the file
 * itself: then its uncompressed size must fit in the memory available
 * and ulimit -v (-EFBIG and the numbers). Returns 0, or a negative errno
 * with d saying what is wrong with the file.
 */
int tracedat_inflate(const char *name, const char *path, int out,
		     struct diag *d);

/*
 * Where a copy left the kallsyms table out: the compressed file, still
 * open, and the offset of its kallsyms section.
 */
struct tracedat_kallsyms {
	int fd;			/* -1: nothing left out, or read already */
	uint64_t off;
	uint64_t size;		/* the file's */
	bool big;
};

void tracedat_kallsyms_init(struct tracedat_kallsyms *ks);
/* Close what ks holds; it then holds nothing. */
void tracedat_kallsyms_drop(struct tracedat_kallsyms *ks);

/*
 * The same copy without the kallsyms table (an empty one in its place):
 * ks gets where the table is, for tracedat_kallsyms_read() when something
 * first needs a symbol. Inflating and parsing the table is most of the
 * cost of opening a small file, and the fields of events never need it.
 * What can be checked of the section without inflating it is checked.
 */
int tracedat_inflate_lean(const char *name, const char *path, int out,
			  struct tracedat_kallsyms *ks, struct diag *d);

/*
 * The table ks points at, inflated: *text (caller frees; NULL when ks
 * holds nothing) is its text, NUL-terminated, for tep_parse_kallsyms().
 * ks holds nothing afterwards. f is the file's (its compression). 0, or
 * a negative errno with d saying what is wrong with the section.
 */
int tracedat_kallsyms_read(const char *name, struct tracedat_file *f,
			   struct tracedat_kallsyms *ks, char **text,
			   struct diag *d);

/*
 * The host time libtracecmd 3.1.6 gives a guest record of CPU cpu at guest
 * time ts (trace-input.c: timestamp_host_sync(); its arithmetic, wrapping
 * included), before any TSC2NSEC conversion.
 */
uint64_t tracedat_shift_apply(const struct tracedat_shift *s, uint32_t cpu,
			      uint64_t ts);
/*
 * The guest time ts with tracedat_shift_apply(s, cpu, ts) == host, the
 * smallest when several give host (a scaling below 1); when none does
 * (a step of the offset skips host), the one whose host time is nearest
 * below. Exact where the mapping is one to one.
 */
uint64_t tracedat_shift_invert(const struct tracedat_shift *s, uint32_t cpu,
			       uint64_t host);
/* Parse a TIME_SHIFT option's n bytes at p; NULL when malformed. */
struct tracedat_shift *tracedat_shift_parse(const unsigned char *p, size_t n,
					    bool big);
void tracedat_shift_free(struct tracedat_shift *s);

/* The clock name in the text of tracefs' trace_clock ("local [x86-tsc]"). */
char *tracedat_parse_clock(const char *text, size_t len);

#endif
