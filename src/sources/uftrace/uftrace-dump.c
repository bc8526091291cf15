// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A lone uftrace directory (source.lone) is printed as `uftrace dump`
 * prints it (cmds/dump.c of uftrace 0.13, its raw output): the file
 * header, then every task's records in the order of the info file's tid
 * list, each task after a "reading TID.dat" line, then (uftrace record -k)
 * an empty line and the kernel-cpuN.dat files that hold bytes, each after
 * "reading kernel-cpuN.dat" (N: its place among those files), then the
 * perf-cpuN.dat files, each after "reading perf-cpuN.dat" (an empty line
 * before cpu 0's).
 *
 * The reader then keeps one file on its heap at a time. The lines dump
 * prints between records travel as events of their own type (UFT_TEXT),
 * which only the default text renders: a lone input has no rule file,
 * no filter and no other sink.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "uftrace-int.h"
#include "uftrace-walk.h"

static void uft_lone_add(struct uftrace *uf, bool *nomem, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void uft_lone_add(struct uftrace *uf, bool *nomem, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || *nomem)
		return;
	if (uf->lone_len + (size_t)n + 1 > uf->lone_cap) {
		size_t cap = (uf->lone_len + (size_t)n + 1) * 2;
		char *p = realloc(uf->lone_text, cap);

		if (!p) {
			*nomem = true;
			return;
		}
		uf->lone_text = p;
		uf->lone_cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(uf->lone_text + uf->lone_len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	uf->lone_len += (size_t)n;
}

/* The names of the bits of mask among the first n, " | " between them. */
static void uft_lone_bits(struct uftrace *uf, bool *nomem, uint64_t mask,
			  const char *const *names, unsigned n)
{
	bool first = true;
	unsigned i;

	for (i = 0; i < n; i++) {
		/* dump tests (1U << i): the low 32 bits only */
		if (!((UINT64_C(1) << i) & (uint32_t)mask))
			continue;
		uft_lone_add(uf, nomem, "%s%s", first ? "" : " | ", names[i]);
		first = false;
	}
}

static void uft_lone_header(struct uftrace *uf, bool *nomem)
{
	static const char *const feat[] = {
		"PLTHOOK", "TASK_SESSION", "KERNEL", "ARGUMENT", "RETVAL",
		"SYM_REL_ADDR", "MAX_STACK", "EVENT", "PERF_EVENT",
		"AUTO_ARGS", "DEBUG_INFO", "ESTIMATE_RETURN",
	};
	static const char *const info[] = {
		"EXE_NAME", "EXE_BUILD_ID", "EXIT_STATUS", "CMDLINE",
		"CPUINFO", "MEMINFO", "OSINFO", "TASKINFO", "USAGEINFO",
		"LOADINFO", "ARG_SPEC", "RECORD_DATE", "PATTERN_TYPE",
		"VERSION",
	};
	const struct uft_hdr *h = &uf->hdr;
	size_t i;

	uft_lone_add(uf, nomem, "uftrace file header: magic         = ");
	for (i = 0; i < sizeof(h->magic); i++)
		uft_lone_add(uf, nomem, "%02x", h->magic[i]);
	uft_lone_add(uf, nomem, "\n");
	uft_lone_add(uf, nomem, "uftrace file header: version       = %" PRIu32 "\n",
		     h->version);
	uft_lone_add(uf, nomem, "uftrace file header: header size   = %u\n",
		     (unsigned)h->size);
	uft_lone_add(uf, nomem, "uftrace file header: endian        = %u (%s)\n",
		     (unsigned)h->endian, h->endian == 1 ? "little" : "big");
	uft_lone_add(uf, nomem, "uftrace file header: class         = %u (%s bit)\n",
		     (unsigned)h->elf_class, h->elf_class == 2 ? "64" : "32");
	uft_lone_add(uf, nomem, "uftrace file header: features      = %#" PRIx64 " (",
		     h->feat);
	uft_lone_bits(uf, nomem, h->feat, feat, sizeof(feat) / sizeof(feat[0]));
	uft_lone_add(uf, nomem, ")\n");
	uft_lone_add(uf, nomem, "uftrace file header: info          = %#" PRIx64 " (",
		     h->info);
	uft_lone_bits(uf, nomem, h->info, info, sizeof(info) / sizeof(info[0]));
	uft_lone_add(uf, nomem, ")\n\n");
}

/* dump skips a perf-cpuN.dat of no bytes (and one it cannot open) */
static bool uft_lone_perf_empty(const struct uft_task *t)
{
	struct stat st;

	return stat(t->path, &st) < 0 || st.st_size == 0;
}

/*
 * With the heap empty: begin the files that come next, up to the first
 * one with a record, which goes on the heap. The lines dump prints before
 * that record (or before the end) are in uf->lone_text. Returns 1 with
 * lines to print, 0 at the end, -ENOMEM.
 */
int uft_lone_next(struct uftrace *uf)
{
	size_t nfiles = uf->norder + uf->nkern + uf->nperf;
	bool nomem = false;

	uf->lone_len = 0;
	if (!uf->lone_begun) {
		uf->lone_begun = true;
		uft_lone_header(uf, &nomem);
	}
	while (!uf->nheap && uf->lone_next < nfiles && !nomem) {
		size_t k = uf->lone_next++;
		struct uft_task *t;

		if (k < uf->norder) {
			uft_lone_add(uf, &nomem, "reading %" PRId64 ".dat\n",
				     uf->tid_order[k]);
			t = uft_task_of(uf, uf->tid_order[k]);
			/* a tid listed twice was read the first time */
			if (!t || t->done)
				continue;
			uft_dd_reset(uf);
		} else if (k < uf->norder + uf->nkern) {
			/* dump_raw_kernel_start(), dump_raw_cpu_start() */
			if (k == uf->norder)
				uft_lone_add(uf, &nomem, "\n");
			t = &uf->tasks[uf->ntasks + uf->nperf + (k - uf->norder)];
			if (!t->fsize)
				continue;
			uft_lone_add(uf, &nomem, "reading kernel-cpu%zu.dat\n",
				     k - uf->norder);
		} else {
			k -= uf->nkern;
			t = &uf->tasks[uf->ntasks + (k - uf->norder)];
			if (uft_lone_perf_empty(t))
				continue;
			if (k == uf->norder)
				uft_lone_add(uf, &nomem, "\n");
			uft_lone_add(uf, &nomem, "reading perf-cpu%" PRIu32 ".dat\n",
				     t->cpu);
		}
		if (uft_task_advance(uf, t)) {
			uf->heap[0] = (uint32_t)(t - uf->tasks);
			uf->nheap = 1;
		}
	}
	uft_top_update(uf);
	if (nomem)
		return -ENOMEM;
	return uf->lone_len > 0;
}
