// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uftrace data directories: what every part of the reader uses to find
 * and read a directory's files (paths in it, a file read whole, its
 * lines) and to keep what it says of them (uft_problem()).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uftrace-int.h"

void uft_problem(struct uftrace *uf, const char *fmt, ...)
{
	char **n;
	char *msg;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (ret < 0) {
		uf->nomem = true;
		return;
	}
	n = realloc(uf->problems, (uf->nproblems + 1) * sizeof(*n));
	if (!n) {
		free(msg);
		uf->nomem = true;
		return;
	}
	uf->problems = n;
	uf->problems[uf->nproblems++] = msg;
}

/* Read a metadata file whole, NUL-terminated. 0 or a negative errno. */
int uft_read_file(const char *path, char **out, size_t *lenp)
{
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	int fd, ret = 0;

	*out = NULL;
	/* no wait on a FIFO put there: what is not a file is refused */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		goto end;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -ESPIPE;
		goto end;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		ret = -ENOMEM;
		goto end;
	}
	while (len < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + len, (size_t)st.st_size - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			goto end;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	*out = buf;
	if (lenp)
		*lenp = len;
	buf = NULL;
end:
	free(buf);
	close(fd);
	return ret;
}

char *uft_line(struct uft_lines *it)
{
	char *line = it->p, *nl;

	if (it->p >= it->end)
		return NULL;
	nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
	if (!nl)
		nl = it->end;
	*nl = '\0';
	if (nl > line && nl[-1] == '\r')
		nl[-1] = '\0';
	it->p = nl + 1;
	it->lineno++;
	return line;
}

char *uft_path(const struct uftrace *uf, const char *name)
{
	char *p;

	if (asprintf(&p, "%s/%s", uf->dir, name) < 0)
		return NULL;
	return p;
}

/*
 * DIR/NAME with NAME from fmt ("%s.sym", "sid-%s.map"); NULL with
 * uf->nomem set when memory runs out.
 */
char *uft_pathf(struct uftrace *uf, const char *fmt, ...)
{
	char *name, *p;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&name, fmt, ap);
	va_end(ap);
	if (n < 0) {
		uf->nomem = true;
		return NULL;
	}
	p = uft_path(uf, name);
	free(name);
	if (!p)
		uf->nomem = true;
	return p;
}

const char *uft_basename(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}
