/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the kvmtrace reader, from a file or from standard input.
 *
 * The first input byte picks the path.  Even: the rest is written to a file
 * and read by name.  Odd: the rest is fed through a pipe on file descriptor
 * 0 and read as "-", by a thread writing (byte >> 1) + 1 bytes at a time, so
 * the reader sees the short reads a pipe from kvmtrace gives.
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz-source.h"

struct feeder {
	int fd;
	const uint8_t *data;
	size_t size;
	size_t chunk;
};

static void *feed(void *arg)
{
	struct feeder *f = arg;
	size_t off = 0;

	while (off < f->size) {
		size_t len = f->size - off < f->chunk ? f->size - off : f->chunk;
		ssize_t n = write(f->fd, f->data + off, len);

		if (n <= 0)
			break;		/* EPIPE: the reader stopped early */
		off += (size_t)n;
		sched_yield();
	}
	close(f->fd);
	return NULL;
}

static void from_stdin(const uint8_t *data, size_t size, size_t chunk)
{
	static int saved = -1;
	struct feeder f = { .data = data, .size = size, .chunk = chunk };
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
	if (pthread_create(&t, NULL, feed, &f))
		abort();
	fuzz_drain("-", &source_kvmtrace_ops);
	/* closing the read end makes a blocked writer fail with EPIPE */
	if (dup2(saved, STDIN_FILENO) < 0)
		abort();
	pthread_join(t, NULL);
}

static void from_file(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/fuzz-kvmtrace-XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
	fuzz_drain(path, &source_kvmtrace_ops);
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	if (data[0] & 1)
		from_stdin(data + 1, size - 1, (size_t)(data[0] >> 1) + 1);
	else
		from_file(data + 1, size - 1);
	return 0;
}
