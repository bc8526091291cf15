// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel symbols for the %pS/%ps (%pF/%pf) of event formats (kmem's
 * call_site, timer's function, workqueue's …), named as `perf script`
 * names them: perf resolves a kernel address through the symbols of the
 * kernel that recorded the file, which it finds as dso__find_kallsyms()
 * does:
 *
 *   - --kallsyms=FILE (perf script's own --kallsyms);
 *   - /proc/kallsyms when the file's kernel build-id (HEADER_BUILD_ID,
 *     "[kernel.kallsyms]") is the running kernel's (/sys/kernel/notes),
 *     or when the file has none (perf's last resort);
 *   - its build-id cache's copy, ~/.debug/[kernel.kallsyms]/ID/kallsyms;
 *   - else none: the addresses print as numbers, as perf prints them,
 *     and the reader says once what would name them. perf 6.1 names
 *     none in a pipe file (perf record -o -), --kallsyms or not: neither
 *     does this, without --kallsyms.
 *
 * Symbols as perf keeps them (symbol.c): types T, W, D and B of either
 * case, not a name starting with '$'; each ends where the next begins
 * (the last kernel one before a module's, and the last of all, at the
 * page after its own); of several at one address the one perf keeps
 * (choose_best_symbol(): the one that is not empty, not weak, global,
 * with fewer leading underscores, the longest name, the first).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perf-int.h"

/* The most a kallsyms file may hold (Linux 6.x has about 15 MiB). */
#define PERF_KSYMS_MAX	(256u << 20)

struct perf_ksym {
	uint64_t start, end;
	uint32_t name;		/* offset in names */
	uint32_t ord;		/* its line */
	char type;
	bool mod;		/* a module's ("\t[mod]") */
};

struct perf_ksyms {
	struct perf_ksym *v;	/* owned, sorted by start */
	size_t n;
	char *names;		/* owned: the file, NULs written in */
};

/* Does an event print a kernel address by name (%pS %ps %pF %pf)? */
static bool perf_fmt_names_addrs(const struct tep_event *e)
{
	const char *f = e && e->print_fmt.format ? e->print_fmt.format : NULL;

	for (; f && (f = strchr(f, '%')); f++) {
		const char *c = f + 1;

		if (*c == '%') {
			f++;
			continue;
		}
		while (*c && strchr("-+ #0123456789.lhz", *c))
			c++;
		if (*c == 'p' && strchr("SsFf", c[1]) && c[1])
			return true;
	}
	return false;
}

/* A whole file into memory (/proc's report a size of 0). */
static int perf_slurp(const char *path, char **out, size_t *len,
		      struct diag *d, const char *name)
{
	size_t cap = 1u << 20, n = 0;
	char *b = malloc(cap + 1);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !b) {
		int e = fd < 0 ? errno : ENOMEM;

		diag_set(d, "%s: kernel symbols %s: cannot read: %s", name,
			 path, strerror(e));
		free(b);
		if (fd >= 0)
			close(fd);
		return -e;
	}
	for (;;) {
		ssize_t k;

		if (n == cap) {
			char *nb;

			if (cap >= PERF_KSYMS_MAX) {
				diag_set(d, "%s: kernel symbols %s: more than %u MiB",
					 name, path, PERF_KSYMS_MAX >> 20);
				goto fail;
			}
			nb = realloc(b, 2 * cap + 1);
			if (!nb) {
				diag_set(d, "%s: out of memory", name);
				goto fail;
			}
			b = nb;
			cap *= 2;
		}
		k = read(fd, b + n, cap - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			diag_set(d, "%s: kernel symbols %s: cannot read: %s",
				 name, path, strerror(errno));
			goto fail;
		}
		if (!k)
			break;
		n += (size_t)k;
	}
	close(fd);
	b[n] = '\0';
	*out = b;
	*len = n;
	return 0;
fail:
	close(fd);
	free(b);
	return -EIO;
}

static int perf_ksym_cmp(const void *a, const void *b)
{
	const struct perf_ksym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->ord < y->ord ? -1 : x->ord > y->ord;
}

