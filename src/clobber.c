// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * -o against the files the run reads (clobber.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clobber.h"

/* Is st (a file that exists) the output's file? Devices may be shared. */
static bool same_file(const struct stat *out, const struct stat *st)
{
	return out->st_dev == st->st_dev && out->st_ino == st->st_ino &&
	       !S_ISCHR(out->st_mode);
}

/* A file of directory dir (depth: levels below it) that is the output. */
static const char *dir_holds(const char *dir, const struct stat *out,
			     int depth, char *buf, size_t len)
{
	const char *hit = NULL;
	struct dirent *e;
	DIR *dp;

	dp = opendir(dir);
	if (!dp)
		return NULL;
	while (!hit && (e = readdir(dp))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if ((size_t)snprintf(buf, len, "%s/%s", dir, e->d_name) >= len)
			continue;
		if (stat(buf, &st) < 0)
			continue;
		if (same_file(out, &st))
			hit = buf;
		else if (S_ISDIR(st.st_mode) && depth > 0) {
			char *sub = strdup(buf);

			if (sub)
				hit = dir_holds(sub, out, depth - 1, buf, len);
			free(sub);
		}
	}
	closedir(dp);
	return hit;
}

int clobber_check(const struct options *o, const char *rules_file,
		  struct diag *d)
{
	char buf[4096];
	struct stat out, st;
	bool reads_stdin = !o->ninputs;
	const char *what = NULL, *hit = NULL;
	size_t i;

	if (!o->output || stat(o->output, &out) < 0)
		return 0;
	if (rules_file && stat(rules_file, &st) == 0 && same_file(&out, &st)) {
		what = "the rule file";
		hit = rules_file;
	}
	if (!what && o->guest_syms && stat(o->guest_syms, &st) == 0 &&
	    same_file(&out, &st)) {
		what = "the --guest-syms file";
		hit = o->guest_syms;
	}
	for (i = 0; !what && i < o->ninputs; i++) {
		const char *p = o->inputs[i].path;

		if (!strcmp(p, "-")) {
			reads_stdin = true;
			continue;
		}
		if (stat(p, &st) < 0)
			continue;
		if (same_file(&out, &st)) {
			what = "an input";
			hit = p;
		} else if (S_ISDIR(st.st_mode) &&
			   (hit = dir_holds(p, &out, 2, buf, sizeof(buf)))) {
			what = "a file of the input directory";
		}
	}
	if (!what && reads_stdin && fstat(STDIN_FILENO, &st) == 0 &&
	    same_file(&out, &st)) {
		what = "standard input";
		hit = "-";
	}
	if (!what)
		return 0;
	diag_set(d, "-o %s: that is %s (%s); it would be destroyed before it is read: write the output elsewhere",
		 o->output, what, hit);
	return -EEXIST;
}
