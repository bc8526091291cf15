/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the perf.data reader (src/sources/perf/), a normal or
 * pipe file read by name: header, attrs and ids, feature sections, pipe
 * header records, tracing data, the records in perf's order, COMPRESSED
 * blocks, samples, and every key and the default line of each event.
 * run-fuzz.sh seeds it with the perf.data fixtures (recorded and made by
 * tests/gen/gen-perfdata.py), cut to 64 KiB.
 *
 * The reader parses event formats in a child process first (libtraceevent
 * 1.7 crashes on some), so an input with good tracing data forks once.
 */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz-source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/fuzz-perf-XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
	fuzz_drain(path, &source_perf_ops);
	unlink(path);
	return 0;
}
