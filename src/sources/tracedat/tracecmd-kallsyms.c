// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A trace.dat's kallsyms text into a table of functions that resolves
 * every address exactly as libtraceevent's own table would, filled as
 * tep_parse_kallsyms() fills it but without its sscanf() per line, and
 * handed to libtraceevent as its function resolver
 * (tep_set_function_resolver()) instead of through tep_register_function().
 *
 * Why: on a 5.4 MB table tep_parse_kallsyms() cost 473 M instructions,
 * 385 M of them in sscanf; after that, tep_register_function() (a malloc
 * and two strdup()s a symbol, 60 M) and, at the first lookup, the qsort()
 * of the table built from that list and the frees of its nodes (140 M)
 * were still most of what a 10-event file whose events print a symbol
 * (%pS) costs, and the copies of every name most of its memory.
 *
 * tep_parse_kallsyms() (libtraceevent 1.5 to 1.8) reads each line (the
 * text cut at '\n', empty lines skipped) with
 * "%16llx %c %n%*s%n%*1[\t][%n%*s%n": the address, the type, the name,
 * and a module when a tab and '[' follow the name (its last byte, the
 * ']', cut off); it registers the name unless it starts with '$' or the
 * type is 'A' or 'a', and stops at the first line it cannot read. Lines
 * of the usual shape ("ffffffff81000000 T name" or "... T name\t[mod]")
 * are read here by hand; any other line goes through that same sscanf(),
 * so that odd text ends up as libtraceevent leaves it.
 *
 * libtraceevent's table (func_map_init()): its list of functions, newest
 * first, qsort()ed by address; glibc's qsort() is a stable merge sort (a
 * quicksort only when it cannot allocate a copy of the table), so
 * functions at one address stay last registered first. Here the same
 * order, (address, then place in the text from last to first), comes of
 * the runs of rising addresses the text is made of (one for the kernel,
 * one a module), merged. A lookup (__find_func()) is glibc's bsearch()
 * with func_bcmp(), done here step for step: an address resolves to the
 * function it equals, or that it lies after and before the next one; the
 * last function is followed by an entry at address 0. So is the choice
 * among functions at one address the same. With a resolver,
 * tep_find_function_info() gives a size of 0; nothing we call uses it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecmd.h"

/*
 * What a byte of a line is to the reader by hand: a hex digit (its value
 * + 1), white space as sscanf and isspace() see it in the "C" locale, the
 * NUL that ends the line, or (0) anything else
 */
enum { TC_K_SPACE = 17, TC_K_END };

