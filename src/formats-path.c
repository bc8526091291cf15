// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Shipped formats by name: the search of `-f NAME` and --list-formats.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats-path.h"

#ifndef FORMATSDIR
#define FORMATSDIR NULL
#endif

static bool fp_is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool fp_has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* dir/name[suffix] into a new string if it is a regular file, else NULL. */
static int fp_try(const char *dir, size_t dirlen, const char *name,
		  const char *suffix, char **path)
{
	size_t len = dirlen + 1 + strlen(name) + strlen(suffix) + 1;
	char *p = malloc(len);

	if (!p)
		return -ENOMEM;
	snprintf(p, len, "%.*s/%s%s", (int)dirlen, dir, name, suffix);
	if (fp_is_file(p)) {
		*path = p;
		return 1;
	}
	free(p);
	return 0;
}

/* Try dir/name, then dir/name.yaml: 1 found, 0 not, -ENOMEM. */
static int fp_try_dir(const char *dir, size_t dirlen, const char *name,
		      char **path)
{
	int ret;

	if (!dirlen)
		return 0;
	ret = fp_try(dir, dirlen, name, "", path);
	if (ret || fp_has_suffix(name, ".yaml") || fp_has_suffix(name, ".yml"))
		return ret;
	return fp_try(dir, dirlen, name, ".yaml", path);
}

int formats_path_find_in(const char *name, const char *env,
			 const char *datadir, char **path)
{
	struct stat st;
	int ret = 0;

	*path = NULL;
	if (!*name || strchr(name, '/') || stat(name, &st) == 0)
		goto as_given;
	/* ./NAME does not exist: ./NAME.yaml, then the search path */
	ret = fp_try_dir(".", 1, name, path);
	while (!ret && env && *env) {
		const char *colon = strchr(env, ':');
		size_t len = colon ? (size_t)(colon - env) : strlen(env);

		ret = fp_try_dir(env, len, name, path);
		env = colon ? colon + 1 : NULL;
	}
	if (!ret && datadir)
		ret = fp_try_dir(datadir, strlen(datadir), name, path);
	if (ret < 0)
		return ret;
	if (ret > 0) {
		/* "./x.yaml" reads better as "x.yaml" in messages */
		if (!strncmp(*path, "./", 2))
			memmove(*path, *path + 2, strlen(*path + 2) + 1);
		return 0;
	}
as_given:
	*path = strdup(name);
	return *path ? 0 : -ENOMEM;
}

/*
 * Where the shipped formats are: FORMATSDIR, where make install puts
 * them; but a binary run where it was built, not installed, uses the
 * source tree's formats/ (they match it, and nothing may be installed).
 */
static const char *fp_datadir(char buf[PATH_MAX])
{
#if defined(KTF_BUILDDIR) && defined(KTF_SRCFORMATS)
	char exe[PATH_MAX], *slash, *build;
	bool here = false;
	ssize_t n;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return FORMATSDIR;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return FORMATSDIR;
	*slash = '\0';
	build = realpath(KTF_BUILDDIR, NULL);
	here = build && !strcmp(build, exe);
	free(build);
	/* the name without "build/dev/../.." */
	if (here)
		return realpath(KTF_SRCFORMATS, buf) ? buf : KTF_SRCFORMATS;
#else
	(void)buf;
#endif
	return FORMATSDIR;
}

int formats_path_find(const char *name, char **path)
{
	char buf[PATH_MAX];

	return formats_path_find_in(name, getenv(FORMATS_PATH_ENV),
				    fp_datadir(buf), path);
}

int formats_path_summary(const char *path, char *buf, size_t size)
{
	char head[4096];
	size_t mlen = strlen(FORMATS_SUMMARY), n, i;
	ssize_t got;
	char *p;
	int fd;

	if (size)
		buf[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	got = read(fd, head, sizeof(head) - 1);
	close(fd);
	if (got < 0)
		return -errno;
	head[got] = '\0';
	/* the marker at the start of a line among the first 4 KiB */
	for (p = head; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, FORMATS_SUMMARY, mlen))
			continue;
		p += mlen;
		n = strcspn(p, "\r\n");
		for (i = 0; i < n && i + 1 < size; i++)
			/* never a control byte to the terminal */
			buf[i] = (unsigned char)p[i] < 0x20 || p[i] == 0x7f ? '?' : p[i];
		if (size)
			buf[i < size ? i : size - 1] = '\0';
		return 0;
	}
	return -ENOENT;
}

