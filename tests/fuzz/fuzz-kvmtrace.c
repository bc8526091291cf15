/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: the kvmtrace reader on a file holding the input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz-source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
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
	return 0;
}
