/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Long option names as typed (options-names.c): before getopt_long reads
 * argv, every --NAME[=VALUE] is made the option's full name, so that a
 * prefix works where only one option can be meant (--stat is --stats, the
 * one the others start with; --chrom is --chrome) and an unknown or
 * ambiguous name is refused with the names that are close.
 */
#ifndef KTF_OPTIONS_NAMES_H
#define KTF_OPTIONS_NAMES_H

#include <getopt.h>
#include <stddef.h>

#include "diag.h"

/* The strings put into argv in place of abbreviations. */
struct options_names {
	char **s;		/* owned, each owned */
	size_t n, cap;
};

/*
 * Rewrite argv[1..argc) in place: each abbreviated long option of opts
 * (ended by a NULL name) becomes its full name, with its =VALUE; a value
 * in the next word is skipped, as getopt_long takes it (shorts: the getopt
 * string, for -f FILE). "--" ends the options. Unknown and ambiguous
 * names stay as they are, for getopt_long to refuse in their turn. The
 * new strings are added to owned. Returns 0 or -ENOMEM.
 */
int options_names_canon(const struct option *opts, const char *shorts,
			int argc, char **argv, struct options_names *owned);
/*
 * The message for a long option word ("--NAME[=VALUE]") that getopt_long
 * refused: unknown, with the names nearest to it, or ambiguous, with the
 * names it starts; and where help is.
 */
void options_names_unknown(const struct option *opts, const char *word,
			   struct diag *d);
void options_names_fini(struct options_names *owned);

#endif
