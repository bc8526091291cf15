/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the uftrace reader on a data directory unpacked from
 * the input.
 *
 * Input: sections separated by FUZZ_SEP. Section 0 is "info", section 1
 * "task.txt"; every later section is "NAME\nCONTENT" (NAME: a file name of
 * [A-Za-z0-9._-], else "0.sym" for section 2 and "1.dat" for the others).
 * run-fuzz.sh packs the uftrace fixtures this way.
 *
 * Then the same directory read twice more, one event a call (next) and in
 * batches (next_batch), each event's fields and default line printed
 * only after its whole batch: the two texts must be the same (an event
 * of a batch that a later one of it overwrote would differ). Both again
 * as the only input of a run (source.lone: uftrace dump's whole text,
 * without the records dump does not show).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz-source.h"

#define FUZZ_SEP "\n==KTF-FILE==\n"

static int name_ok(const uint8_t *s, size_t n)
{
	size_t i;

	if (n == 0 || n > 64 || s[0] == '.')
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '.' ||
		      s[i] == '_' || s[i] == '-'))
			return 0;
	return 1;
}

static void put(const char *dir, const char *name, const uint8_t *p, size_t n)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f)
		abort();
	if (n && fwrite(p, 1, n, f) != n)
		abort();
	fclose(f);
}

static void rm_tree(const char *dir)
{
	struct dirent *de;
	char path[512];
	DIR *dp = opendir(dir);

	if (dp) {
		while ((de = readdir(dp))) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
		closedir(dp);
	}
	rmdir(dir);
}

/* The fields of ev, then its default line, to o. */
static void print_event(struct source *src, const struct event *ev,
			struct outbuf *o)
{
	const char *names[64];
	size_t i, nf = src->ops->fields(src, ev->type, names, 64);
	char line[96];
	int n;

	n = snprintf(line, sizeof(line), "%llu %llu %d %u %lld|",
		     (unsigned long long)ev->ts, (unsigned long long)ev->seq,
		     ev->has_ts, ev->cpu, (long long)ev->pid);
	outbuf_put(o, line, (size_t)n);
	for (i = 0; i < nf; i++) {
		int idx = src->ops->bind(src, ev->type, names[i]);
		struct value v;

		if (idx < 0 || src->ops->field(src, ev, idx, &v) < 0) {
			outbuf_put(o, "-|", 2);
			continue;
		}
		if (v.kind == VALUE_STR) {
			outbuf_put(o, v.s, v.len);
			outbuf_put(o, "|", 1);
			continue;
		}
		n = snprintf(line, sizeof(line), "%d %d %llu %g|", (int)v.kind,
			     v.neg, (unsigned long long)v.u,
			     v.kind == VALUE_FLOAT ? v.f : 0.0);
		outbuf_put(o, line, (size_t)n);
	}
	outbuf_put(o, "\n", 1);
	src->ops->render_default(src, ev, o);
}

/*
 * Every event of dir through next (batch false) or next_batch, printed
 * to the file fd; the end or error as a last line.
 */
static void drain_text(const char *dir, bool batch, bool lone, int fd)
{
	struct source *src = source_create(&source_uftrace_ops, dir, 0);
	struct event ev[32];
	struct outbuf *o;
	unsigned long total = 0;
	struct diag d;
	char line[32];
	int i, n;

	if (!src)
		abort();
	o = outbuf_create(fd);
	if (!o)
		abort();
	diag_init(&d);
	src->lone = lone;
	n = source_open(src, &d);
	while (n >= 0 && total < FUZZ_MAX_EVENTS) {
		memset(ev, 0, sizeof(ev));
		diag_init(&d);
		if (batch)
			n = src->ops->next_batch(src, ev, 32, &d);
		else
			n = src->ops->next(src, ev, &d);
		if (n <= 0)
			break;
		for (i = 0; i < n; i++)
			print_event(src, &ev[i], o);
		total += (unsigned long)n;
	}
	n = snprintf(line, sizeof(line), "end %d\n", n < 0 ? n : 0);
	outbuf_put(o, line, (size_t)n);
	outbuf_put(o, d.msg, d.len);
	outbuf_destroy(o);
	source_destroy(src);
}

/* The text of fd from its start, malloc'd; *len its length. */
static char *slurp(int fd, size_t *len)
{
	off_t end = lseek(fd, 0, SEEK_END);
	char *buf = malloc(end > 0 ? (size_t)end : 1);

	if (!buf || end < 0 || pread(fd, buf, (size_t)end, 0) != end)
		abort();
	*len = (size_t)end;
	return buf;
}

/* next and next_batch give the same events, each whole until the next call */
static void compare_batches(const char *dir, bool lone)
{
	char one_path[] = "/tmp/fuzz-uftrace-one-XXXXXX";
	char many_path[] = "/tmp/fuzz-uftrace-many-XXXXXX";
	int one = mkstemp(one_path), many = mkstemp(many_path);
	size_t la, lb;
	char *a, *b;

	if (one < 0 || many < 0)
		abort();
	unlink(one_path);
	unlink(many_path);
	drain_text(dir, false, lone, one);
	drain_text(dir, true, lone, many);
	a = slurp(one, &la);
	b = slurp(many, &lb);
	if (la != lb || memcmp(a, b, la))
		abort();	/* the batches differ from the events one by one */
	free(a);
	free(b);
	close(one);
	close(many);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dir[] = "/tmp/fuzz-uftrace-XXXXXX";
	const size_t seplen = sizeof(FUZZ_SEP) - 1;
	const uint8_t *p = data, *end = data + size;
	unsigned sec = 0;

	if (!mkdtemp(dir))
		abort();
	while (p <= end && sec < 16) {
		const uint8_t *q = memmem(p, (size_t)(end - p), FUZZ_SEP, seplen);
		const uint8_t *stop = q ? q : end;
		char name[80];

		if (sec == 0) {
			put(dir, "info", p, (size_t)(stop - p));
		} else if (sec == 1) {
			put(dir, "task.txt", p, (size_t)(stop - p));
		} else {
			const uint8_t *nl = memchr(p, '\n', (size_t)(stop - p));
			const uint8_t *body = p;

			if (nl && name_ok(p, (size_t)(nl - p))) {
				memcpy(name, p, (size_t)(nl - p));
				name[nl - p] = '\0';
				body = nl + 1;
			} else {
				strcpy(name, sec == 2 ? "0.sym" : "1.dat");
			}
			put(dir, name, body, (size_t)(stop - body));
		}
		sec++;
		if (!q)
			break;
		p = q + seplen;
	}
	fuzz_drain(dir, &source_uftrace_ops);
	compare_batches(dir, false);
	compare_batches(dir, true);
	rm_tree(dir);
	return 0;
}
