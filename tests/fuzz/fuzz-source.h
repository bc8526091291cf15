/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the source fuzz targets: open path with the reader
 * source_detect() picks and drain it, exercising every per-event hook.
 */
#ifndef KTF_FUZZ_SOURCE_H
#define KTF_FUZZ_SOURCE_H

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "event.h"
#include "outbuf.h"
#include "source.h"

#define FUZZ_MAX_EVENTS 100000

/* A thread writing data to a pipe, chunk bytes at a time. */
struct fuzz_feeder {
	int fd;
	const uint8_t *data;
	size_t size;
	size_t chunk;
	bool yield;		/* let the reader run after each chunk */
};

static inline void *fuzz_feed(void *arg)
{
	struct fuzz_feeder *f = arg;
	size_t off = 0;

	while (off < f->size) {
		size_t len = f->size - off < f->chunk ? f->size - off : f->chunk;
		ssize_t n = write(f->fd, f->data + off, len);

		if (n <= 0)
			break;		/* EPIPE: the reader stopped early */
		off += (size_t)n;
		if (f->yield)
			sched_yield();
	}
	close(f->fd);
	return NULL;
}

/*
 * reader(arg) with standard input a pipe that a thread fills with data,
 * chunk bytes a write (a reader of "-" sees short reads).
 */
static inline void fuzz_from_stdin(const uint8_t *data, size_t size,
				   size_t chunk, bool yield,
				   void (*reader)(void *), void *arg)
{
	static int saved = -1;
	struct fuzz_feeder f = { .data = data, .size = size, .chunk = chunk,
				 .yield = yield };
	pthread_t t;
	int p[2];

	if (saved < 0) {
		signal(SIGPIPE, SIG_IGN);
		saved = dup(STDIN_FILENO);
		if (saved < 0)
			abort();
	}
	if (pipe(p) < 0 || dup2(p[0], STDIN_FILENO) < 0)
		abort();
	close(p[0]);
	f.fd = p[1];
	if (pthread_create(&t, NULL, fuzz_feed, &f))
		abort();
	reader(arg);
	/* closing the read end makes a blocked writer fail with EPIPE */
	if (dup2(saved, STDIN_FILENO) < 0)
		abort();
	pthread_join(t, NULL);
}

static void fuzz_drain(const char *path, const struct source_ops *want)
{
	const struct source_ops *ops = NULL;
	struct source *src = NULL;
	struct outbuf *out = NULL;
	const char *names[64];
	struct diag d;
	struct event ev;
	unsigned long n = 0;
	int fd = -1;

	diag_init(&d);
	if (source_detect(path, &ops, &d) < 0 || ops != want)
		return;
	src = source_create(ops, path, 0);
	if (!src)
		return;
	if (source_open(src, &d) < 0)
		goto end;
	fd = open("/dev/null", O_WRONLY);
	out = outbuf_create(fd);
	if (!out)
		goto end;
	for (;;) {
		size_t i, nf = 0;

		/* the pipeline, not the source, sets relts and relts_neg */
		memset(&ev, 0, sizeof(ev));
		if (n++ >= FUZZ_MAX_EVENTS || src->ops->next(src, &ev, &d) <= 0)
			break;

		if (src->ops->fields)
			nf = src->ops->fields(src, ev.type, names, 64);
		for (i = 0; i < nf && i < 64; i++) {
			struct value v;
			int idx = src->ops->bind(src, ev.type, names[i]);

			if (idx >= 0)
				src->ops->field(src, &ev, idx, &v);
		}
		if (src->ops->render_default)
			src->ops->render_default(src, &ev, out);
		if (src->ops->render_args)
			src->ops->render_args(src, &ev, 1000.0, out);
	}
end:
	if (out)
		outbuf_destroy(out);
	if (fd >= 0)
		close(fd);
	source_destroy(src);
}

#endif
