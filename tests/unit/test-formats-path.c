// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * formats-path: the order of the search of -f NAME (./, then
 * $KVMTRACE_FORMAT_PATH in order, then the data directory), the .yaml
 * suffix, names used as given, and the listing with summaries.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats-path.h"
#include "tap.h"

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) == EOF || fclose(f)) {
		printf("Bail out! cannot write %s\n", path);
		exit(99);
	}
}

static bool found(const char *name, const char *env, const char *datadir,
		  const char *want)
{
	char *p = NULL;
	bool ok;

	if (formats_path_find_in(name, env, datadir, &p) < 0)
		return false;
	ok = !strcmp(p, want);
	if (!ok)
		tap_diag("%s: got %s, want %s", name, p, want);
	free(p);
	return ok;
}

int main(void)
{
	char top[] = "/tmp/ktf-fp.XXXXXX", buf[256], *list = NULL;
	struct tap t = { 0 };
	size_t listlen = 0;
	FILE *mem;

	if (!mkdtemp(top) || chdir(top)) {
		puts("Bail out! no temporary directory");
		return 99;
	}
	if (mkdir("a", 0777) || mkdir("b", 0777) || mkdir("data", 0777) ||
	    mkdir("cwd", 0777) || mkdir("b/dir.yaml", 0777)) {
		puts("Bail out! mkdir");
		return 99;
	}
	put("a/x.yaml", "# summary: x of a\nevents: []\n");
	put("b/x.yaml", "# summary: x of b\n");
	put("b/y", "# first\n# summary: y\tof b\n");
	put("data/z.yaml", "no summary\n");
	put("data/y", "# summary: y of data\n");
	put("cwd/x.yaml", "# summary: x here\n");
	if (chdir("cwd")) {
		puts("Bail out! chdir");
		return 99;
	}
	tap_plan(12);
	tap_ok(&t, found("x", "../a:../b", "../data", "x.yaml"),
	       "./NAME.yaml comes first");
	tap_ok(&t, found("x.yaml", "../a:../b", "../data", "x.yaml"),
	       "./NAME as given comes first");
	if (chdir("..")) {
		puts("Bail out! chdir");
		return 99;
	}
	tap_ok(&t, found("x", "a:b", "data", "a/x.yaml"),
	       "then the path in order: a before b");
	tap_ok(&t, found("x", "b::a", "data", "b/x.yaml"),
	       "then the path in order: b before a, empty entries skipped");
	tap_ok(&t, found("y", "a:b", "data", "b/y"),
	       "NAME without a suffix as it is");
	tap_ok(&t, found("y", "a", "data", "data/y"),
	       "then the data directory");
	tap_ok(&t, found("dir", "b", "data", "dir"),
	       "a directory is not a format: NAME as given");
	tap_ok(&t, found("nosuch", "a:b", "data", "nosuch"),
	       "nothing found: NAME as given, for the loader to report");
	tap_ok(&t, found("a/../b/y", "a", "data", "a/../b/y"),
	       "a NAME with a '/' is a path");
	tap_ok(&t, formats_path_summary("b/y", buf, sizeof(buf)) == 0 &&
			   !strcmp(buf, "y?of b"),
	       "summary: a later line, control bytes shown as '?'");
	tap_ok(&t, formats_path_summary("data/z.yaml", buf, sizeof(buf)) ==
			   -ENOENT,
	       "summary: none");
	mem = open_memstream(&list, &listlen);
	if (!mem || formats_path_list_in(mem, "a:b", "data") < 0 ||
	    fclose(mem)) {
		puts("Bail out! list");
		return 99;
	}
	tap_ok(&t, !strcmp(list, "a:\n"
				 "  x.yaml  x of a\n"
				 "b:\n"
				 "  x.yaml  x of b (hidden by the one above)\n"
				 "  y       y?of b\n"
				 "data:\n"
				 "  y       y of data (hidden by the one above)\n"
				 "  z.yaml  (no \"# summary:\" line)\n"),
	       "the listing, directory by directory");
	if (t.failed)
		tap_diag("listing:\n%s", list);
	free(list);
	snprintf(buf, sizeof(buf), "rm -rf '%s'", top);
	if (system(buf) != 0)
		tap_diag("could not remove %s", top);
	return t.failed ? 1 : 0;
}
