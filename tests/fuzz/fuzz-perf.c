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
 *
 * Then the same file read twice more, one event at a time (next) and in
 * batches (next_batch, as one input alone is read), each event's default
 * line written out: the two texts, the last answer and its message must
 * be the same (abort() otherwise), as next_batch's contract says.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz-source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The text of path's events to fd, by next or next_batch: the last answer */
static int fuzz_perf_text(const char *path, bool batch, int fd,
			  struct diag *d)
{
	static struct event evs[64];
	struct source *src = source_create(&source_perf_ops, path, 0);
	struct outbuf *out = NULL;
	unsigned long total = 0;
	int i, n = -1000;

	diag_init(d);
	if (!src)
		return n;
	n = source_open(src, d);
	if (n < 0)
		goto end;
	out = outbuf_create(fd);
	if (!out)
		goto end;
	for (;;) {
		memset(evs, 0, sizeof(evs));
		n = batch ? src->ops->next_batch(src, evs, 64, d)
			  : src->ops->next(src, &evs[0], d);
		if (n <= 0)
			break;
		/* the first FUZZ_MAX_EVENTS either way */
		for (i = 0; i < n && total < FUZZ_MAX_EVENTS; i++, total++)
			src->ops->render_default(src, &evs[i], out);
		if (total == FUZZ_MAX_EVENTS) {
			diag_init(d);
			n = 1;
			break;
		}
	}
end:
	if (out)
		outbuf_destroy(out);
	source_destroy(src);
	return n;
}

/* The whole of what fd holds, NUL-terminated (malloc'd) */
static char *fuzz_slurp(int fd, size_t *len)
{
	off_t end = lseek(fd, 0, SEEK_END);
	char *b = malloc(end > 0 ? (size_t)end + 1 : 1);

	if (!b || end < 0 || pread(fd, b, (size_t)end, 0) != end)
		abort();
	*len = (size_t)end;
	return b;
}

static void fuzz_perf_batches(const char *path)
{
	char p1[] = "/tmp/fuzz-perf-a-XXXXXX", p2[] = "/tmp/fuzz-perf-b-XXXXXX";
	const struct source_ops *ops = NULL;
	struct diag d1, d2;
	size_t l1, l2;
	char *t1, *t2;
	int f1, f2, r1, r2;

	diag_init(&d1);
	if (source_detect(path, &ops, &d1) < 0 || ops != &source_perf_ops)
		return;
	f1 = mkstemp(p1);
	f2 = mkstemp(p2);
	if (f1 < 0 || f2 < 0)
		abort();
	r1 = fuzz_perf_text(path, false, f1, &d1);
	r2 = fuzz_perf_text(path, true, f2, &d2);
	t1 = fuzz_slurp(f1, &l1);
	t2 = fuzz_slurp(f2, &l2);
	if (r1 != r2 || strcmp(d1.msg, d2.msg) || l1 != l2 ||
	    memcmp(t1, t2, l1)) {
		fprintf(stderr, "fuzz-perf: next and next_batch differ: %d %d (%zu, %zu bytes)\n%s\n%s\n",
			r1, r2, l1, l2, d1.msg, d2.msg);
		abort();
	}
	free(t1);
	free(t2);
	close(f1);
	close(f2);
	unlink(p1);
	unlink(p2);
}

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
	fuzz_perf_batches(path);
	unlink(path);
	return 0;
}
