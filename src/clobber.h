/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -o must not name a file the run reads: the rule file (as -f NAME found
 * it: rules_file), the --guest-syms file, an input, a file in an input's
 * directory (two levels down: a uftrace data directory), or standard
 * input; it would be truncated before it is read, or replaced after. Same inode:
 * hard links, symlinks and /dev/fd/N count. Character devices (/dev/null,
 * a terminal) may be shared.
 */
#ifndef KTF_CLOBBER_H
#define KTF_CLOBBER_H

#include "diag.h"
#include "options.h"

/*
 * 0, or -EEXIST with d saying which file the output is. rules_file: the
 * rule file the run opens (formats_path_find()'s answer), or NULL.
 */
int clobber_check(const struct options *o, const char *rules_file,
		  struct diag *d);

#endif
