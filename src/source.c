// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "signature.h"
#include "source.h"

/* Readers in detection order; kvmtrace, which has no magic, comes last. */
static const struct source_ops *const source_registry[] = {
#ifdef HAVE_TRACECMD
	&source_tracecmd_ops,
	&source_perf_ops,
#endif
	&source_uftrace_ops,
	&source_qemu_simple_ops,
	&source_qemu_log_ops,
	&source_kvmtrace_ops,
};

#define SOURCE_NREG (sizeof(source_registry) / sizeof(source_registry[0]))

static const unsigned char source_tracedat_magic[] = {
	0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'
};

/* Bytes a probe reads; a stream's reader gets them back. */
#define SOURCE_PROBE	64
/* The first bytes a kvmtrace record always has (hdr, pid, vcpu). */
#define SOURCE_TEXT_MIN	12

/* Read up to len bytes (a pipe hands them out in pieces); -errno. */
static ssize_t source_read_full(int fd, unsigned char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, buf + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

static ssize_t source_head(const char *path, unsigned char *head, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	n = source_read_full(fd, head, len);
	close(fd);
	return n;
}

static bool source_is_uftrace_dir(const char *path)
{
	unsigned char head[8];
	char info[4096];
	struct stat st;

	if ((size_t)snprintf(info, sizeof(info), "%s/info", path) >=
	    sizeof(info))
		return false;
	if (stat(info, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	return source_head(info, head, sizeof(head)) == (ssize_t)sizeof(head) &&
	       !memcmp(head, "Ftrace!", 8);
}

static bool source_has_magic(const unsigned char *head, size_t n)
{
	uint32_t w;

	if (n >= sizeof(source_tracedat_magic) &&
	    !memcmp(head, source_tracedat_magic, sizeof(source_tracedat_magic)))
		return true;
	if (n < 4)
		return false;
	memcpy(&w, head, 4);
	return w == 0x12345678u || w == 0x78563412u;
}

/* Control bytes other than white space: not a rule file. */
static bool source_is_binary(const unsigned char *head, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		/* a NUL is binary (strchr() would find the terminator) */
		if ((head[i] < 0x20 &&
		     (!head[i] || !strchr("\t\n\v\f\r", head[i]))) ||
		    head[i] == 0x7f)
			return true;
	return false;
}

const char *source_input_kind(const char *path, bool binary)
{
	unsigned char head[SOURCE_PROBE];
	struct stat st;
	ssize_t n;

	if (!strcmp(path, "-"))
		return "standard input";
	if (stat(path, &st) < 0)
		return NULL;
	if (S_ISDIR(st.st_mode))
		return source_is_uftrace_dir(path) ? "a uftrace data directory"
						   : NULL;
	/* a pipe or a FIFO: a rule file is a file; never read it twice */
	if (!S_ISREG(st.st_mode))
		return S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) ||
		       S_ISSOCK(st.st_mode) ? "a stream" : NULL;
	n = source_head(path, head, sizeof(head));
	if (n <= 0)
		return NULL;
	if (source_qemu_simple_magic(head, (size_t)n))
		return "a QEMU simple trace";
	if (source_qemu_log_probe(head, (size_t)n))
		return "a QEMU log";
	if (source_has_magic(head, (size_t)n))
		return head[0] == 0x17 ? "a trace.dat file" : "a kvmtrace stream";
	if (signature_saved_stats(head, (size_t)n))
		return "statistics saved by --stats=json";
	if (n >= 8 && (!memcmp(head, "PERFILE2", 8) ||
		       !memcmp(head, "2ELIFREP", 8) ||
		       !memcmp(head, "PERFFILE", 8)))
		return "a perf.data file";
	if (binary && source_is_binary(head, (size_t)n < SOURCE_TEXT_MIN ?
						  (size_t)n : SOURCE_TEXT_MIN))
		return "binary data (a kvmtrace stream?)";
	return NULL;
}

/*
 * An empty file with no name anyone sees: an O_TMPFILE in dir, else a
 * mkstemp() file unlinked at once, so the copy goes away with the
 * process however it ends, SIGINT, SIGTERM and SIGKILL included. Its
 * reader opens it as /proc/self/fd/N. The descriptor, or -errno.
 */
static int source_unnamed(const char *dir)
{
	char *name;
	int fd;

#ifdef O_TMPFILE
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
#endif
	if (asprintf(&name, "%s/kvmtrace_format-in-XXXXXX", dir) < 0)
		return -ENOMEM;
	fd = mkostemp(name, O_CLOEXEC);
	if (fd < 0)
		fd = -errno;
	else
		unlink(name);
	free(name);
	return fd;
}

/* Copy the rest of a stream after its head to a file without a name. */
static int source_spool(struct source *src, struct diag *d)
{
	const char *dir = getenv("TMPDIR");
	unsigned char *buf;
	int out, ret = 0;
	ssize_t n;

	if (!dir || !*dir)
		dir = "/tmp";
	out = source_unnamed(dir);
	if (out < 0) {
		diag_set(d, "%s: %s cannot be read from a pipe, and there is no room for a copy in %s: %s; give a file",
			 src->name, src->ops->kind, dir, strerror(-out));
		return out;
	}
	if (asprintf(&src->open_path, "/proc/self/fd/%d", out) < 0) {
		src->open_path = NULL;
		close(out);
		diag_set(d, "%s: out of memory", src->name);
		return -ENOMEM;
	}
	src->spool_fd = out;
	buf = malloc(1u << 16);
	if (!buf) {
		diag_set(d, "%s: out of memory", src->name);
		return -ENOMEM;
	}
	memcpy(buf, src->head, src->head_len);
	n = (ssize_t)src->head_len;
	while (n > 0) {
		size_t w = 0;

		while (w < (size_t)n) {
			ssize_t k = write(out, buf + w, (size_t)n - w);

			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0) {
				ret = -errno;
				diag_set(d, "%s: cannot copy it from the pipe to %s: %s",
					 src->name, dir, strerror(errno));
				goto end;
			}
			w += (size_t)k;
		}
		do
			n = read(src->fd, buf, 1u << 16);
		while (n < 0 && errno == EINTR);
		if (n < 0) {
			ret = -errno;
			diag_set(d, "%s: cannot read: %s", src->name,
				 strerror(errno));
			goto end;
		}
	}
end:
	free(buf);
	if (src->own_fd)
		close(src->fd);
	src->fd = -1;
	free(src->head);
	src->head = NULL;
	src->head_len = 0;
	return ret;
}

static int source_pick(struct source *src, bool is_dir, struct diag *d)
{
	const struct signature *sig;
	size_t i;

	for (i = 0; i < SOURCE_NREG; i++) {
		if (source_registry[i]->probe(src->path,
					      is_dir ? NULL : src->head,
					      is_dir ? 0 : src->head_len,
					      is_dir)) {
			src->ops = source_registry[i];
			break;
		}
	}
	if (!src->ops) {
		if (is_dir)
			diag_set(d, "%s: a uftrace data directory, but this kvmtrace_format was built without the uftrace reader",
				 src->name);
		else
			diag_set(d, "%s: not a trace this kvmtrace_format can read",
				 src->name);
		return -ENOTSUP;
	}
	/* kvmtrace has no magic word: the signature of something else */
	sig = src->ops == &source_kvmtrace_ops ?
		      signature_find(src->head, src->head_len) : NULL;
	/* text: a QEMU log without stamps, by its first event's name */
	if (sig && !strcmp(sig->what, "text") &&
	    source_qemu_log_unstamped(src->path, src->head, src->head_len,
				      src->qemu_events)) {
		src->ops = &source_qemu_log_ops;
		sig = NULL;
	}
	if (sig && !strcmp(sig->what, "text"))
		diag_set(d, "%s: this looks like a rule file (text), not a trace; put it first or give it with -f",
			 src->name);
	else if (sig)
		diag_set(d, "%s: this is %s, not a trace that kvmtrace_format reads; %s",
			 src->name, sig->what, sig->advice);
	return sig ? -EINVAL : 0;
}

/* A stream read to its end: its reader reads on from /dev/null. */
static void source_ended(struct source *src)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (null < 0)
		return;
	if (src->own_fd)
		close(src->fd);
	src->fd = null;
	src->own_fd = true;
}