static const unsigned char tc_kclass[256] = {
	[0] = TC_K_END,
	['\t'] = TC_K_SPACE, ['\n'] = TC_K_SPACE, ['\v'] = TC_K_SPACE,
	['\f'] = TC_K_SPACE, ['\r'] = TC_K_SPACE, [' '] = TC_K_SPACE,
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static int tc_hexval(unsigned char c)
{
	return tc_kclass[c] - 1 < 16 ? tc_kclass[c] - 1 : -1;
}

/* sscanf's and isspace()'s white space in the "C" locale */
static bool tc_space(unsigned char c)
{
	return tc_kclass[c] == TC_K_SPACE;
}

/* Is c white space or the NUL: the end of a "%s"? */
static bool tc_word_end(unsigned char c)
{
	return tc_kclass[c] >= TC_K_SPACE;
}

/*
 * The usual line at line (NUL-terminated): its address, type and the
 * bounds of its name and module (mod_start 0: none). false: another
 * shape, for sscanf.
 */
static bool tc_kallsyms_fast(const char *line, unsigned long long *addr,
			     char *type, int *func_start, int *func_end,
			     int *mod_start, int *mod_end)
{
	unsigned long long a = 0;
	const char *p = line;
	int v, i;

	for (i = 0; i < 16 && (v = tc_hexval((unsigned char)*p)) >= 0; i++, p++)
		a = a << 4 | (unsigned long long)v;
	/* none, 17 or more, or "0x": sscanf's to read */
	if (!i || p[0] != ' ' || tc_space((unsigned char)p[1]) || !p[1] ||
	    p[2] != ' ' || !p[3] || tc_space((unsigned char)p[3]))
		return false;
	*addr = a;
	*type = p[1];
	p += 3;
	*func_start = (int)(p - line);
	while (!tc_word_end((unsigned char)*p))
		p++;
	*func_end = (int)(p - line);
	*mod_start = 0;
	*mod_end = 0;
	if (p[0] != '\t' || p[1] != '[')
		return true;	/* nothing after the name that sscanf takes */
	p += 2;
	if (!*p || tc_space((unsigned char)*p))
		return false;	/* "%*s" would skip white space first */
	*mod_start = (int)(p - line);
	while (!tc_word_end((unsigned char)*p))
		p++;
	*mod_end = (int)(p - line);
	return true;
}

/* one function: its address and where its name and module are in the text */
struct tc_func {
	unsigned long long addr;
	uint32_t func;		/* offset of the name */
	uint32_t mod;		/* offset of the module; 0: none */
};

/*
 * func_bcmp() of libtraceevent: 0 if addr is f's or lies between f's and
 * the next entry's (the entry after the last has address 0).
 */
static int tc_func_bcmp(unsigned long long addr, const struct tc_func *f)
{
	if (addr == f->addr || (addr > f->addr && addr < f[1].addr))
		return 0;
	return addr < f->addr ? -1 : 1;
}

/* __find_func(): glibc's bsearch() over the table with func_bcmp() */
static char *tc_funcs_resolve(void *priv, unsigned long long *addrp,
			      char **modp)
{
	struct tc_funcs *fs = priv;
	size_t l = 0, u = fs->n, i;
	int c;

	while (l < u) {
		i = (l + u) / 2;
		c = tc_func_bcmp(*addrp, &fs->map[i]);
		if (c < 0) {
			u = i;
		} else if (c > 0) {
			l = i + 1;
		} else {
			*addrp = fs->map[i].addr;
			*modp = fs->map[i].mod ? fs->text + fs->map[i].mod
					       : NULL;
			return fs->text + fs->map[i].func;
		}
	}
	return NULL;
}

/* Reverse f[0..n) in place. */
static void tc_funcs_reverse(struct tc_func *f, size_t n)
{
	struct tc_func x;
	size_t i;

	for (i = 0; i < n / 2; i++) {
		x = f[i];
		f[i] = f[n - 1 - i];
		f[n - 1 - i] = x;
	}
}

/*
 * Sort f[0..n) (in the order of the text) by address, functions at one
 * address last first: each run of rising addresses with its equal ones
 * reversed, then the runs merged pairwise, an equal address taken from
 * the later run first. runs[] holds where each run starts (n + 1 room).
 */
static int tc_funcs_sort(struct tc_func *f, size_t n)
{
	struct tc_func *tmp = NULL, *src = f, *dst;
	size_t *runs, nruns = 0, i, j, w;

	runs = malloc((n + 1) * sizeof(*runs));
	if (!runs)
		return -ENOMEM;
	for (i = 0; i < n; i = j) {
		if (!i || f[i].addr < f[i - 1].addr)
			runs[nruns++] = i;
		for (j = i + 1; j < n && f[j].addr == f[i].addr; j++)
			;
		tc_funcs_reverse(f + i, j - i);
	}
	runs[nruns] = n;
	if (nruns > 1) {
		tmp = malloc(n * sizeof(*tmp));
		if (!tmp) {
			free(runs);
			return -ENOMEM;
		}
	}
	dst = tmp;
	while (nruns > 1) {
		for (w = 0, i = 0; i < nruns; i += 2, w++) {
			size_t a = runs[i], am, b, bm, k = a;

			if (i + 1 >= nruns) {	/* a lone last run */
				memcpy(dst + a, src + a, (n - a) * sizeof(*f));
				runs[w] = a;
				continue;
			}
			am = b = runs[i + 1];
			bm = runs[i + 2];
			while (a < am && b < bm)
				dst[k++] = src[b].addr <= src[a].addr ? src[b++]
								       : src[a++];
			memcpy(dst + k, src + a, (am - a) * sizeof(*f));
			k += am - a;
			memcpy(dst + k, src + b, (bm - b) * sizeof(*f));
			runs[w] = runs[i];
		}
		runs[w] = n;
		nruns = w;
		dst = src;
		src = src == f ? tmp : f;
	}
	if (src != f)
		memcpy(f, src, n * sizeof(*f));
	free(tmp);
	free(runs);
	return 0;
}

void tc_funcs_free(struct tc_funcs *fs)
{
	free(fs->map);
	free(fs->text);
	memset(fs, 0, sizeof(*fs));
}

const char *tc_funcs_at(const struct tc_funcs *fs, size_t i,
			unsigned long long *addr, const char **mod)
{
	if (i >= fs->n)
		return NULL;
	*addr = fs->map[i].addr;
	*mod = fs->map[i].mod ? fs->text + fs->map[i].mod : NULL;
	return fs->text + fs->map[i].func;
}

int tc_parse_kallsyms(struct tep_handle *tep, struct tc_funcs *fs,
		      char *kallsyms)
{
	struct tc_func *map;
	size_t cap = 2, n = 0, len;
	char *line, *end;
	int ret = 0;

	tc_funcs_free(fs);
	fs->text = kallsyms;
	len = strlen(kallsyms);
	if (len >= UINT32_MAX)
		return -1;
	/* a function a line at most */
	for (line = kallsyms; (line = memchr(line, '\n', len - (size_t)(line - kallsyms)));
	     line++)
		cap++;
	map = malloc(cap * sizeof(*map));
	if (!map)
		return -1;
	/* in place: no copy of the text (5.4 MB) beside it */
	for (line = kallsyms; *line; line = end) {
		int func_start = 0, func_end = 0, mod_start = 0, mod_end = 0;
		unsigned long long addr = 0;
		char type = 0;
		bool last;

		if (*line == '\n') {
			end = line + 1;
			continue;
		}
		end = strchr(line, '\n');
		last = !end;
		if (last)
			end = line + strlen(line);
		*end = '\0';
		if (!tc_kallsyms_fast(line, &addr, &type, &func_start,
				      &func_end, &mod_start, &mod_end)) {
			int k;

			errno = 0;
			k = sscanf(line, "%16llx %c %n%*s%n%*1[\t][%n%*s%n",
				   &addr, &type, &func_start, &func_end,
				   &mod_start, &mod_end);
			/* its warning is not printed: TEP_LOG_NONE (tc_open) */
			if (errno || k != 2 || !func_end) {
				ret = -1;
				break;
			}
		}
		if (line[func_start] != '$' && type != 'A' && type != 'a') {
			line[func_end] = '\0';
			map[n].addr = addr;
			map[n].func = (uint32_t)(line + func_start - kallsyms);
			map[n].mod = 0;
			if (mod_end) {
				map[n].mod = (uint32_t)(line + mod_start - kallsyms);
				/* the ']' */
				line[mod_end - 1] = '\0';
			}
			n++;
		}
		if (!last)
			end++;
	}
	if (tc_funcs_sort(map, n) < 0) {
		free(map);
		return -1;
	}
	/* the entry after the last (func_map_init()'s) */
	map[n].addr = 0;
	map[n].func = map[n].mod = 0;
	fs->map = map;
	fs->n = n;
	if (tep_set_function_resolver(tep, tc_funcs_resolve, fs) < 0)
		return -1;
	return ret;
}

char *tc_slurp(const char *path, size_t max, size_t *len)
{
	size_t cap = 16384, n = 0;
	char *buf = malloc(cap), *nb;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0 || !buf)
		goto fail;
	for (;;) {
		if (cap - n < 4097) {
			if (cap > max)
				goto fail;
			nb = realloc(buf, cap * 2);
			if (!nb)
				goto fail;
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (!r)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
fail:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

char *tc_proc_kallsyms(void)
{
	return tc_slurp("/proc/kallsyms", (size_t)1 << 30, NULL);
}
