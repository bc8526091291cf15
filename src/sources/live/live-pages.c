// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Ring-buffer pages into events: each CPU's page (a sub-buffer as
 * trace_pipe_raw hands it out, or as a trace.dat stores it) goes through
 * libtraceevent's kbuffer, record by record, into a tep_record as
 * libtracecmd makes one for a trace.dat (time stamp, data, size, CPU, the
 * events the kernel dropped before the page), and from there into a
 * struct event as the trace.dat reader fills one (tracecmd-read.c).
 * The CPUs' records at hand are merged by time, ties to the lowest CPU.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "live-int.h"

/*
 * kbuffer's walk of a page (libtraceevent 1.7 kbuffer-parse.c:
 * kbuffer_load_subbuffer() here, the records by tc_kwalk_next() as the
 * trace.dat reader's pages) for little-endian pages on a little-endian
 * host, with its unsigned arithmetic: the same records, stamps, sizes and
 * missed events, without a call into the library for each of them.
 */
#define LIVE_KB_SLACK		16	/* zeros after a page: reads past it */

static unsigned long long live_kb_long(const struct live *l,
				       const unsigned char *p)
{
	uint64_t v = 0;

	memcpy(&v, p, l->long_size == 8 ? 8 : 4);
	return v;
}

/* kbuffer_load_subbuffer() of c->page */
static void live_kb_load(const struct live *l, struct live_cpu *c)
{
	const unsigned char *page = c->page;
	unsigned long long flags;

	memcpy(&c->k.ts, page, 8);
	c->k.curr = 0;
	c->kstart = l->long_size == 8 ? 16 : 12;
	c->k.data = page + c->kstart;
	flags = live_kb_long(l, page + 8);
	c->k.size = (unsigned int)flags & ((1u << 27) - 1);
	if (flags & (1UL << 31)) {
		if (flags & (1UL << 30))
			c->klost = (long long)live_kb_long(l, c->k.data +
							    c->k.size);
		else
			c->klost = -1;
	} else {
		c->klost = 0;
	}
	c->k.index = 0;
	c->k.next = 0;
	tc_kwalk_next(&c->k);
}

int live_pages_init(struct live *l)
{
	int i;

	l->cpus = calloc(l->tc.ncpus ? (size_t)l->tc.ncpus : 1,
			 sizeof(*l->cpus));
	if (!l->cpus)
		return -ENOMEM;
	for (i = 0; i < l->tc.ncpus; i++) {
		struct live_cpu *c = &l->cpus[i];

		c->cpu = i;
		c->fd = -1;
		c->kbuf = tep_kbuffer(l->tc.tep);
		c->page = calloc(1, (size_t)l->page_size + LIVE_KB_SLACK);
		if (!c->kbuf || !c->page)
			return -ENOMEM;
	}
	/* as tep_kbuffer() sets it up */
	l->long_size = tep_get_long_size(l->tc.tep) == 8 ? 8 : 4;
	l->own_pages = !tep_is_file_bigendian(l->tc.tep) &&
		       !tep_is_local_bigendian(l->tc.tep);
	return 0;
}

void live_pages_fini(struct live *l)
{
	int i;

	for (i = 0; l->cpus && i < l->tc.ncpus; i++) {
		if (l->cpus[i].kbuf)
			kbuffer_free(l->cpus[i].kbuf);
		free(l->cpus[i].page);
	}
	free(l->cpus);
	l->cpus = NULL;
}

/*
 * The record kbuf is at, into c->rec; false when the page is done, or
 * when the record runs past the page (c->bad: the rest is left out).
 */
static bool live_pages_take(const struct live *l, struct live_cpu *c)
{
	unsigned long long ts;
	void *data;
	int size;
	size_t at;

	c->has_rec = false;
	if (l->own_pages) {
		/* kbuffer_read_event() */
		if (c->k.curr >= c->k.size)
			return false;
		ts = c->k.ts;
		data = (void *)(c->k.data + c->k.index);
		size = (int)(c->k.next - c->k.index);
	} else {
		data = kbuffer_read_event(c->kbuf, &ts);
		if (!data)
			return false;
		size = kbuffer_event_size(c->kbuf);
	}
	at = (size_t)((char *)data - (char *)c->page);
	if (at > c->len || (size_t)size > c->len - at) {
		c->bad = true;
		return false;
	}
	c->has_rec = true;
	c->rec.ts = ts;
	c->rec.data = data;
	c->rec.size = size;
	if (l->own_pages) {
		c->rec.record_size = (int)(c->k.next - c->k.curr);
		c->rec.offset = (unsigned long long)(int)(c->k.curr + c->kstart);
		c->rec.missed_events = c->k.curr ? 0 : c->klost;
	} else {
		c->rec.record_size = kbuffer_curr_size(c->kbuf);
		c->rec.offset =
			(unsigned long long)kbuffer_curr_offset(c->kbuf);
		c->rec.missed_events = kbuffer_missed_events(c->kbuf);
	}
	c->rec.cpu = c->cpu;
	return true;
}