static size_t perf_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol(): true to keep b rather than a. */
static bool perf_ksym_better(const struct perf_ksyms *k,
			     const struct perf_ksym *a,
			     const struct perf_ksym *b)
{
	const char *na = k->names + a->name, *nb = k->names + b->name;
	bool wa = a->type == 'W', wb = b->type == 'W';
	bool ga = isupper((unsigned char)a->type) && !wa;
	bool gb = isupper((unsigned char)b->type) && !wb;
	size_t ua, ub;

	if ((a->end > a->start) != (b->end > b->start))
		return b->end > b->start;
	if (wa != wb)
		return wa;
	if (ga != gb)
		return gb;
	ua = perf_underscores(na);
	ub = perf_underscores(nb);
	if (ua != ub)
		return ua > ub;
	return strlen(nb) > strlen(na);
}

/* Parse "ADDR TYPE NAME[\t[MODULE]]" lines; sort; ends; duplicates. */
static int perf_ksyms_parse(struct perf_ksyms *k, size_t len)
{
	char *s = k->names, *end = s + len;
	size_t cap = 0, i, j, out;

	while (s < end) {
		char *nl = memchr(s, '\n', (size_t)(end - s));
		char *line = s, *name, *q;
		struct perf_ksym y;
		uint64_t a = 0;
		int digits = 0;

		if (!nl)
			nl = end;
		*nl = '\0';
		s = nl + 1;
		for (q = line; isxdigit((unsigned char)*q) && digits < 17;
		     q++, digits++)
			a = a << 4 | (uint64_t)(isdigit((unsigned char)*q)
				? *q - '0' : (tolower((unsigned char)*q) - 'a' + 10));
		if (!digits || digits > 16 || q[0] != ' ' || !q[1] ||
		    q[2] != ' ')
			continue;
		y.type = q[1];
		if (!strchr("TtWwDdBb", y.type) || !y.type)
			continue;
		name = q + 3;
		if (*name == '$' || !*name)
			continue;
		y.mod = strchr(name, '[') != NULL;
		q = strpbrk(name, " \t");
		if (q)
			*q = '\0';
		if (k->n == cap) {
			struct perf_ksym *v;

			cap = cap ? 2 * cap : 4096;
			v = realloc(k->v, cap * sizeof(*v));
			if (!v)
				return -ENOMEM;
			k->v = v;
		}
		y.start = a;
		y.end = a;
		y.name = (uint32_t)(name - k->names);
		y.ord = (uint32_t)k->n;
		k->v[k->n++] = y;
	}
	if (!k->n)
		return 0;
	qsort(k->v, k->n, sizeof(*k->v), perf_ksym_cmp);
	/* symbols__fixup_end() */
	for (i = 0; i + 1 < k->n; i++) {
		struct perf_ksym *p = &k->v[i], *c = &k->v[i + 1];

		if (p->mod != c->mod)
			p->end = ((p->start + 4096) + 4095) & ~(uint64_t)4095;
		else
			p->end = c->start;
	}
	k->v[i].end = ((k->v[i].start + 4095) & ~(uint64_t)4095) + 4096;
	/* symbols__fixup_duplicate() */
	for (i = 0, out = 0; i < k->n; i = j) {
		struct perf_ksym best = k->v[i];

		for (j = i + 1; j < k->n && k->v[j].start == best.start; j++)
			if (perf_ksym_better(k, &best, &k->v[j]))
				best = k->v[j];
		k->v[out++] = best;
	}
	k->n = out;
	return 0;
}

/* libtraceevent's function resolver: the symbol at *addrp, or NULL. */
static char *perf_ksym_resolve(void *priv, unsigned long long *addrp,
			       char **modp)
{
	const struct perf_ksyms *k = priv;
	uint64_t ip = *addrp;
	size_t lo = 0, hi = k->n;
	const struct perf_ksym *s;

	*modp = NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &k->v[lo - 1];
	if (ip >= s->end && ip != s->start)
		return NULL;
	*addrp = s->start;
	return k->names + s->name;
}

