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

/* the reader on standard input, as the fuzz_from_stdin() hook */
static void read_stdin(void *arg)
{
	(void)arg;
	fuzz_drain("-", &source_kvmtrace_ops);
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
		fuzz_from_stdin(data + 1, size - 1, (size_t)(data[0] >> 1) + 1,
				true, read_stdin, NULL);
	else
		from_file(data + 1, size - 1);
	return 0;
}
