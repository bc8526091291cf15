/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: saved statistics read back (--stats A.json B.json:
 * stats-merge.c, stats-merge-long.c, stats-json.c). The first byte picks
 * the output form (table, hist, csv, json), --stats-top (none, 1, 3) and
 * whether the document is merged with itself; the rest is the document,
 * written to a file of the process's own, as the merge reads files.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "outbuf.h"
#include "sink.h"

static char path[64];
static int null_fd = -1;

static void fuzz_stats_clean(void)
{
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const modes[] = { "table", "hist", "csv", "json" };
	static const unsigned tops[] = { 0, 1, 3, 0 };
	const char *paths[2];
	struct outbuf *out;
	struct diag d;
	unsigned sel;
	int fd;

	if (!size)
		return 0;
	sel = data[0];
	if (!path[0]) {
		snprintf(path, sizeof(path), "/tmp/ktf-fuzz-stats.%d.json",
			 (int)getpid());
		null_fd = open("/dev/null", O_WRONLY);
		atexit(fuzz_stats_clean);
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || null_fd < 0)
		abort();
	if (size > 1 && write(fd, data + 1, size - 1) != (ssize_t)(size - 1))
		abort();
	close(fd);
	out = outbuf_create(null_fd);
	if (!out)
		return 0;
	paths[0] = paths[1] = path;
	diag_init(&d);
	stats_merge(out, modes[sel & 3], tops[(sel >> 2) & 3], NULL, paths,
		    (sel & 16) ? 2 : 1, &d);
	outbuf_destroy(out);
	return 0;
}
