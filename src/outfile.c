// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The -o file through a temporary renamed into place (outfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

/*
 * Written in place: truncated (O_TRUNC) or as it is. A file that exists
 * is opened without O_CREAT: fs.protected_regular refuses O_CREAT on
 * another user's file in a sticky directory, even to root.
 */
static int outfile_direct(struct outfile *f, const char *name, int trunc,
			  struct diag *d)
{
	f->fd = open(name, O_WRONLY | O_CLOEXEC | trunc);
	if (f->fd < 0 && errno == ENOENT)
		f->fd = open(name, O_WRONLY | O_CREAT | O_CLOEXEC | trunc, 0666);
	if (f->fd < 0) {
		int err = errno;

		diag_set(d, "%s: cannot create: %s", name, strerror(err));
		return -err;
	}
	return 0;
}

/*
 * The descriptor a name stands for: /dev/stdout, /dev/stderr, /dev/fd/N,
 * /proc/self/fd/N, /proc/PID/fd/N of this process. N, or -1.
 */
static int outfile_fdname(const char *name)
{
	const char *p = NULL;
	char own[48], *end;
	long n;

	if (!strcmp(name, "/dev/stdout"))
		return STDOUT_FILENO;
	if (!strcmp(name, "/dev/stderr"))
		return STDERR_FILENO;
	snprintf(own, sizeof(own), "/proc/%ld/fd/", (long)getpid());
	if (!strncmp(name, "/dev/fd/", 8))
		p = name + 8;
	else if (!strncmp(name, "/proc/self/fd/", 14))
		p = name + 14;
	else if (!strncmp(name, own, strlen(own)))
		p = name + strlen(own);
	if (!p || *p < '0' || *p > '9')
		return -1;
	errno = 0;
	n = strtol(p, &end, 10);
	if (*end || errno || n > INT_MAX)
		return -1;
	return (int)n;
}

/*
 * May we rename over st, a file of directory dir? Not in a sticky
 * directory (/tmp) where neither the file nor the directory is ours,
 * unless we are root (CAP_FOWNER).
 */
static bool outfile_may_rename(const char *dir, const struct stat *st)
{
	uid_t me = geteuid();
	struct stat ds;

	if (stat(dir, &ds) < 0)
		return false;
	return !(ds.st_mode & S_ISVTX) || me == 0 || st->st_uid == me ||
	       ds.st_uid == me;
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

/*
 * The temporary of a file that exists (st): its owner and group, set now,
 * before the run; false when that cannot be (not root): then the file is
 * written in place, keeping them.
 */
static bool outfile_owner(struct outfile *f, const struct stat *st)
{
	struct stat ts;

	if (fstat(f->fd, &ts) < 0)
		return false;
	if (ts.st_uid == st->st_uid && ts.st_gid == st->st_gid)
		return true;
	return fchown(f->fd, st->st_uid, st->st_gid) == 0;
}

/* The temporary made by outfile_temp() goes (the run has not started). */
static void outfile_untemp(struct outfile *f)
{
	if (f->tmp)
		unlink(f->tmp);
	free(f->tmp);
	f->tmp = NULL;
	close(f->fd);
	f->fd = -1;
	free(f->target);
	f->target = NULL;
}

int outfile_open(struct outfile *f, const char *name, struct diag *d)
{
	struct stat st, lst;
	bool exists = false;
	char *dir = NULL;
	int ret, fd, fl;
	mode_t mask;

	f->fd = -1;
	f->target = NULL;
	f->tmp = NULL;
	f->done = false;
	/*
	 * /dev/stdout, /dev/fd/N: the descriptor as it is (a file appended
	 * to stays appended to, at its offset)
	 */
	fd = outfile_fdname(name);
	if (fd >= 0 && (fl = fcntl(fd, F_GETFL)) >= 0 &&
	    (fl & O_ACCMODE) != O_RDONLY) {
		f->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
		if (f->fd < 0) {
			ret = -errno;
			diag_set(d, "%s: cannot write: %s", name,
				 strerror(-ret));
			return ret;
		}
		return 0;
	}
	if (stat(name, &st) == 0) {
		/* a FIFO, a device: as it is */
		if (!S_ISREG(st.st_mode))
			return outfile_direct(f, name, 0, d);
		/* other hard links keep seeing it */
		if (st.st_nlink > 1)
			return outfile_direct(f, name, O_TRUNC, d);
		/* may we write it? (no O_TRUNC: the file stays as it is) */
		fd = open(name, O_WRONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0) {
			ret = -errno;
			diag_set(d, "%s: cannot create: %s", name,
				 strerror(-ret));
			return ret;
		}
		close(fd);
		exists = true;
		f->mode = st.st_mode & 07777;
		/* a symbolic link: the file it points at is replaced */
		f->target = realpath(name, NULL);
	} else if (!strncmp(name, "/dev/", 5) || !strncmp(name, "/proc/", 6)) {
		return outfile_direct(f, name, O_TRUNC, d);
	} else if (errno == ENOENT && lstat(name, &lst) < 0) {
		mask = umask(0);
		umask(mask);
		f->mode = 0666 & ~mask;
		f->target = strdup(name);
	} else {
		/* a dangling symbolic link, a path through a file: as before */
		return outfile_direct(f, name, O_TRUNC, d);
	}
	if (!f->target || !(dir = outfile_dir(f->target))) {
		diag_set(d, "%s: out of memory", name);
		free(f->target);
		f->target = NULL;
		return -ENOMEM;
	}
	/* a rename the sticky bit will refuse at the end: in place */
	if (exists && !outfile_may_rename(dir, &st)) {
		free(dir);
		free(f->target);
		f->target = NULL;
		return outfile_direct(f, name, O_TRUNC, d);
	}
	ret = outfile_temp(f, dir);
	free(dir);
	if (ret == -ENOMEM) {
		diag_set(d, "%s: out of memory", name);
		return ret;
	}
	/* another user's file whose owner we cannot give the temporary */
	if (ret == 0 && exists && !outfile_owner(f, &st)) {
		outfile_untemp(f);
		ret = -EPERM;
	}
	if (ret < 0) {
		/* no room of our own beside it (a directory we cannot write) */
		free(f->target);
		f->target = NULL;
		return outfile_direct(f, name, O_TRUNC, d);
	}
	return 0;
}

/* A name beside target for the nameless temporary: f->tmp. */
static int outfile_link(struct outfile *f)
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
		return -ENOMEM;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", f->fd);
	for (i = 0; i < 1000 && ret == -EEXIST; i++) {
		snprintf(tmp, n, "%s/.kvmtrace_format-%ld-%u", dir,
			 (long)getpid(), i);
		ret = linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) ?
			      -errno : 0;
	}
	free(dir);
	if (ret < 0) {
		free(tmp);
		return ret;
	}
	f->tmp = tmp;
	return 0;
}

