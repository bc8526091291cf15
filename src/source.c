// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "source.h"

/* Readers in detection order; kvmtrace, which has no magic, comes last. */
static const struct source_ops *const source_registry[] = {
#ifdef HAVE_TRACECMD
	&source_tracecmd_ops,
#endif
	&source_uftrace_ops,
	&source_kvmtrace_ops,
};

#define SOURCE_NREG (sizeof(source_registry) / sizeof(source_registry[0]))

static const unsigned char source_tracedat_magic[] = {
	0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'
};

static ssize_t source_head(const char *path, unsigned char *head, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, head, len);
	if (n < 0)
		n = -errno;
	close(fd);
	return n;
}

static bool source_is_uftrace_dir(const char *path)
{
	unsigned char head[8];
	char info[4096];

	if ((size_t)snprintf(info, sizeof(info), "%s/info", path) >=
	    sizeof(info))
		return false;
	return source_head(info, head, sizeof(head)) == (ssize_t)sizeof(head) &&
	       !memcmp(head, "Ftrace!", 8);
}

bool source_looks_like_input(const char *path)
{
	unsigned char head[16];
	struct stat st;
	ssize_t n;
	uint32_t w;

	if (stat(path, &st) < 0)
		return false;
	if (S_ISDIR(st.st_mode))
		return source_is_uftrace_dir(path);
	n = source_head(path, head, sizeof(head));
	if (n >= (ssize_t)sizeof(source_tracedat_magic) &&
	    !memcmp(head, source_tracedat_magic, sizeof(source_tracedat_magic)))
		return true;
	if (n < 4)
		return false;
	memcpy(&w, head, 4);
	return w == 0x12345678u || w == 0x78563412u;
}

int source_detect(const char *path, const struct source_ops **ops,
		  struct diag *d)
{
	unsigned char head[64];
	struct stat st;
	bool is_dir = false;
	ssize_t n = 0;
	size_t i;

	*ops = NULL;
	if (!path || !strcmp(path, "-")) {
		*ops = &source_kvmtrace_ops;
		return 0;
	}
	if (stat(path, &st) < 0) {
		int err = errno;

		diag_set(d, "%s: cannot open: %s", path, strerror(err));
		return -err;
	}
	if (S_ISDIR(st.st_mode)) {
		is_dir = true;
		if (!source_is_uftrace_dir(path)) {
			diag_set(d, "%s: is a directory, but not a uftrace data directory (no 'info' file starting with \"Ftrace!\")",
				 path);
			return -EISDIR;
		}
	} else {
		n = source_head(path, head, sizeof(head));
		if (n < 0) {
			diag_set(d, "%s: cannot read: %s", path,
				 strerror((int)-n));
			return (int)n;
		}
	}
	for (i = 0; i < SOURCE_NREG; i++) {
		if (source_registry[i]->probe(path, is_dir ? NULL : head,
					      is_dir ? 0 : (size_t)n, is_dir)) {
			*ops = source_registry[i];
			return 0;
		}
	}
	if (is_dir)
		diag_set(d, "%s: a uftrace data directory, but this kvmtrace_format was built without the uftrace reader",
			 path);
	else
		diag_set(d, "%s: not a trace this kvmtrace_format can read",
			 path);
	return -ENOTSUP;
}

/* NAME.kvmtrace.N: the records of CPU N */
static void source_cpu_hint(struct source *src)
{
	const char *dot = strrchr(src->path, '.');
	const char *tag = ".kvmtrace.";
	size_t tl = strlen(tag);
	char *end;
	unsigned long n;

	if (!dot || dot - src->path < (long)tl - 1)
		return;
	if (strncmp(dot - (tl - 1), tag, tl))
		return;
	errno = 0;
	n = strtoul(dot + 1, &end, 10);
	if (errno || *end || end == dot + 1 || n > UINT32_MAX)
		return;
	src->cpu_hint = (uint32_t)n;
	src->has_cpu_hint = true;
}

struct source *source_create(const struct source_ops *ops, const char *path,
			     unsigned index)
{
	struct source *src = calloc(1, sizeof(*src));

	if (!src)
		return NULL;
	src->ops = ops;
	src->path = strdup(path ? path : "-");
	if (!src->path) {
		free(src);
		return NULL;
	}
	src->name = strcmp(src->path, "-") ? src->path : "<stdin>";
	src->index = index;
	source_cpu_hint(src);
	return src;
}

int source_open(struct source *src, struct diag *d)
{
	return src->ops->open(src, strcmp(src->path, "-") ? src->path : NULL,
			      d);
}

void source_destroy(struct source *src)
{
	if (!src)
		return;
	if (src->priv)
		src->ops->close(src);
	free(src->path);
	free(src);
}
