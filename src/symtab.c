// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A guest's symbols (symtab.h): System.map or kallsyms text read in
 * chunks, line by line, or an ELF file (symtab-elf.c); 16 bytes a symbol
 * and its name, so a huge map costs little more than its names.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "event.h"
#include "symtab.h"

/* Bytes read at once; the longest line kept (longer ones are skipped). */
#define SYMTAB_CHUNK	(64u << 10)
#define SYMTAB_LINE_MAX	4096u

void symtab_destroy(struct symtab *t)
{
	if (!t)
		return;
	free(t->v);
	free(t->names);
	free(t);
}

/* Room for n more bytes of names; 0 or -errno. */
static int symtab_names_room(struct symtab *t, size_t n)
{
	size_t cap;
	char *nb;

	if (t->names_cap - t->names_len >= n)
		return 0;
	/* offsets are 32 bits */
	if (t->names_len + n > UINT32_MAX)
		return -EFBIG;
	cap = t->names_cap ? t->names_cap : 4096;
	while (cap - t->names_len < n)
		cap *= 2;
	if (cap > (size_t)UINT32_MAX + 1)
		cap = (size_t)UINT32_MAX + 1;
	nb = realloc(t->names, cap);
	if (!nb)
		return -ENOMEM;
	t->names = nb;
	t->names_cap = cap;
	return 0;
}

int symtab_add(struct symtab *t, uint64_t addr, uint64_t size,
	       const char *name, size_t len)
{
	struct symtab_sym *s;
	int ret;

	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct symtab_sym *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->v = v;
		t->cap = cap;
	}
	ret = symtab_names_room(t, len + 1);
	if (ret < 0)
		return ret;
	s = &t->v[t->n];
	s->addr = addr;
	s->size = size < UINT32_MAX ? (uint32_t)size : UINT32_MAX;
	s->name = (uint32_t)t->names_len;
	memcpy(t->names + t->names_len, name, len);
	t->names[t->names_len + len] = '\0';
	t->names_len += len + 1;
	t->n++;
	return 0;
}

static int symtab_cmp(const void *a, const void *b, void *arg)
{
	const struct symtab_sym *x = a, *y = b;
	const char *names = arg;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* at one address, a sized symbol first, then by name */
	if (!x->size != !y->size)
		return x->size ? -1 : 1;
	return strcmp(names + x->name, names + y->name);
}

void symtab_sort(struct symtab *t)
{
	struct symtab_sym *v;
	size_t i, j;

	if (!t->n)
		return;
	/*
	 * System.map and kallsyms come sorted: no qsort then, which takes
	 * as much memory again for its merge
	 */
	for (i = 1; i < t->n; i++)
		if (symtab_cmp(&t->v[i - 1], &t->v[i], t->names) > 0)
			break;
	if (i < t->n)
		qsort_r(t->v, t->n, sizeof(*t->v), symtab_cmp, t->names);
	for (i = 1, j = 0; i < t->n; i++)
		if (t->v[i].addr != t->v[j].addr)
			t->v[++j] = t->v[i];
	t->n = j + 1;
	/* the doubling's slack back */
	v = realloc(t->v, t->n * sizeof(*v));
	if (v) {
		t->v = v;
		t->cap = t->n;
	}
}

int64_t symtab_find(const struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	lo--;
	if (t->v[lo].size && addr - t->v[lo].addr >= t->v[lo].size)
		return -1;
	return (int64_t)lo;
}

int symtab_field(const struct symtab *t, uint64_t rip, struct value *out)
{
	int64_t i = t ? symtab_find(t, rip) : -1;
	const char *name;

	if (i < 0)
		return -ENOENT;
	name = symtab_name(t, (size_t)i);
	value_set_str(out, name, strlen(name));
	return 0;
}

/* Is this kallsyms/System.map type letter code (functions)? */
static int symtab_text_type(char c)
{
	return c == 't' || c == 'T' || c == 'w' || c == 'W';
}

