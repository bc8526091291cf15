/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The -o file, written so that a failed or interrupted run never leaves a
 * half-written file where the user's old one was: a regular file (or a
 * new name) is written to a temporary file in the same directory, with no
 * name while it is written where the file system allows (O_TMPFILE), and
 * renamed into place at the end, with the old file's mode, owner and
 * group (set on the temporary before the run). What cannot be renamed
 * over is written in place, truncated: a file with other hard links (they
 * keep seeing it), a file in a directory we cannot write to, another
 * user's file whose owner we cannot give the temporary (not root), a file
 * in a sticky directory (/tmp) whose rename would be refused. A name of
 * an open descriptor (/dev/stdout, /dev/fd/N) is that descriptor as it is
 * (appending stays appending); a FIFO or a device is opened as it is. If
 * the rename still fails at the end, the output is copied in place, or
 * the temporary stays and the message names it.
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
