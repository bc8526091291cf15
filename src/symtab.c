// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "event.h"
#include "symtab.h"

void symtab_destroy(struct symtab *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++)
		free(t->v[i].name);
	free(t->v);
	free(t);
}

int symtab_add(struct symtab *t, uint64_t addr, uint64_t size,
	       const char *name, size_t len)
{
	struct symtab_sym *s;

	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct symtab_sym *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->v = v;
		t->cap = cap;
	}
	s = &t->v[t->n];
	s->name = strndup(name, len);
	if (!s->name)
		return -ENOMEM;
	s->addr = addr;
	s->size = size;
	t->n++;
	return 0;
}

static int symtab_cmp(const void *a, const void *b)
{
	const struct symtab_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* at one address, a sized symbol first, then by name */
	if (!x->size != !y->size)
		return x->size ? -1 : 1;
	return strcmp(x->name, y->name);
}

void symtab_sort(struct symtab *t)
{
	size_t i, j;

	if (!t->n)
		return;
	qsort(t->v, t->n, sizeof(*t->v), symtab_cmp);
	for (i = 1, j = 0; i < t->n; i++) {
		if (t->v[i].addr == t->v[j].addr) {
			free(t->v[i].name);
			continue;
		}
		t->v[++j] = t->v[i];
	}
	t->n = j + 1;
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

	if (i < 0)
		return -ENOENT;
	value_set_str(out, t->v[i].name, strlen(t->v[i].name));
	return 0;
}

/* Is this kallsyms/System.map type letter code (functions)? */
static int symtab_text_type(char c)
{
	return c == 't' || c == 'T' || c == 'w' || c == 'W';
}

/* "ADDR TYPE NAME [module]" lines; others are skipped. */
static int symtab_load_text(struct symtab *t, FILE *f, const char *path,
			    struct diag *d)
{
	char line[4096];
	unsigned long lineno = 0;

	while (fgets(line, sizeof(line), f)) {
		char *end, *name, *p;
		unsigned long long addr;
		size_t len;

		lineno++;
		addr = strtoull(line, &end, 16);
		if (end == line || (*end != ' ' && *end != '\t'))
			continue;
		p = end + strspn(end, " \t");
		if (!*p || !symtab_text_type(p[0]) || (p[1] != ' ' && p[1] != '\t'))
			continue;
		name = p + 1 + strspn(p + 1, " \t");
		len = strcspn(name, " \t\r\n");
		if (!len)
			continue;
		if (symtab_add(t, addr, 0, name, len) < 0) {
			diag_set(d, "%s:%lu: out of memory", path, lineno);
			return -ENOMEM;
		}
	}
	if (ferror(f)) {
		diag_set(d, "%s: %s", path, strerror(errno));
		return -EIO;
	}
	if (!t->n) {
		diag_set(d, "%s: no function symbols (expected System.map or kallsyms lines \"ADDR T NAME\", or an ELF file)",
			 path);
		return -EINVAL;
	}
	return 0;
}

struct symtab *symtab_load(const char *path, struct diag *d)
{
	struct symtab *t = calloc(1, sizeof(*t));
	unsigned char magic[4] = { 0 };
	FILE *f = NULL;
	int fd, ret;

	if (!t) {
		diag_set(d, "%s: out of memory", path);
		return NULL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		diag_set(d, "%s: %s", path, strerror(errno));
		goto error;
	}
	if (pread(fd, magic, sizeof(magic), 0) == 4 &&
	    !memcmp(magic, "\177ELF", 4)) {
		ret = symtab_load_elf(t, fd, path, d);
		close(fd);
		if (ret < 0)
			goto error;
	} else {
		f = fdopen(fd, "r");
		if (!f) {
			diag_set(d, "%s: %s", path, strerror(errno));
			close(fd);
			goto error;
		}
		ret = symtab_load_text(t, f, path, d);
		fclose(f);
		if (ret < 0)
			goto error;
	}
	symtab_sort(t);
	return t;
error:
	symtab_destroy(t);
	return NULL;
}
