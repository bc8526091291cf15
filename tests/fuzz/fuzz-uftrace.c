/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the uftrace reader on a data directory unpacked from
 * the input.
 *
 * Input: sections separated by FUZZ_SEP. Section 0 is "info", section 1
 * "task.txt"; every later section is "NAME\nCONTENT" (NAME: a file name of
 * [A-Za-z0-9._-], else "0.sym" for section 2 and "1.dat" for the others).
 * run-fuzz.sh packs the uftrace fixtures this way.
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
	rm_tree(dir);
	return 0;
}