int source_probe(struct source *src, struct diag *d)
{
	bool stdin_ = !strcmp(src->path, "-");
	struct stat st;
	ssize_t n;
	int err;

	if (!stdin_ && stat(src->path, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (!source_is_uftrace_dir(src->path)) {
			diag_set(d, "%s: is a directory, but not a uftrace data directory (no 'info' file starting with \"Ftrace!\")",
				 src->name);
			return -EISDIR;
		}
		src->open_path = strdup(src->path);
		if (!src->open_path)
			goto nomem;
		return source_pick(src, true, d);
	}
	if (stdin_) {
		src->fd = STDIN_FILENO;
		src->own_fd = false;
	} else {
		/* once: a FIFO opened twice loses its writer */
		src->fd = open(src->path, O_RDONLY | O_CLOEXEC);
		if (src->fd < 0) {
			err = errno;
			diag_set(d, "%s: cannot open: %s", src->name,
				 strerror(err));
			return -err;
		}
		src->own_fd = true;
	}
	if (fstat(src->fd, &st) < 0) {
		err = errno;
		diag_set(d, "%s: cannot open: %s", src->name, strerror(err));
		return -err;
	}
	src->head = malloc(SOURCE_PROBE);
	if (!src->head)
		goto nomem;
	if (S_ISREG(st.st_mode)) {
		/* a file: look without moving; its reader opens it by name */
		off_t at = lseek(src->fd, 0, SEEK_CUR);

		n = pread(src->fd, src->head, SOURCE_PROBE, at < 0 ? 0 : at);
		while (n < 0 && errno == EINTR)
			n = pread(src->fd, src->head, SOURCE_PROBE,
				  at < 0 ? 0 : at);
		if (n < 0)
			n = -errno;
	} else {
		n = source_read_full(src->fd, src->head, SOURCE_PROBE);
		/* the end came (a terminal's Ctrl-D reads as 0 once): no more reads */
		if (n >= 0 && n < SOURCE_PROBE)
			source_ended(src);
	}
	if (n < 0) {
		diag_set(d, "%s: cannot read: %s", src->name,
			 strerror((int)-n));
		return (int)n;
	}
	src->head_len = (size_t)n;
	err = source_pick(src, false, d);
	if (err < 0)
		return err;
	/* a file of 0 bytes: said, not taken for anything it holds */
	if (!n && !stdin_ && S_ISREG(st.st_mode) && !src->note &&
	    !(src->note = strdup("empty (0 bytes): no events")))
		goto nomem;
	if (S_ISREG(st.st_mode)) {
		/* standard input: the reader reads on from where it is */
		src->head_len = 0;
		if (stdin_ && src->ops->stream)
			return 0;
		/* /dev/stdin opens the file standard input is, anew */
		src->open_path = strdup(stdin_ ? "/dev/stdin" : src->path);
		if (!src->open_path)
			goto nomem;
		if (src->own_fd)
			close(src->fd);
		src->fd = -1;
		return 0;
	}
	if (src->ops->stream)
		return 0;
	/* a reader that seeks: copy the stream to a file */
	return source_spool(src, d);
nomem:
	diag_set(d, "%s: out of memory", src->name);
	return -ENOMEM;
}

int source_detect(const char *path, const struct source_ops **ops,
		  struct diag *d)
{
	struct source *src = source_create(NULL, path, 0);
	int ret;

	*ops = NULL;
	if (!src) {
		diag_set(d, "out of memory");
		return -ENOMEM;
	}
	ret = source_probe(src, d);
	if (ret == 0)
		*ops = src->ops;
	source_destroy(src);
	return ret;
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
	src->fd = -1;
	src->spool_fd = -1;
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

struct source *source_reopen(const struct source *from)
{
	struct source *src = source_create(from->ops, from->path, from->index);

	if (!src)
		return NULL;
	if (from->open_path) {
		src->open_path = strdup(from->open_path);
		if (!src->open_path) {
			source_destroy(src);
			return NULL;
		}
	}
	src->domain = from->domain;
	src->qemu_events = from->qemu_events;
	src->kallsyms = from->kallsyms;
	return src;
}

int source_open(struct source *src, struct diag *d)
{
	int ret;

	if (!src->ops) {
		ret = source_probe(src, d);
		if (ret < 0)
			return ret;
	} else if (!src->open_path && src->fd < 0) {
		/* made with its reader: the path as it is */
		if (strcmp(src->path, "-")) {
			src->open_path = strdup(src->path);
			if (!src->open_path) {
				diag_set(d, "%s: out of memory", src->name);
				return -ENOMEM;
			}
		} else {
			src->fd = STDIN_FILENO;
		}
	}
	ret = src->ops->open(src, src->open_path, d);
	if (ret == 0 && src->hostname) {
		/* FNV-1a of the name: the machine, never 0 */
		uint32_t h = 2166136261u;

		for (const char *c = src->hostname; *c; c++)
			h = (h ^ (unsigned char)*c) * 16777619u;
		src->machine = (h & 0xfffff) | 1;
	}
	return ret;
}

void source_destroy(struct source *src)
{
	if (!src)
		return;
	if (src->priv)
		src->ops->close(src);
	if (src->own_fd && src->fd >= 0)
		close(src->fd);
	if (src->spool_fd >= 0)
		close(src->spool_fd);
	free(src->open_path);
	free(src->head);
	free(src->note);
	free(src->hostname);
	free(src->path);
	free(src);
}
