/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shipped formats by name: `-f host-guest` finds host-guest.yaml in the
 * current directory, then in each directory of $KVMTRACE_FORMAT_PATH
 * (colon-separated), then in the installed data directory; --list-formats
 * prints what those directories hold, with each file's "# summary:" line.
 */
#ifndef KTF_FORMATS_PATH_H
#define KTF_FORMATS_PATH_H

#include <stdio.h>

/* The environment variable of the search path. */
#define FORMATS_PATH_ENV "KVMTRACE_FORMAT_PATH"

/* The marker of a format's one-line description, at the start of a line. */
#define FORMATS_SUMMARY "# summary: "

/*
 * The file that the rule file argument NAME means: NAME itself when it
 * exists or holds a '/'; else the first DIR/NAME or DIR/NAME.yaml that is a
 * regular file, DIR running over ".", the directories of env (a
 * colon-separated list, may be NULL) and datadir (may be NULL); else NAME,
 * so that the loader reports it. Returns 0 with *path malloc'd (the
 * caller's), or -ENOMEM.
 */
int formats_path_find_in(const char *name, const char *env,
			 const char *datadir, char **path);

/* formats_path_find_in() with $KVMTRACE_FORMAT_PATH and the data directory. */
int formats_path_find(const char *name, char **path);

/*
 * Print the formats of the directories of env and of datadir, each
 * directory under a heading, each file as "  NAME  SUMMARY" (names sorted;
 * a name an earlier directory already has is marked as hidden by it).
 * Returns 0, or -errno of a failed write or allocation.
 */
int formats_path_list_in(FILE *out, const char *env, const char *datadir);

/* formats_path_list_in() with $KVMTRACE_FORMAT_PATH and the data directory. */
int formats_path_list(FILE *out);

/* The one-line summary of the rule file at path, into buf; 0 or -errno. */
int formats_path_summary(const char *path, char *buf, size_t size);

#endif