int live_pages_load(struct live *l, struct live_cpu *c, int len)
{
	struct tc *tc = &l->tc;
	int lsize = tep_get_header_page_size(tc->tep);
	size_t hdr;
	uint64_t commit;

	c->has_rec = false;
	c->bad = false;
	if (len <= 0)
		return 0;
	/* a short read: the rest is not the page's */
	if (len < l->page_size)
		memset((char *)c->page + len, 0, (size_t)(l->page_size - len));
	c->len = (size_t)l->page_size;
	/*
	 * the page's header: u64 time stamp, then its commit (a long: the
	 * bytes of data, two flags on top); the data must fit in the page,
	 * with the count of missed events after it when stored
	 */
	if (lsize != 4 && lsize != 8)
		lsize = 8;
	hdr = 8 + (size_t)lsize;
	if ((size_t)len < hdr)
		return -EIO;
	commit = tc_read(tc, (char *)c->page + 8, lsize) & ((1u << 27) - 1);
	if (commit > c->len - hdr ||
	    ((tc_read(tc, (char *)c->page + 8, lsize) & (1u << 30)) &&
	     commit + (size_t)lsize > c->len - hdr))
		return -EIO;
	if (l->own_pages)
		live_kb_load(l, c);
	else if (kbuffer_load_subbuffer(c->kbuf, c->page) < 0)
		return -EIO;
	live_pages_take(l, c);
	if (c->bad)
		l->nbad++;
	return 0;
}

void live_pages_advance(struct live *l, struct live_cpu *c)
{
	if (!c->has_rec)
		return;
	if (l->own_pages ? tc_kwalk_next(&c->k) == 0
			 : kbuffer_next_event(c->kbuf, NULL) != NULL)
		live_pages_take(l, c);
	else
		c->has_rec = false;
	if (c->bad)
		l->nbad++;
}

int live_pages_first(const struct live *l)
{
	unsigned long long best = 0;
	int i, first = -1;

	for (i = 0; i < l->tc.ncpus; i++) {
		const struct live_cpu *c = &l->cpus[i];

		if (c->has_rec && (first < 0 || c->rec.ts < best)) {
			best = c->rec.ts;
			first = i;
		}
	}
	return first;
}

/* The type index of an event id, or -1 (tracecmd-read.c's lookup). */
static int32_t live_type_of(const struct tc *tc, uint64_t id)
{
	uint32_t lo = 0, hi = tc->nsparse;

	if (id < tc->nids)
		return tc->by_id[id];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (tc->sparse[mid].id == id)
			return (int32_t)tc->sparse[mid].index;
		if (tc->sparse[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

void live_pages_event(struct source *src, struct live_cpu *c,
		      struct event *ev)
{
	struct live *l = live_of(src);
	struct tc *tc = &l->tc;
	struct tep_record *rec = &c->rec;

	ev->ts = rec->ts;
	ev->raw_ts = rec->ts;
	ev->has_ts = true;
	ev->seq = tc->seq++;
	ev->cpu = (uint32_t)rec->cpu;
	ev->pid = 0;
	ev->has_vcpu = false;
	ev->damaged = false;
	ev->type = &tc->unknown;
	tc->cur = rec;
	tc->cur_info = false;
	tc->cur_learn = NULL;
	if (tc->type_size && tc->type_off + tc->type_size <= rec->size) {
		int32_t ti = live_type_of(tc, tc_read(tc, (char *)rec->data +
							      tc->type_off,
						      tc->type_size));

		if (ti >= 0) {
			ev->type = &tc->types[ti].t;
			if (tc->types[ti].learn)
				tc->cur_learn = &tc->types[ti];
		}
	}
	if (tc->pid_size && tc->pid_off + tc->pid_size <= rec->size)
		ev->pid = tc_sext(tc_read(tc, (char *)rec->data + tc->pid_off,
					  tc->pid_size), tc->pid_size);
	ev->src = src;
	ev->rec = rec;
}
