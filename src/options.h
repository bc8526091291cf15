/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command line: getopt_long over argv into a struct options, every
 * value checked on the way (frequencies, offsets, --clock, --stats, the
 * filters), and what only the whole line can tell (standard input given
 * twice, a --clock naming no input, a first argument that is no rule file).
 * Nothing here opens an input or writes a line.
 */
#ifndef KTF_OPTIONS_H
#define KTF_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "event.h"
#include "options-names.h"
#include "source.h"

struct filter;

struct options_input {
	const char *path;	/* borrowed from argv */
	enum domain domain;
	bool qemu_log;		/* --qemu-log: read as QEMU's log backend */
};

/* --clock=INPUT=tsc|ns */
struct options_clock {
	const char *path;	/* borrowed from argv: INPUT is its first len bytes */
	size_t len;
	enum clock_kind clock;
	const char *base;	/* mono, wall: a ns clock named; else NULL */
};

struct options {
	const char *rules_path;	/* NULL: the built-in rules */
	double mhz;
	const char *output;
	bool chrome;		/* also set by --perfetto */
	bool perfetto;		/* --perfetto: protobuf, not JSON */
	bool stats;
	const char *stats_format;
	unsigned stats_top;	/* --stats-top: rows per exit table; 0: default */
	const char *stats_sort;	/* --stats-sort: time, count, max, p99 */
	const char *exits;	/* --exits: csv, jsonl; NULL: not asked */
	const char *host;	/* --host: the machine's name in --exits rows */
	enum source_demangle demangle;	/* uftrace names */
	const char *guest_syms;	/* --guest-syms */
	const char *qemu_events;	/* --qemu-events */
	const char *kallsyms;		/* --kallsyms (perf.data) */
	bool have_offset;
	bool auto_offset;
	int64_t offset;
	double tsc_mhz;
	struct filter *filter;	/* owned */
	struct options_input *inputs;	/* owned */
	size_t ninputs;
	struct options_clock *clocks;	/* owned */
	size_t nclocks;
	const char **counters;	/* owned array of argv's: --counters */
	size_t ncounters;
	bool have_counters_start;	/* --counters-start */
	uint64_t counters_start;
	/* --live */
	bool live;
	const char *live_replay;	/* --live-replay=FILE */
	double duration;	/* --duration, seconds; 0: none */
	double interval;	/* --interval, seconds; 0: the default */
	char *events_list;	/* owned: every --events, joined by commas */
	const char **events_args;	/* owned array of argv's: --events */
	size_t nevents_args;
	bool stdout_closed;	/* set by the caller: it was; /dev/null holds its place */
	struct options_names names;	/* owned: full names of abbreviations */
};

/* What the command line asks for once it is read. */
enum options_action {
	OPTIONS_RUN,
	OPTIONS_HELP,		/* --help: options_usage(stdout) */
	OPTIONS_VERSION,	/* --version */
	OPTIONS_LIST_FORMATS,	/* --list-formats */
};

/*
 * Read argv into o (zeroed by the caller but for stdout_closed). Returns an
 * enum options_action, -EINVAL for a usage error (d says which, possibly
 * over several lines) or -ENOMEM. o owns what it holds either way:
 * options_fini() frees it.
 */
int options_parse(struct options *o, int argc, char **argv, struct diag *d);

/*
 * Is --events a filter of the events read (whose report says what it let
 * through), not the events --live asks the kernel for? Yes but for --live
 * on the kernel's buffers: a --live-replay's pages hold every event
 * recorded, as a recording does.
 */
static inline bool options_events_filter(const struct options *o)
{
	return !o->live || o->live_replay;
}
void options_usage(FILE *f);
void options_fini(struct options *o);

#endif
