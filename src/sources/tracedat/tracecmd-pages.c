// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The records of a page read without libtracecmd's per-record calls
 * (tracecmd-read.c's CPUs): libtracecmd hands out the first record of each
 * page, and the page's other records are read here into a record of the
 * slot's own, walking the page as libtraceevent's kbuffer does (the parser
 * libtracecmd reads them with: tc_kwalk_next(), or kbuffer's calls
 * themselves). libtracecmd's records cost a malloc, a free and its page
 * bookkeeping each (about 450 instructions of 1630 a record of a
 * fields-only template; kbuffer's calls 260 more).
 *
 * libtracecmd 1.3.1 (trace-input.c): tracecmd_peek_data() reads the
 * page's kbuffer, a record is {ts: its timestamp_calc(), size:
 * kbuffer_event_size(), offset: the page's file offset +
 * kbuffer_curr_offset(), missed_events, record_size: kbuffer_curr_size()};
 * at a page's end get_next_page() goes to the next page of the CPU while
 * more than a page of its data is left, and tracecmd_read_at() of that
 * page's offset reads the same first record (the same get_page(), then
 * the page's events up to the first), so that is how a page is left here.
 *
 * Only where that holds, checked when the source opens (tc_pages_init()):
 * pages libtracecmd reads as plain pages (version 6, or our uncompressed
 * copy), the top buffer alone, CPU data that lies apart inside the file,
 * time stamps libtracecmd does not change (no TSC2NSEC, DATE or
 * TIME_SHIFT). Before libtraceevent prints a function graph entry, whose
 * plugin (libtracecmd's own) reads on through libtracecmd's iterators,
 * these are brought to where they would stand and libtracecmd reads the
 * rest (tc_pages_stop()). And at each page: the kbuffer finds
 * libtracecmd's first record where it is, with its time stamp (no offset
 * applied); else the slot goes back to libtracecmd for good, whose
 * iterator stands right after that record.
 * The first record is held here while its page is read (it holds the
 * page), and handed out as a copy in the slot's record, as the others.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <trace-cmd.h>

#include "tracecmd.h"

static bool tc_pages_apart(const struct tc *tc, uint64_t fsize)
{
	uint32_t i, j;

	for (i = 0; i < tc->file.ncpus; i++) {
		const struct tracedat_cpu *a = &tc->file.cpus[i];

		if (a->off > fsize || a->size > fsize - a->off ||
		    (a->off & (tc->file.page_size - 1)))
			return false;
		for (j = 0; j < i; j++) {
			const struct tracedat_cpu *b = &tc->file.cpus[j];

			if (a->size && b->size && a->off < b->off + b->size &&
			    b->off < a->off + a->size)
				return false;
		}
	}
	return true;
}

void tc_pages_init(struct tc *tc, uint64_t fsize)
{
	enum kbuffer_long_size ls;
	enum kbuffer_endian en;
	uint64_t ps = tc->file.page_size;
	int i;

	if (!tc->behind || tc->nbufs != 1 || tc->nslots != tc->ncpus ||
	    tc->file.tsc2nsec || tc->file.date || tc->file.shift ||
	    !tc->file.ncpus || ps < 64 || (ps & (ps - 1)) ||
	    tep_get_header_timestamp_size(tc->tep) != 8 || !fsize ||
	    !tc_pages_apart(tc, fsize))
		return;
	tc->pages = calloc((size_t)tc->nslots, sizeof(*tc->pages));
	if (!tc->pages)
		return;
	tc->pages_fgraph = tep_find_event_by_name(tc->tep, "ftrace",
						  "funcgraph_entry");
	tc->pages_walk = !tc->swap && !tep_is_file_bigendian(tc->tep) &&
			 __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&
			 !tep_is_old_format(tc->tep);
	ls = tep_get_long_size(tc->tep) == 8 ? KBUFFER_LSIZE_8
					     : KBUFFER_LSIZE_4;
	en = tep_is_file_bigendian(tc->tep) ? KBUFFER_ENDIAN_BIG
					    : KBUFFER_ENDIAN_LITTLE;
	for (i = 0; i < tc->nslots; i++) {
		tc->pages[i].kb = kbuffer_alloc(ls, en);
		if (tc->pages[i].kb && tep_is_old_format(tc->tep))
			kbuffer_set_old_format(tc->pages[i].kb);
	}
}

void tc_pages_free(struct tc *tc)
{
	int i;

	for (i = 0; tc->pages && i < tc->nslots; i++) {
		if (tc->pages[i].anchor)
			tracecmd_free_record(tc->pages[i].anchor);
		if (tc->pages[i].kb)
			kbuffer_free(tc->pages[i].kb);
	}
	free(tc->pages);
	tc->pages = NULL;
}

/*
 * libtracecmd's record of slot at file offset off, its iterator brought
 * there: its page's first record held here, or read again up to it (the
 * page's records after the first were read here only). NULL: not found.
 */
static struct tep_record *tc_pages_sync(struct tc *tc, int slot, uint64_t off)
{
	struct tc_page *p = &tc->pages[slot];
	const struct tc_slot *at = &tc->slot[slot];
	struct tep_record *rec;

	if (!p->anchor)
		return NULL;
	if (p->anchor->offset == off) {
		rec = p->anchor;
		p->anchor = NULL;
		return rec;
	}
	while ((rec = tracecmd_read_data(at->handle, at->cpu))) {
		if (rec->offset == off)
			return rec;
		if (rec->offset > off) {
			tracecmd_free_record(rec);
			break;
		}
		tracecmd_free_record(rec);
	}
	return NULL;
}

void tc_pages_stop(struct tc *tc)
{
	struct tep_record **at, *rec;
	int slot;

	for (slot = 0; tc->pages && slot < tc->nslots; slot++) {
		at = NULL;
		if (tc->cur && slot == tc->refill &&
		    tc_pages_own(tc, tc->cur, slot))
			at = &tc->cur;
		else if (tc->next[slot] && tc_pages_own(tc, tc->next[slot], slot))
			at = &tc->next[slot];
		if (!at)
			continue;
		rec = tc_pages_sync(tc, slot, (*at)->offset);
		if (!rec)
			return;	/* cannot be: reading goes on here */
		*at = rec;
	}
	tc_pages_free(tc);
}

/* kbuffer_load_subbuffer()'s lost events of the page at base */
static long long tc_pages_lost(const struct tc *tc, const char *base,
			       uint32_t start, uint32_t size)
{
	unsigned long long flags;
	uint64_t v8;

	if (start == 16) {
		memcpy(&v8, base + 8, 8);
		flags = v8;
	} else {
		flags = tc_kwalk_4((const unsigned char *)base + 8);
	}
	if (!(flags & (1UL << 31)))
		return 0;
	if (!(flags & (1UL << 30)))
		return -1;
	if (start == 16) {
		memcpy(&v8, base + start + size, 8);
		return (long long)v8;
	}
	return (long long)tc_kwalk_4((const unsigned char *)base + start +
				     size);
}

/* The slot reads from libtracecmd alone from now on. */
static void tc_pages_off(struct tc_page *p)
{
	if (p->anchor)
		tracecmd_free_record(p->anchor);
	p->anchor = NULL;
	if (p->kb)
		kbuffer_free(p->kb);
	p->kb = NULL;
}

struct tep_record *tc_pages_anchor(struct tc *tc, int slot,
				   struct tep_record *rec)
{
	struct tc_page *p = &tc->pages[slot];
	uint64_t ps = tc->file.page_size, in, hdr;
	const struct tracedat_cpu *r = NULL;
	unsigned long long ts;
	void *data;
	uint32_t i;

	if (!p->kb)
		return rec;
	if (p->anchor)
		tracecmd_free_record(p->anchor);
	p->anchor = NULL;
	for (i = 0; i < tc->file.ncpus && !r; i++)
		if (rec->offset >= tc->file.cpus[i].off &&
		    rec->offset - tc->file.cpus[i].off < tc->file.cpus[i].size)
			r = &tc->file.cpus[i];
	in = rec->offset & (ps - 1);
	if (!r || rec->size < 0 || rec->record_size < rec->size || !rec->data)
		goto off;
	hdr = (uint64_t)(rec->record_size - rec->size);
	if (hdr > in)
		goto off;
	/* the page from its start, as libtracecmd's kbuffer read it */
	if (kbuffer_load_subbuffer(p->kb, (char *)rec->data - hdr - in) < 0)
		goto off;
	for (;;) {
		data = kbuffer_read_event(p->kb, &ts);
		if (!data || (uint64_t)kbuffer_curr_offset(p->kb) > in)
			goto off;
		if ((uint64_t)kbuffer_curr_offset(p->kb) == in)
			break;
		kbuffer_next_event(p->kb, NULL);
	}
	/* libtracecmd's record as read here: else it changed something */
	if (data != rec->data || ts != rec->ts ||
	    kbuffer_event_size(p->kb) != rec->size ||
	    kbuffer_curr_size(p->kb) != rec->record_size)
		goto off;
	if (tc->pages_walk) {
		/* the kbuffer's state, from here on walked here */
		p->kstart = tep_get_long_size(tc->tep) == 8 ? 16 : 12;
		p->k.data = (const unsigned char *)rec->data - hdr - in +
			    p->kstart;
		p->k.size = (uint32_t)kbuffer_subbuffer_size(p->kb);
		p->k.curr = (uint32_t)kbuffer_curr_offset(p->kb) - p->kstart;
		p->k.next = p->k.curr + (uint32_t)kbuffer_curr_size(p->kb);
		p->k.ts = kbuffer_timestamp(p->kb);
		p->klost = tc_pages_lost(tc, (const char *)p->k.data - p->kstart,
					 p->kstart, p->k.size);
		tc_kwalk_next(&p->k);
	} else {
		kbuffer_next_event(p->kb, NULL);
	}
	/* ours until the page is read; a copy is handed out */
	p->anchor = rec;
	p->page = rec->offset - in;
	p->end = r->off + r->size;
	p->rec = *rec;
	p->rec.priv = NULL;
	return &p->rec;
off:
	tc_pages_off(p);
	return rec;
}

struct tep_record *tc_pages_next(struct tc *tc, int slot, bool *more)
{
	struct tc_page *p = &tc->pages[slot];
	struct tep_record *r = &p->rec, *rec;
	uint64_t ps = tc->file.page_size, next;
	unsigned long long ts;
	void *data;
	int c = -1;

	*more = true;
	if (!p->anchor)
		return NULL;
	if (tc->pages_walk) {
		/* kbuffer_read_event() and the record, as peek_data() */
		if (__builtin_expect(p->k.curr >= p->k.size, 0))
			goto page_done;
		r->ts = p->k.ts;
		r->size = (int)(p->k.next - p->k.index);
		r->data = (void *)(p->k.data + p->k.index);
		r->offset = p->page + p->kstart + p->k.curr;
		r->missed_events = p->k.curr ? 0 : p->klost;
		r->record_size = (int)(p->k.next - p->k.curr);
		r->ref_count = 1;
		tc_kwalk_next(&p->k);
		return r;
	}
	data = kbuffer_read_event(p->kb, &ts);
	if (__builtin_expect(data != NULL, 1)) {
		r->ts = ts;
		r->size = kbuffer_event_size(p->kb);
		r->data = data;
		r->offset = p->page + (uint64_t)kbuffer_curr_offset(p->kb);
		r->missed_events = kbuffer_missed_events(p->kb);
		r->record_size = kbuffer_curr_size(p->kb);
		r->ref_count = 1;
		kbuffer_next_event(p->kb, NULL);
		return r;
	}
page_done:
	/* the page is read: get_next_page()'s next one, if any */
	tracecmd_free_record(p->anchor);
	p->anchor = NULL;
	next = p->page + ps;
	if (p->end - p->page <= ps) {
		*more = false;
		return NULL;
	}
	rec = tracecmd_read_at(tc->slot[slot].handle, next, &c);
	if (!rec) {
		*more = false;
		return NULL;
	}
	if (c != tc->slot[slot].cpu || rec->offset < next) {
		/* not the page this CPU goes on with: cannot be */
		tracecmd_free_record(rec);
		tc_pages_off(p);
		*more = false;
		return NULL;
	}
	return tc_pages_anchor(tc, slot, rec);
}
