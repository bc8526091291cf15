// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The records of a trace.dat in the order `trace-cmd report` prints them
 * (source-tracecmd.c opens the file): a heap of each CPU's next record,
 * the smallest time stamp first, ties to the lowest CPU; the pages read
 * handed back as the CPUs move past them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include "diag.h"
#include "source.h"
#include "tracecmd.h"
#include "tracedat-guard.h"
#include "tracedat-shrink.h"

/* The type index of an event id, or -1. */
static int32_t tc_type_of(const struct tc *tc, uint64_t id)
{
	uint32_t lo = 0, hi = tc->nsparse;

	if (id < tc->nids)
		return tc->by_id[id];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		uint64_t m = tc->sparse[mid].id;

		if (m == id)
			return (int32_t)tc->sparse[mid].index;
		if (m < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* ---------------------------------------------------------- merge */

static inline bool tc_before(const struct tc *tc, int a, int b)
{
	unsigned long long ta = tc->next[a]->ts, tb = tc->next[b]->ts;

	return ta < tb || (ta == tb && a < b);
}

static void tc_sift_down(struct tc *tc, int i)
{
	int n = tc->nheap;

	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i, tmp;

		if (l < n && tc_before(tc, tc->heap[l], tc->heap[m]))
			m = l;
		if (r < n && tc_before(tc, tc->heap[r], tc->heap[m]))
			m = r;
		if (m == i)
			return;
		tmp = tc->heap[i];
		tc->heap[i] = tc->heap[m];
		tc->heap[m] = tmp;
		i = m;
	}
}

/*
 * Does the page at file offset page, which rec (read at it by
 * tracecmd_read_at(), which does not check) lies in, hold no more than a
 * page? Its header: u64 time stamp, then the commit (a long of the file),
 * whose low 27 bits are the size of its records.
 */
static bool tc_page_ok(const struct tc *tc, const struct tep_record *rec,
		       uint64_t page, uint64_t ps)
{
	int lsize = tep_get_header_page_size(tc->tep) == 8 ? 8 : 4;
	uint64_t in = rec->offset - page, commit;
	const char *start;

	if (rec->record_size < rec->size || rec->size < 0 || in >= ps ||
	    (uint64_t)(rec->record_size - rec->size) >= ps - in)
		return false;
	start = (const char *)rec->data - in -
		(uint64_t)(rec->record_size - rec->size);
	commit = tc_read(tc, start + 8, lsize) & ((1u << 27) - 1);
	return commit <= ps - 8 - (uint64_t)lsize;
}

/*
 * libtracecmd ends a CPU at a page it cannot read (a page header whose
 * size exceeds the page: trace-input.c update_page_info()), silently, as
 * trace-cmd report does. Go on at the next page of that CPU it reads a
 * record from, saying which bytes were left out: the pages after the one
 * of the CPU's latest record, up to the end of its data in the file.
 */
static __attribute__((noinline, cold)) struct tep_record *
tc_resume(struct source *src, struct tc *tc, int cpu)
{
	uint64_t ps = tc->file.page_size, last = tc->last_off[cpu] - 1;
	const struct tracedat_cpu *r = NULL;
	uint64_t page, next, end;
	struct tep_record *rec;
	struct diag d;
	uint32_t i;
	int c;

	/* the top buffer's CPUs only (tc->file has their pages) */
	if (!ps || (ps & (ps - 1)) || tc->slot[cpu].buf)
		return NULL;
	for (i = 0; i < tc->file.ncpus && !r; i++)
		if (last >= tc->file.cpus[i].off &&
		    last - tc->file.cpus[i].off < tc->file.cpus[i].size)
			r = &tc->file.cpus[i];
	if (!r)
		return NULL;
	page = last & ~(ps - 1);
	end = r->off + r->size;
	for (next = page + ps; next < end && end - next >= 16; next += ps) {
		c = -1;
		rec = tracecmd_read_at(tc->handle, next, &c);
		if (!rec)
			continue;
		if (c != cpu || rec->offset < next) {
			tracecmd_free_record(rec);
			return NULL;
		}
		if (!tc_page_ok(tc, rec, next, ps)) {
			tracecmd_free_record(rec);
			continue;
		}
		tc->npages += (next - page - ps) / ps;
		if (src->say) {
			diag_set(&d, "%s: CPU %d: offset 0x%" PRIx64 ": %" PRIu64 " bytes of pages libtracecmd reads no record from (a damaged page header): left out, reading goes on at offset 0x%" PRIx64,
				 src->name, rec->cpu, page + ps, next - page - ps,
				 next);
			src->say(src->say_arg, d.msg);
		}
		return rec;
	}
	return NULL;
}

/*
 * The next record of a slot (a CPU of a buffer), past pages libtracecmd
 * cannot read in the top buffer (inline in tc_next(); tc_resume() is the
 * rare case).
 */
static inline struct tep_record *tc_read_cpu(struct source *src,
					     struct tc *tc, int slot)
{
	const struct tc_slot *at = &tc->slot[slot];
	struct tep_record *rec = NULL;
	bool more = true;

	/* the page's next record read here (tracecmd-pages.c) */
	if (tc->pages) {
		rec = tc_pages_next(tc, slot, &more);
		if (__builtin_expect(rec != NULL, 1))
			goto got;
	}
	if (more) {
		rec = tracecmd_read_data(at->handle, at->cpu);
		if (rec && tc->pages)
			rec = tc_pages_anchor(tc, slot, rec);
	}
	if (__builtin_expect(!rec, 0) && tc->last_off[slot] && tc->file.ncpus) {
		rec = tc_resume(src, tc, slot);
		if (rec && tc->pages)
			rec = tc_pages_anchor(tc, slot, rec);
	}
got:
	if (rec)
		tc->last_off[slot] = rec->offset + 1;
	return rec;
}

static void tc_start(struct source *src, struct tc *tc)
{
	int cpu, i;

	tc->started = true;
	tc->refill = -1;
	for (cpu = 0; cpu < tc->nslots; cpu++) {
		tc->next[cpu] = tc_read_cpu(src, tc, cpu);
		if (tc->next[cpu])
			tc->heap[tc->nheap++] = cpu;
	}
	for (i = tc->nheap / 2 - 1; i >= 0; i--)
		tc_sift_down(tc, i);
}

/*
 * libtracecmd 1.3.1 maps a CPU's data with mmap() in one piece (its
 * page_map_size, meant as "about a meg of pages", is the size of the
 * largest CPU's data): every page read stays resident, and the process's
 * RSS grows to the size of the uncompressed file. So the pages a CPU's
 * records have moved past are handed back, TC_PAGEOUT bytes at a time.
 * Only for files libtracecmd reads as plain pages (not its in-memory
 * zstd pages): version 6, uncompressed version 7, our copies.
 *
 * When /proc/self/maps shows the range inside one mapping of the trace
 * file that cannot be written (libtracecmd maps it PROT_READ), the pages
 * go with MADV_DONTNEED: a page touched again comes again from the file,
 * and dropping the page table entries is one TLB flush for the range.
 * Otherwise (an address libtracecmd has unmapped or reused meanwhile, no
 * /proc) with MADV_PAGEOUT, which never changes what memory holds (a file
 * page comes again from the file, anonymous memory only goes to swap) but
 * reclaims page by page, a TLB flush each: 15 % of the time of a
 * fields-only run in a virtual machine.
 */
static bool tc_mapped_file(const struct tc *tc, uintptr_t lo, uintptr_t hi)
{
	unsigned long start, end, ino;
	unsigned int major, minor;
	char perms[8], line[512];
	bool ok = false;
	FILE *maps;

	if (!tc->map_ino)
		return false;
	maps = fopen("/proc/self/maps", "re");
	if (!maps)
		return false;
	while (fgets(line, sizeof(line), maps)) {
		if (sscanf(line, "%lx-%lx %7s %*x %x:%x %lu", &start, &end,
			   perms, &major, &minor, &ino) != 6)
			continue;
		if (start > lo || end < hi)
			continue;
		ok = perms[1] == '-' && ino == tc->map_ino &&
		     makedev(major, minor) == tc->map_dev;
		break;
	}
	fclose(maps);
	return ok;
}

static void tc_pageout(const struct tc *tc, struct tc_behind *b)
{
	if (b->hi > b->lo) {
		if (tc_mapped_file(tc, b->lo, b->hi))
			madvise((void *)b->lo, b->hi - b->lo, MADV_DONTNEED);
#ifdef MADV_PAGEOUT
		else
			madvise((void *)b->lo, b->hi - b->lo, MADV_PAGEOUT);
#endif
	}
	b->lo = b->hi = 0;
}

/* rec (about to be freed) is the latest record of its slot */
static void tc_release(struct tc *tc, const struct tep_record *rec, int slot)
{
	struct tc_behind *b;
	uintptr_t page;

	if (!tc->behind || slot < 0 || slot >= tc->nslots)
		return;
	b = &tc->behind[slot];
	page = (uintptr_t)rec->data & ~(tc->sys_page - 1);
	if (page == b->page)
		return;
	/* the CPU has left b->page: it joins the pages done */
	if (b->page) {
		if (b->hi != b->page)
			tc_pageout(tc, b);
		if (!b->lo)
			b->lo = b->page;
		b->hi = b->page + tc->sys_page;
		if (b->hi - b->lo >= TC_PAGEOUT)
			tc_pageout(tc, b);
	}
	b->page = page;
}

/*
 * A damaged record (tdguard_record() said why in bad): said through
 * src->say, up to TC_DAMAGED_SAID of them, and counted. Returns true when
 * it goes on as an event marked damaged, false when it is dropped here (a
 * pass of its own: no one to say it to).
 */
static bool tc_damaged(struct source *src, struct tc *tc,
		       const struct diag *bad)
{
	struct diag d;

	if (!src->say)
		return false;
	tc->ndamaged++;
	if (tc->ndamaged <= TC_DAMAGED_SAID) {
		diag_set(&d, "%s: left out, reading goes on", bad->msg);
		src->say(src->say_arg, d.msg);
	} else if (tc->ndamaged == TC_DAMAGED_SAID + 1) {
		diag_set(&d, "%s: more damaged records: counted, not each said",
			 src->name);
		src->say(src->say_arg, d.msg);
	}
	return true;
}

/* The end of the records: the count of the damaged ones, if any. */
static int tc_end(struct source *src, struct tc *tc, struct diag *d)
{
	uint64_t n = tc->ndamaged, pages = tc->npages;
	int bufs = tc->nbadbufs;

	if ((!n && !pages && !bufs) || !src->say)
		return 0;
	tc->ndamaged = tc->npages = 0;
	tc->nbadbufs = 0;
	diag_set(d, "%s: ", src->name);
	if (bufs)
		diag_add(d, "instance buffer '%s'%s cannot be read (libtracecmd refuses its options or CPU data; trace-cmd report skips it too): left out%s",
			 tc->badbuf ? tc->badbuf : "(no name)",
			 bufs > 1 ? " and others" : "", n || pages ? "; " : "");
	if (n)
		diag_add(d, "%" PRIu64 " damaged record%s left out (%s above; the default output still prints %s, from %s own bytes only: zeros past %s end)",
			 n, n == 1 ? "" : "s",
			 n > TC_DAMAGED_SAID ? "the first named" : "named",
			 n == 1 ? "it" : "them", n == 1 ? "its" : "their",
			 n == 1 ? "its" : "their");
	if (pages)
		diag_add(d, "%s%" PRIu64 " damaged page%s left out (named above)",
			 n ? "; " : "", pages, pages == 1 ? "" : "s");
	return -EIO;
}

/*
 * tracedat-shrink: did the file lose pages under libtracecmd's mapping
 * (rec's among them, touched first)? A load per record while none did.
 */
static inline bool tc_shrunk(struct source *src, struct tc *tc,
			     const struct tep_record *rec, struct diag *d)
{
	if (!tc->map_ino)
		return false;
	if (rec)
		tdshrink_touch(rec->data, rec->size);
	if (__builtin_expect(!*tc->shrink_hits, 1))
		return false;
	return tdshrink_lost(NULL, 0, tc->map_dev, tc->map_ino, tc->name,
			     src->open_path, d);
}

int tc_next(struct source *src, struct event *ev, struct diag *d)
{
	struct tc *tc = src->priv;
	struct tep_record *rec;
	struct diag bad;
	uint64_t id = 0;
	int cpu, ret;

	/* tracedat-guard: a fault printing the last event ends this input */
	if (__builtin_expect(tc->guard_hit, 0) && tdguard_failed(tc->guard, d))
		return -EIO;
	if (__builtin_expect(tc->late, 0) && tc_late_failed(tc, d))
		return -EIO;
	if (!tc->started)
		tc_start(src, tc);
again:
	/*
	 * Free the current record before reading past it on its CPU:
	 * libtracecmd 1.3.1 keeps every decompressed chunk of a v7 file
	 * cached, and reading across a page while the last record of the
	 * old one is held makes its lookups linear in the chunks seen so far
	 * (2.5x slower on 23M events). trace-cmd report frees first too.
	 */
	if (tc->cur) {
		/* what trace-cmd's printing of it would have learned */
		if (tc->cur_learn && !tc->cur_info)
			tc_learn_comms(tc, tc->cur_learn, tc->cur);
		tc_release(tc, tc->cur, tc->refill);
		if (!tc_pages_own(tc, tc->cur, tc->refill))
			tracecmd_free_record(tc->cur);
		tc->cur = NULL;
	}
	/*
	 * cur's slot is still the heap's top: its next record takes its
	 * place there, or the last one does (one sift down for both)
	 */
	if (tc->refill >= 0) {
		cpu = tc->refill;
		tc->refill = -1;
		tc->next[cpu] = tc_read_cpu(src, tc, cpu);
		if (!tc->next[cpu])
			tc->heap[0] = tc->heap[--tc->nheap];
		tc_sift_down(tc, 0);
	}
	if (!tc->nheap) {
		/*
		 * tracedat-shrink: the file cut under libtracecmd's mapping
		 * (with a record left, the check below says so)
		 */
		if (tc_shrunk(src, tc, NULL, d))
			return -EIO;
		return tc_end(src, tc, d);
	}
	cpu = tc->heap[0];
	rec = tc->next[cpu];
	tc->next[cpu] = NULL;
	tc->refill = cpu;	/* also cur's slot (tc_cur_buf()) */
	tc->cur = rec;
	tc->cur_info = false;
	tc->cur_short = false;
	tc->cur_learn = NULL;
	/*
	 * tracedat-shrink: the file cut under libtracecmd's mapping, the
	 * record's bytes too (they were there when libtracecmd read it)
	 */
	if (tc_shrunk(src, tc, rec, d))
		return -EIO;

	ev->ts = rec->ts;
	ev->raw_ts = rec->ts;
	ev->has_ts = true;
	ev->seq = tc->seq++;
	ev->cpu = (uint32_t)rec->cpu;
	ev->pid = 0;
	ev->has_vcpu = false;
	ev->type = &tc->unknown;
	if (tc->type_size && tc->type_off + tc->type_size <= rec->size) {
		id = tc_read(tc, (char *)rec->data + tc->type_off, tc->type_size);
		int32_t ti = tc_type_of(tc, id);

		if (ti >= 0) {
			ev->type = &tc->types[ti].t;
			if (tc->types[ti].learn)
				tc->cur_learn = &tc->types[ti];
		}
	}
	/*
	 * tracedat-guard: every field of its format inside the record; a
	 * record that fails is damaged, said and counted, and the next one
	 * follows
	 */
	ev->damaged = false;
	if (ev->type != &tc->unknown) {
		struct tc_type *t = &tc->types[ev->type->index];

		/* tdguard_record()'s first test, its size kept per type */
		if (__builtin_expect(!t->fits, 0))
			t->fits = tdguard_fits(tc->guard, t->ev);
		ret = __builtin_expect(rec->size >= 0 &&
					       (uint64_t)rec->size >= t->fits,
				       1)
			      ? 0
			      : tdguard_record(tc->guard, tc->tep, t->ev, rec,
					       &bad);
		if (__builtin_expect(ret != 0, 0)) {
			if (ret == -ENOMEM) {
				*d = bad;
				return ret;
			}
			/* libtraceevent prints it from a padded copy */
			tc->cur_short = true;
			if (ret < 0) {
				if (!tc_damaged(src, tc, &bad))
					goto again;
				ev->damaged = true;
			}
		}
	}
	if (tc->pid_size && tc->pid_off + tc->pid_size <= rec->size)
		ev->pid = tc_sext(tc_read(tc, (char *)rec->data + tc->pid_off,
					  tc->pid_size), tc->pid_size);
	ev->src = src;
	/* a copy, with what the renderer reads from it (tc_field_at()) */
	tc->view.r = *rec;
	ev->rec = &tc->view.r;
	if (tc->vm.invert || tc->vm.name || tc->vm.nthreads)
		tc_vm_event(tc, ev);
	tc->view.pid = ev->pid;
	if (tc->want_comm)
		tc->view.comm = tc_comm(tc, ev->pid, &tc->view.comm_len);
	return 1;
}