/* The running kernel's build-id (its ELF notes), as hex; 0 or -errno. */
static int perf_host_build_id(char *hex, size_t cap)
{
	unsigned char b[4096];
	size_t at = 0;
	ssize_t n;
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, b, sizeof(b));
	close(fd);
	while (n > 0 && at + 12 <= (size_t)n) {
		uint32_t nsz, dsz, type;
		size_t name_at, desc_at, i;

		memcpy(&nsz, b + at, 4);
		memcpy(&dsz, b + at + 4, 4);
		memcpy(&type, b + at + 8, 4);
		name_at = at + 12;
		desc_at = name_at + ((nsz + 3u) & ~3u);
		if (nsz > sizeof(b) || dsz > sizeof(b) ||
		    desc_at + dsz > (size_t)n)
			break;
		if (type == 3 && nsz == 4 && !memcmp(b + name_at, "GNU", 4) &&
		    2 * dsz < cap) {
			for (i = 0; i < dsz; i++)
				snprintf(hex + 2 * i, 3, "%02x", b[desc_at + i]);
			hex[2 * dsz] = '\0';
			return 0;
		}
		at = desc_at + ((dsz + 3u) & ~3u);
	}
	return -ENOENT;
}

/* The file a kernel address is named from, as perf finds it. */
static const char *perf_ksyms_path(struct source *src, struct perf *p,
				   char *buf, size_t cap, char *host,
				   size_t hcap)
{
	const char *home = getenv("HOME");

	host[0] = '\0';
	if (src->kallsyms)
		return src->kallsyms;
	if (p->pipe)
		return NULL;
	perf_host_build_id(host, hcap);
	if (!p->kbid[0] || !strcmp(p->kbid, host))
		return "/proc/kallsyms";
	if (home && (size_t)snprintf(buf, cap, "%s/.debug/[kernel.kallsyms]/%s/kallsyms",
				     home, p->kbid) < cap &&
	    access(buf, R_OK) == 0)
		return buf;
	return NULL;
}

int perf_ksyms_setup(struct source *src, struct perf *p, struct diag *d)
{
	char path[4096], host[2 * 64 + 1];
	const char *file;
	struct perf_ksyms *k;
	size_t len = 0;
	uint32_t i;
	int ret;

	for (i = 0; i < p->nattrs; i++)
		if (perf_fmt_names_addrs(p->attrs[i].tp))
			break;
	if (i == p->nattrs || !p->tep)
		return 0;
	file = perf_ksyms_path(src, p, path, sizeof(path), host, sizeof(host));
	if (!file) {
		free(src->note);
		if (p->pipe)
			ret = asprintf(&src->note, "its events print kernel addresses (%%pS) as numbers, as perf script prints them in a pipe file; give the /proc/kallsyms of the kernel that recorded it with --kallsyms=FILE to name them");
		else
			ret = asprintf(&src->note, "its events print kernel addresses (%%pS) as numbers, as perf script prints them here: it was recorded on another kernel (build-id %s, not this one's); give that kernel's /proc/kallsyms with --kallsyms=FILE to name them",
				       p->kbid);
		if (ret < 0)
			src->note = NULL;
		return 0;
	}
	k = calloc(1, sizeof(*k));
	if (!k) {
		diag_set(d, "%s: out of memory", p->name);
		return -ENOMEM;
	}
	ret = perf_slurp(file, &k->names, &len, d, p->name);
	if (ret == 0 && perf_ksyms_parse(k, len) < 0) {
		diag_set(d, "%s: out of memory", p->name);
		ret = -ENOMEM;
	}
	if (ret < 0) {
		free(k->names);
		free(k->v);
		free(k);
		/*
		 * perf's own choice unreadable: numbers, as perf prints;
		 * the user's: theirs to set right (exit 2)
		 */
		if (ret == -ENOMEM || !src->kallsyms)
			return ret == -ENOMEM ? ret : 0;
		return -EMEDIUMTYPE;
	}
	p->ksyms = k;
	/* kptr_restrict: every address 0 (not root) names nothing */
	if (k->n && k->v[k->n - 1].start == 0) {
		free(src->note);
		if (asprintf(&src->note, "its events print kernel addresses (%%pS) as numbers: %s shows every address as 0 (kernel.kptr_restrict; run as root, or give a copy with --kallsyms=FILE)",
			     file) < 0)
			src->note = NULL;
		return 0;
	}
	tep_set_function_resolver(p->tep, perf_ksym_resolve, k);
	return 0;
}

void perf_ksyms_free(struct perf *p)
{
	if (!p->ksyms)
		return;
	if (p->tep)
		tep_reset_function_resolver(p->tep);
	free(p->ksyms->names);
	free(p->ksyms->v);
	free(p->ksyms);
	p->ksyms = NULL;
}
