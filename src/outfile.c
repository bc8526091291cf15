// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The -o file through a temporary renamed into place (outfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

/* Written in place, truncated (as before there was a temporary). */
static int outfile_direct(struct outfile *f, const char *name,
			  struct diag *d)
{
	f->fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (f->fd < 0) {
		int err = errno;

		diag_set(d, "%s: cannot create: %s", name, strerror(err));
		return -err;
	}
	return 0;
}

/* The directory of path, malloc'd ("." for a bare name). */
static char *outfile_dir(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/* The temporary in dir: nameless if it can be, else dir/.kvmtrace_format-XXXXXX. */
static int outfile_temp(struct outfile *f, const char *dir)
{
	char proc[64];
	size_t n;

#ifdef O_TMPFILE
	f->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
	if (f->fd >= 0) {
		/* linked by its /proc name at the end: that must exist */
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", f->fd);
		if (access(proc, F_OK) == 0)
			return 0;
		close(f->fd);
		f->fd = -1;
	} else if (errno == EACCES || errno == EROFS || errno == EPERM ||
		   errno == ENOENT || errno == ENOTDIR) {
		return -errno;
	}
#else
	(void)proc;
#endif
	n = strlen(dir) + sizeof("/.kvmtrace_format-XXXXXX");
	f->tmp = malloc(n);
	if (!f->tmp)
		return -ENOMEM;
	snprintf(f->tmp, n, "%s/.kvmtrace_format-XXXXXX", dir);
	f->fd = mkostemp(f->tmp, O_CLOEXEC);
	if (f->fd < 0) {
		int err = errno;

		free(f->tmp);
		f->tmp = NULL;
		return -err;
	}
	return 0;
}

int outfile_open(struct outfile *f, const char *name, struct diag *d)
{
	struct stat st, lst;
	char *dir = NULL;
	mode_t mask;
	int ret, fd;

	f->fd = -1;
	f->target = NULL;
	f->tmp = NULL;
	f->done = false;
	/* /dev/stdout, /dev/fd/N, /proc/self/fd/N: an open file, in place */
	if (!strncmp(name, "/dev/", 5) || !strncmp(name, "/proc/", 6))
		return outfile_direct(f, name, d);
	if (stat(name, &st) == 0) {
		if (!S_ISREG(st.st_mode) || st.st_nlink > 1)
			return outfile_direct(f, name, d);
		/* may we write it? (no O_TRUNC: the file stays as it is) */
		fd = open(name, O_WRONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0) {
			ret = -errno;
			diag_set(d, "%s: cannot create: %s", name,
				 strerror(-ret));
			return ret;
		}
		close(fd);
		f->mode = st.st_mode & 07777;
		/* a symbolic link: the file it points at is replaced */
		f->target = realpath(name, NULL);
	} else if (errno == ENOENT && lstat(name, &lst) < 0) {
		mask = umask(0);
		umask(mask);
		f->mode = 0666 & ~mask;
		f->target = strdup(name);
	} else {
		/* a dangling symbolic link, a path through a file: as before */
		return outfile_direct(f, name, d);
	}
	if (!f->target || !(dir = outfile_dir(f->target))) {
		diag_set(d, "%s: out of memory", name);
		free(f->target);
		f->target = NULL;
		return -ENOMEM;
	}
	ret = outfile_temp(f, dir);
	free(dir);
	if (ret == -ENOMEM) {
		diag_set(d, "%s: out of memory", name);
		return ret;
	}
	if (ret < 0) {
		/* no room of our own beside it (a directory we cannot write) */
		free(f->target);
		f->target = NULL;
		return outfile_direct(f, name, d);
	}
	return 0;
}

/* A name for the nameless temporary beside target, then the rename. */
static int outfile_link(struct outfile *f, struct diag *d, const char *name)
{
	char proc[64], *dir, *tmp;
	unsigned i;
	size_t n;
	int ret = -EEXIST;

	dir = outfile_dir(f->target);
	n = dir ? strlen(dir) + 64 : 0;
	tmp = dir ? malloc(n) : NULL;
	if (!tmp) {
		free(dir);
		diag_set(d, "%s: out of memory", name);
		return -ENOMEM;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", f->fd);
	for (i = 0; i < 1000 && ret == -EEXIST; i++) {
		snprintf(tmp, n, "%s/.kvmtrace_format-%ld-%u", dir,
			 (long)getpid(), i);
		ret = linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) ?
			      -errno : 0;
	}
	if (ret == 0 && rename(tmp, f->target) < 0) {
		ret = -errno;
		unlink(tmp);
	}
	if (ret < 0)
		diag_set(d, "%s: cannot put the output in place: %s", name,
			 strerror(-ret));
	free(tmp);
	free(dir);
	return ret;
}

int outfile_commit(struct outfile *f, const char *name, struct diag *d)
{
	int ret;

	if (!f->target || f->done)
		return 0;
	/* the old file's mode, or a new file's */
	if (fchmod(f->fd, f->mode) < 0) {
		ret = -errno;
		diag_set(d, "%s: cannot set the mode of the output: %s", name,
			 strerror(-ret));
		return ret;
	}
	if (!f->tmp) {
		ret = outfile_link(f, d, name);
		if (ret < 0)
			return ret;
	} else if (rename(f->tmp, f->target) < 0) {
		ret = -errno;
		diag_set(d, "%s: cannot put the output in place: %s", name,
			 strerror(-ret));
		return ret;
	} else {
		free(f->tmp);
		f->tmp = NULL;
	}
	f->done = true;
	return 0;
}

void outfile_close(struct outfile *f)
{
	if (f->tmp)
		unlink(f->tmp);
	if (f->fd >= 0)
		close(f->fd);
	free(f->tmp);
	free(f->target);
	f->fd = -1;
	f->tmp = NULL;
	f->target = NULL;
}