/* One line "ADDR TYPE NAME [module]", NUL-terminated; others are skipped. */
static int symtab_text_line(struct symtab *t, char *line)
{
	char *end, *name, *p;
	unsigned long long addr;
	size_t len;

	addr = strtoull(line, &end, 16);
	if (end == line || (*end != ' ' && *end != '\t'))
		return 0;
	p = end + strspn(end, " \t");
	if (!*p || !symtab_text_type(p[0]) || (p[1] != ' ' && p[1] != '\t'))
		return 0;
	name = p + 1 + strspn(p + 1, " \t");
	len = strcspn(name, " \t\r");
	if (!len)
		return 0;
	return symtab_add(t, addr, 0, name, len);
}

/*
 * The text of fd in chunks: a line at a time, a line longer than
 * SYMTAB_LINE_MAX skipped whole, the first NUL byte the end (refused).
 */
static int symtab_load_text(struct symtab *t, int fd, const char *path,
			    struct diag *d)
{
	size_t have = 0, start, end, rest;
	unsigned long long off = 0;	/* of buf[0] in the file */
	bool skipping = false;
	char *buf, *nl, *nul;
	ssize_t got;
	int ret = 0;

	buf = malloc(SYMTAB_CHUNK + SYMTAB_LINE_MAX + 1);
	if (!buf) {
		diag_set(d, "%s: out of memory", path);
		return -ENOMEM;
	}
	for (;;) {
		got = read(fd, buf + have, SYMTAB_CHUNK);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ret = -errno;
			diag_set(d, "%s: offset 0x%llx: cannot read: %s", path,
				 off + have, strerror(errno));
			goto end;
		}
		if (got == 0) {
			buf[have] = '\0';
			if (have && !skipping)
				ret = symtab_text_line(t, buf);
			break;
		}
		nul = memchr(buf + have, '\0', (size_t)got);
		if (nul) {
			diag_set(d, "%s: offset 0x%llx: a NUL byte: not a System.map or kallsyms text file (an ELF file must be a regular file)",
				 path, off + (unsigned long long)(nul - buf));
			ret = -EINVAL;
			goto end;
		}
		end = have + (size_t)got;
		for (start = 0; ret == 0 &&
				(nl = memchr(buf + start, '\n', end - start));
		     start = (size_t)(nl - buf) + 1) {
			*nl = '\0';
			if (!skipping)
				ret = symtab_text_line(t, buf + start);
			skipping = false;
		}
		if (ret < 0)
			break;
		rest = end - start;
		if (skipping || rest > SYMTAB_LINE_MAX) {
			skipping = true;
			rest = 0;
		}
		memmove(buf, buf + end - rest, rest);
		off += end - rest;
		have = rest;
	}
	if (ret == -ENOMEM || ret == -EFBIG) {
		diag_set(d, "%s: %s", path,
			 ret == -EFBIG ? "more than 4 GiB of symbol names"
				       : "out of memory");
		goto end;
	}
	if (!t->n) {
		diag_set(d, "%s: no function symbols (expected System.map or kallsyms lines \"ADDR T NAME\", or an ELF file)",
			 path);
		ret = -EINVAL;
	}
end:
	free(buf);
	return ret;
}

static const char *symtab_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

struct symtab *symtab_load(const char *path, struct diag *d)
{
	struct symtab *t = calloc(1, sizeof(*t));
	unsigned char magic[4] = { 0 };
	struct stat st;
	int fd = -1, ret;

	if (!t) {
		diag_set(d, "%s: out of memory", path);
		return NULL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		diag_set(d, "%s: %s", path, strerror(errno));
		goto error;
	}
	if (fstat(fd, &st) < 0) {
		diag_set(d, "%s: %s", path, strerror(errno));
		goto error;
	}
	/* /dev/zero would be read for ever; a pipe of a System.map is fine */
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		diag_set(d, "%s: %s, not a symbol file: give a System.map, kallsyms or ELF file",
			 path, symtab_kind(st.st_mode));
		goto error;
	}
	if (S_ISREG(st.st_mode) &&
	    pread(fd, magic, sizeof(magic), 0) == 4 &&
	    !memcmp(magic, "\177ELF", 4))
		ret = symtab_load_elf(t, fd, path, d);
	else
		ret = symtab_load_text(t, fd, path, d);
	if (ret < 0)
		goto error;
	close(fd);
	symtab_sort(t);
	return t;
error:
	if (fd >= 0)
		close(fd);
	symtab_destroy(t);
	return NULL;
}
