// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A guest record's own time stamp, as its ring-buffer page holds it.
 *
 * libtracecmd hands out a guest's records on the host's clock: it maps
 * each time stamp through the guest's TIME_SHIFT samples as it reads the
 * page (trace-input.c: timestamp_calc()). Where the mapping is not one to
 * one (a scaling below 1 with fraction bits, offsets that step back), the
 * host time no longer tells the guest time it came from. So the guest's
 * time (`guest_ts`) is read again from the page the record lies in, with
 * libtraceevent's own kbuffer walk (the one libtracecmd uses), before any
 * shift: per CPU a kbuffer on the current page, moved forward to the
 * record's offset. The record must be found where libtracecmd says it is
 * (the same data pointer); when it is not (pages libtracecmd keeps in
 * memory of its own), tc_raw_ts() says so and the caller inverts the
 * mapping instead (tracedat-shift.c).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include <kbuffer.h>

#include "tracecmd.h"

/* The walk of one CPU's pages. */
struct tc_rawcpu {
	struct kbuffer *kb;	/* owned */
	const char *page;	/* borrowed: the page kb holds */
};

struct tc_raw {
	struct tc_rawcpu *cpus;	/* owned: per CPU */
	int ncpus;
	uint64_t page_size;
};

static struct tc_raw *tc_raw_create(struct tc *tc)
{
	struct tc_raw *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->ncpus = tc->ncpus;
	/* the file's header: libtracecmd 1.3.1 tells tep none */
	r->page_size = tc->file.page_size;
	r->cpus = calloc(r->ncpus > 0 ? (size_t)r->ncpus : 1, sizeof(*r->cpus));
	if (!r->cpus) {
		free(r);
		return NULL;
	}
	return r;
}

void tc_raw_destroy(struct tc_raw *r)
{
	int cpu;

	if (!r)
		return;
	for (cpu = 0; cpu < r->ncpus; cpu++)
		kbuffer_free(r->cpus[cpu].kb);
	free(r->cpus);
	free(r);
}

static struct kbuffer *tc_raw_kbuffer(const struct tc *tc)
{
	struct kbuffer *kb;

	kb = kbuffer_alloc(tep_get_header_page_size(tc->tep) == 8
				   ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
			   tep_is_file_bigendian(tc->tep) ? KBUFFER_ENDIAN_BIG
							  : KBUFFER_ENDIAN_LITTLE);
	if (kb && tep_is_old_format(tc->tep))
		kbuffer_set_old_format(kb);
	return kb;
}

int tc_raw_ts(struct tc *tc, const struct tep_record *rec, uint64_t *ts)
{
	unsigned long long t = 0;
	struct tc_rawcpu *c;
	uint64_t in, hdr;
	const char *page;
	void *data;
	int off;

	if (!tc->raw) {
		tc->raw = tc_raw_create(tc);
		if (!tc->raw)
			return -ENOMEM;
	}
	if (rec->cpu < 0 || rec->cpu >= tc->raw->ncpus ||
	    !tc->raw->page_size ||
	    (tc->raw->page_size & (tc->raw->page_size - 1)) ||
	    rec->record_size < rec->size || rec->size < 0)
		return -ENOENT;
	c = &tc->raw->cpus[rec->cpu];
	if (!c->kb) {
		c->kb = tc_raw_kbuffer(tc);
		if (!c->kb)
			return -ENOMEM;
	}
	/*
	 * the record's header at in within its page (CPU data starts on a
	 * page boundary of the file), its data hdr bytes further
	 */
	in = rec->offset & (tc->raw->page_size - 1);
	hdr = (uint64_t)(rec->record_size - rec->size);
	if (in + hdr >= tc->raw->page_size)
		return -ENOENT;
	page = (const char *)rec->data - in - hdr;
	if (c->page != page || kbuffer_curr_offset(c->kb) > (int)in) {
		if (kbuffer_load_subbuffer(c->kb, (void *)page) < 0)
			return -ENOENT;
		c->page = page;
	}
	for (;;) {
		data = kbuffer_read_event(c->kb, &t);
		if (!data)
			return -ENOENT;
		off = kbuffer_curr_offset(c->kb);
		if ((uint64_t)off >= in)
			break;
		kbuffer_next_event(c->kb, NULL);
	}
	if ((uint64_t)off != in || data != rec->data)
		return -ENOENT;
	*ts = t;
	return 0;
}
