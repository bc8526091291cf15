/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The -o file, written so that a failed or interrupted run never leaves a
 * half-written file where the user's old one was: a regular file (or a
 * new name) is written to a temporary file in the same directory, with no
 * name while it is written where the file system allows (O_TMPFILE), and
 * renamed into place at the end. What cannot be renamed over is written
 * directly: a FIFO, a device, a /dev/ or /proc/ name (/dev/stdout), a file
 * with other hard links (they keep seeing it), a file in a directory we
 * cannot write to.
 */
#ifndef KTF_OUTFILE_H
#define KTF_OUTFILE_H

#include <stdbool.h>
#include <sys/types.h>

#include "diag.h"

struct outfile {
	int fd;			/* where the output goes; -1: not open */
	char *target;		/* owned: what the file replaces; NULL: written in place */
	char *tmp;		/* owned: the temporary's name (no O_TMPFILE), or NULL */
	mode_t mode;		/* of the file at the end */
	bool done;		/* committed */
};

/* Open name for the output. 0, or -errno with d saying why. */
int outfile_open(struct outfile *f, const char *name, struct diag *d);
/*
 * The output is whole (flushed): put it in place. 0, or -errno with d
 * saying why (the old file is then as it was).
 */
int outfile_commit(struct outfile *f, const char *name, struct diag *d);
/* Close; a temporary not committed goes, the old file stays as it was. */
void outfile_close(struct outfile *f);

#endif
