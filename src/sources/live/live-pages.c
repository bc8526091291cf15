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
		c->page = malloc((size_t)l->page_size);
		if (!c->kbuf || !c->page)
			return -ENOMEM;
	}
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
static bool live_pages_take(struct live_cpu *c)
{
	unsigned long long ts;
	void *data = kbuffer_read_event(c->kbuf, &ts);
	size_t at;

	c->has_rec = false;
	if (!data)
		return false;
	at = (size_t)((char *)data - (char *)c->page);
	if (at > c->len || (size_t)kbuffer_event_size(c->kbuf) > c->len - at) {
		c->bad = true;
		return false;
	}
	c->has_rec = true;
	c->rec.ts = ts;
	c->rec.data = data;
	c->rec.size = kbuffer_event_size(c->kbuf);
	c->rec.record_size = kbuffer_curr_size(c->kbuf);
	c->rec.offset = (unsigned long long)kbuffer_curr_offset(c->kbuf);
	c->rec.missed_events = kbuffer_missed_events(c->kbuf);
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
	if (kbuffer_load_subbuffer(c->kbuf, c->page) < 0)
		return -EIO;
	live_pages_take(c);
	if (c->bad)
		l->nbad++;
	return 0;
}

void live_pages_advance(struct live *l, struct live_cpu *c)
{
	if (!c->has_rec)
		return;
	if (kbuffer_next_event(c->kbuf, NULL))
		live_pages_take(c);
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