static int fp_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the regular, visible files of dir, sorted; NULL-terminated. */
static int fp_scan(const char *dir, char ***names, size_t *count)
{
	struct dirent *de;
	char **v = NULL, **nv;
	size_t n = 0;
	DIR *d;
	int ret = 0;

	*names = NULL;
	*count = 0;
	d = opendir(dir);
	if (!d)
		return 0;	/* nothing there: nothing to list */
	while ((de = readdir(d))) {
		size_t len = strlen(dir) + strlen(de->d_name) + 2;
		char *full;
		bool keep;

		if (de->d_name[0] == '.')
			continue;
		full = malloc(len);
		if (!full) {
			ret = -ENOMEM;
			break;
		}
		snprintf(full, len, "%s/%s", dir, de->d_name);
		keep = fp_is_file(full);
		free(full);
		if (!keep)
			continue;
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv || !(nv[n] = strdup(de->d_name))) {
			v = nv ? nv : v;
			ret = -ENOMEM;
			break;
		}
		v = nv;
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), fp_cmp);
	*names = v;
	*count = n;
	return ret;
}

static void fp_free_names(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Is name among the formats of the directories before this one? */
static bool fp_seen(char ***seen, size_t *nseen, size_t ndirs,
		    const char *name)
{
	size_t i, j;

	for (i = 0; i < ndirs; i++)
		for (j = 0; j < nseen[i]; j++)
			if (!strcmp(seen[i][j], name))
				return true;
	return false;
}

static int fp_list_dir(FILE *out, const char *dir, char ***seen,
		       size_t *nseen, size_t idx)
{
	char summary[200];
	size_t i, width = 0;
	int ret;

	ret = fp_scan(dir, &seen[idx], &nseen[idx]);
	if (ret < 0 || !nseen[idx])
		return ret;
	for (i = 0; i < nseen[idx]; i++)
		if (strlen(seen[idx][i]) > width)
			width = strlen(seen[idx][i]);
	fprintf(out, "%s:\n", dir);
	for (i = 0; i < nseen[idx]; i++) {
		const char *name = seen[idx][i];
		size_t len = strlen(dir) + strlen(name) + 2;
		char *full = malloc(len);

		if (!full)
			return -ENOMEM;
		snprintf(full, len, "%s/%s", dir, name);
		if (formats_path_summary(full, summary, sizeof(summary)) < 0)
			snprintf(summary, sizeof(summary), "(no \"%.*s\" line)",
				 (int)strlen(FORMATS_SUMMARY) - 1, FORMATS_SUMMARY);
		free(full);
		fprintf(out, "  %-*s  %s%s\n", (int)width, name, summary,
			fp_seen(seen, nseen, idx, name) ?
				" (hidden by the one above)" : "");
	}
	return 0;
}

int formats_path_list_in(FILE *out, const char *env, const char *datadir)
{
	size_t ndirs = 1, i, used = 0, listed = 0;
	char ***seen = NULL;
	size_t *nseen = NULL;
	const char *p;
	int ret = 0;

	for (p = env; p && *p; p++)
		ndirs += *p == ':';
	ndirs += env && *env;
	seen = calloc(ndirs, sizeof(*seen));
	nseen = calloc(ndirs, sizeof(*nseen));
	if (!seen || !nseen) {
		ret = -ENOMEM;
		goto end;
	}
	for (p = env; !ret && p && *p;) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		char *dir = strndup(p, len);

		if (!dir) {
			ret = -ENOMEM;
			break;
		}
		if (len)
			ret = fp_list_dir(out, dir, seen, nseen, used++);
		free(dir);
		p = colon ? colon + 1 : NULL;
	}
	if (!ret && datadir)
		ret = fp_list_dir(out, datadir, seen, nseen, used++);
	for (i = 0; i < used; i++)
		listed += nseen[i];
	if (!ret && !listed)
		fprintf(out, "no formats found in $%s (%s) nor in %s\n",
			FORMATS_PATH_ENV, env && *env ? env : "unset",
			datadir ? datadir : "(no data directory)");
end:
	for (i = 0; seen && i < used; i++)
		fp_free_names(seen[i], nseen[i]);
	free(seen);
	free(nseen);
	if (!ret && (fflush(out) == EOF || ferror(out)))
		ret = -EIO;
	return ret;
}

int formats_path_list(FILE *out)
{
	char buf[PATH_MAX];

	return formats_path_list_in(out, getenv(FORMATS_PATH_ENV),
				    fp_datadir(buf));
}
