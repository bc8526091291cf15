/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: QEMU's readers (the simple trace and the log) and the
 * trace-events dictionary they read.
 *
 * Input: a mode byte, then the dictionary (trace-events text), FUZZ_SEP,
 * and the trace. Mode bit 0: the trace is read as a log by name, as
 * --qemu-log does (no probe); else its reader is the one the probe finds
 * (a simple trace by its magic, a log by its stamp or first event name).
 * Bit 1: the trace comes through a pipe on standard input, written
 * (mode >> 2) + 1 bytes at a time by a thread. run-fuzz.sh packs the
 * QEMU fixtures this way.
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz-source.h"

#define FUZZ_SEP "\n==KTF-FILE==\n"

static void drain(const char *path, const struct source_ops *ops,
		  const char *dict)
{
	struct source *src = source_create(ops, path, 0);
	struct outbuf *out = NULL;
	const char *names[64];
	struct event ev;
	struct diag d;
	unsigned long n = 0;
	int fd = -1;

	diag_init(&d);
	if (!src)
		return;
	src->qemu_events = dict;
	src->lone = true;
	/* only QEMU's readers (a trace.dat would cost the guard's fork) */
	if (!ops && source_probe(src, &d) < 0)
		goto end;
	if (src->ops != &source_qemu_simple_ops &&
	    src->ops != &source_qemu_log_ops)
		goto end;
	if (source_open(src, &d) < 0)
		goto end;
	fd = open("/dev/null", O_WRONLY);
	out = outbuf_create(fd);
	if (!out)
		goto end;
	for (;;) {
		size_t i, nf;

		memset(&ev, 0, sizeof(ev));
		if (n++ >= FUZZ_MAX_EVENTS || src->ops->next(src, &ev, &d) <= 0)
			break;
		nf = src->ops->fields(src, ev.type, names, 64);
		for (i = 0; i < nf && i < 64; i++) {
			struct value v;
			int idx = src->ops->bind(src, ev.type, names[i]);

			if (idx >= 0)
				src->ops->field(src, &ev, idx, &v);
		}
		src->ops->render_default(src, &ev, out);
	}
end:
	if (out)
		outbuf_destroy(out);
	if (fd >= 0)
		close(fd);
	source_destroy(src);
}

/* drain() of standard input, as the fuzz_from_stdin() hook */
struct stdin_read {
	const struct source_ops *ops;
	const char *dict;
};

static void read_stdin(void *arg)
{
	const struct stdin_read *r = arg;

	drain("-", r->ops, r->dict);
}

/* A file of n bytes at p with no name: its path is /proc/self/fd/N. */
static int put(const char *what, const uint8_t *p, size_t n, char *path,
	       size_t size)
{
	int fd = memfd_create(what, MFD_CLOEXEC);

	if (fd < 0)
		abort();
	if (n && write(fd, p, n) != (ssize_t)n)
		abort();
	snprintf(path, size, "/proc/self/fd/%d", fd);
	return fd;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const size_t seplen = sizeof(FUZZ_SEP) - 1;
	const struct source_ops *ops;
	const uint8_t *sep, *body;
	char dict[64], trace[64];
	int dfd, tfd;
	uint8_t mode;

	if (size < 1)
		return 0;
	mode = data[0];
	data++;
	size--;
	sep = memmem(data, size, FUZZ_SEP, seplen);
	if (!sep)
		return 0;
	body = sep + seplen;
	dfd = put("trace-events", data, (size_t)(sep - data), dict,
		  sizeof(dict));
	ops = mode & 1 ? &source_qemu_log_ops : NULL;
	if (mode & 2) {
		struct stdin_read r = { ops, dict };

		fuzz_from_stdin(body, (size_t)(data + size - body),
				(size_t)(mode >> 2) + 1, false, read_stdin, &r);
	} else {
		tfd = put("trace", body, (size_t)(data + size - body), trace,
			  sizeof(trace));
		drain(trace, ops, dict);
		close(tfd);
	}
	close(dfd);
	return 0;
}