/*
 * The rename was refused (the directory changed under the run): copy the
 * output into the target instead. 0 or -errno.
 */
static int outfile_copy(struct outfile *f)
{
	char buf[65536];
	ssize_t n, w, o;
	off_t at = 0;
	int out, ret = 0;

	out = open(f->target, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (out < 0)
		return -errno;
	while ((n = pread(f->fd, buf, sizeof(buf), at)) > 0) {
		for (o = 0; o < n; o += w) {
			w = write(out, buf + o, (size_t)(n - o));
			if (w < 0 && errno == EINTR)
				w = 0;
			else if (w <= 0) {
				ret = w < 0 ? -errno : -EIO;
				goto end;
			}
		}
		at += n;
	}
	if (n < 0)
		ret = -errno;
end:
	if (close(out) < 0 && !ret)
		ret = -errno;
	return ret;
}

int outfile_commit(struct outfile *f, const char *name, struct diag *d)
{
	int ret, copied;

	if (!f->target || f->done)
		return 0;
	/* the old file's mode, or a new file's (after its owner: fchown
	 * clears set-user-ID bits) */
	if (fchmod(f->fd, f->mode) < 0) {
		ret = -errno;
		diag_set(d, "%s: cannot set the mode of the output: %s", name,
			 strerror(-ret));
		return ret;
	}
	if (!f->tmp) {
		ret = outfile_link(f);
		if (ret < 0) {
			/* nameless and no name to give it: in place or lost */
			copied = outfile_copy(f);
			if (copied == 0) {
				f->done = true;
				return 0;
			}
			diag_set(d, "%s: cannot put the output in place: %s (and cannot write it there: %s)",
				 name, strerror(-ret), strerror(-copied));
			return ret;
		}
	}
	if (rename(f->tmp, f->target) < 0) {
		ret = -errno;
		copied = outfile_copy(f);
		if (copied == 0) {
			unlink(f->tmp);
			free(f->tmp);
			f->tmp = NULL;
			f->done = true;
			return 0;
		}
		/* never thrown away: the temporary stays, named */
		diag_set(d, "%s: cannot put the output in place: %s (nor write it there: %s); the output is in %s",
			 name, strerror(-ret), strerror(-copied), f->tmp);
		free(f->tmp);
		f->tmp = NULL;
		return ret;
	}
	free(f->tmp);
	f->tmp = NULL;
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
