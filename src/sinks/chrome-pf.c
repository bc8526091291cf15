// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The timeline (timeline.h) as a Perfetto trace: a Trace message, that is
 * a stream of TracePackets, each written as the event comes.
 *
 *  - Every packet is on one sequence (trusted_packet_sequence_id 1); the
 *    first says SEQ_INCREMENTAL_STATE_CLEARED, every packet that uses an
 *    interned id says SEQ_NEEDS_INCREMENTAL_STATE.
 *  - Event names, categories and arg names are interned: the packet that
 *    first uses one carries it in its InternedData (iid from 1, per
 *    kind); beyond PF_MAXIIDS of a kind, a name is written out instead.
 *  - Chrome's process P is a track (uuid PF_PROC + P) with a
 *    ProcessDescriptor; its thread T a track (uuid T) with a
 *    ThreadDescriptor (pid P, tid T, the same numbers as the JSON); a
 *    counter a track with a CounterDescriptor in its process. Each is
 *    described before its first event.
 *  - A slice ("X") is a TYPE_SLICE_BEGIN and a TYPE_SLICE_END: both
 *    when the slice ends, or the BEGIN when it opens (TL_OPEN: the CPU
 *    tracks, where a handler nests in the task) and the END, with the
 *    args, when it ends; "B" and "E" each one packet; an instant
 *    TYPE_INSTANT; a counter sample TYPE_COUNTER (double_counter_value).
 *    Args are debug annotations: numbers as numbers, strings as strings,
 *    addresses as pointer values (the JSON's "0x…" strings).
 *  - Perfetto pairs BEGIN and END per track in time order, then file
 *    order. Slices open in file order but for a call whose entry came
 *    before the trace (outer), written when it ends: it begins at the
 *    trace's first stamp, and if a slice written before it began there
 *    too, it begins 1 ns before (and the next such 1 ns before that), so
 *    that it encloses them.
 *  - Time stamps are ns (ts of the JSON times 1000, on the same rounding).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "chrome-pf-int.h"
#include "chrome.h"
#include "outbuf.h"
#include "pf-wire.h"
#include "sink-util.h"
#include "timeline.h"

#define PF_PROC		(1ull << 40)	/* uuid of process track P: + P */
#define PF_MAXCOUNTERS	4096

uint8_t *pf_str(uint8_t *p, unsigned field, const char *s, size_t len)
{
	uint8_t *m = pf_open(&p, field);
	uint64_t w0, w1;

	if (len >= 8 && len <= 16) {
		/* ASCII as it is: an id's hex, an exit reason's number */
		memcpy(&w0, s, 8);
		memcpy(&w1, s + len - 8, 8);
		if (!((w0 | w1) & 0x8080808080808080ull)) {
			memcpy(p, &w0, 8);
			memcpy(p + len - 8, &w1, 8);
			*m = (uint8_t)len;
			return p + len;
		}
	}
	p += sink_utf8_clean((char *)p, s, len);
	return pf_close(m, p);
}

/* A TrackDescriptor packet; name may be NULL. */
static int pf_track(struct tl_pf *f, uint64_t uuid, uint64_t parent,
		    unsigned what, uint32_t pid, uint32_t tid,
		    const char *name, size_t len)
{
	uint8_t *p = (uint8_t *)outbuf_reserve(f->enc.out,
					       3 * len + 96 + 4 * PF_NEST),
		*start = p, *pkt, *td, *d;

	if (!p)
		return -ENOMEM;
	pkt = pf_open(&p, PF_TRACE_PACKET);
	td = pf_open(&p, PF_PKT_TRACK_DESC);
	p = pf_uint(p, PF_TD_UUID, uuid);
	if (parent)
		p = pf_uint(p, PF_TD_PARENT, parent);
	switch (what) {
	case PF_TD_PROCESS:
		d = pf_open(&p, PF_TD_PROCESS);
		p = pf_uint(p, PF_PD_PID, pid);
		if (name)
			p = pf_str(p, PF_PD_NAME, name, len);
		p = pf_close(d, p);
		break;
	case PF_TD_THREAD:
		d = pf_open(&p, PF_TD_THREAD);
		p = pf_uint(p, PF_THD_PID, pid);
		p = pf_uint(p, PF_THD_TID, tid);
		p = pf_str(p, PF_THD_NAME, name, len);
		p = pf_close(d, p);
		break;
	default:
		p = pf_str(p, PF_TD_NAME, name, len);
		d = pf_open(&p, PF_TD_COUNTER);
		p = pf_bytes(p, PF_CD_CATEGORIES, "counters", 8);
		p = pf_close(d, p);
		break;
	}
	p = pf_close(td, p);
	p = pf_close(pkt, p);
	outbuf_commit(f->enc.out, (size_t)(p - start));
	f->enc.bytes += (uint64_t)(p - start);
	return 0;
}

static int pf_process(struct tl_enc *e, uint32_t pid, const char *name,
		      size_t len, int64_t sort)
{
	struct tl_pf *f = container_of(e, struct tl_pf, enc);

	(void)sort;
	if (sink_map_find(&f->procs, pid) == SINK_MAP_EMPTY &&
	    sink_map_add(&f->procs, pid, pid) < 0)
		return -ENOMEM;
	return pf_track(f, PF_PROC + pid, 0, PF_TD_PROCESS, pid, 0, name, len);
}

static int pf_thread(struct tl_enc *e, uint32_t pid, uint32_t tid,
		     const char *name, size_t len, int64_t sort)
{
	struct tl_pf *f = container_of(e, struct tl_pf, enc);

	(void)sort;
	return pf_track(f, tid, 0, PF_TD_THREAD, pid, tid, name, len);
}

int pf_counter_track(struct tl_pf *f, const struct tl_event *ev,
		     uint64_t *uuid)
{
	uint64_t h = pf_hash(PF_KEY + 1, ev->name, ev->namelen);
	uint32_t i = sink_map_find(&f->counters, h);

	if (i != SINK_MAP_EMPTY) {
		*uuid = PF_COUNTER + i;
		return 0;
	}
	if (f->ncounters >= PF_MAXCOUNTERS) {
		/* beyond the cap: the last one's track */
		*uuid = PF_COUNTER + f->ncounters - 1;
		return 0;
	}
	i = f->ncounters++;
	*uuid = PF_COUNTER + i;
	if (sink_map_find(&f->procs, ev->pid) == SINK_MAP_EMPTY &&
	    (sink_map_add(&f->procs, ev->pid, ev->pid) < 0 ||
	     pf_track(f, PF_PROC + ev->pid, 0, PF_TD_PROCESS, ev->pid, 0, NULL,
		      0) < 0))
		return -ENOMEM;
	if (sink_map_add(&f->counters, h, i) < 0)
		return -ENOMEM;
	return pf_track(f, *uuid, PF_PROC + ev->pid, PF_TD_COUNTER, ev->pid, 0,
			ev->name, ev->namelen);
}

/* The sequence's first packet: its incremental state starts empty. */
static int pf_begin(struct tl_enc *e)
{
	uint8_t *p = (uint8_t *)outbuf_reserve(e->out, 32), *start = p, *pkt;

	if (!p)
		return -ENOMEM;
	pkt = pf_open(&p, PF_TRACE_PACKET);
	p = pf_uint(p, PF_PKT_SEQ_ID, PF_SEQ);
	p = pf_uint(p, PF_PKT_SEQ_FLAGS, PF_SEQ_CLEARED);
	p = pf_close(pkt, p);
	outbuf_commit(e->out, (size_t)(p - start));
	e->bytes += (uint64_t)(p - start);
	return 0;
}

static void pf_destroy(struct tl_enc *e)
{
	struct tl_pf *f = container_of(e, struct tl_pf, enc);

	free(f->tracks);
	free(f->bloom);
	sink_map_fini(&f->iids);
	sink_map_fini(&f->procs);
	sink_map_fini(&f->counters);
	free(f);
}

static const struct tl_enc_ops tl_pf_ops = {
	.name = "perfetto",
	.begin = pf_begin,
	.process = pf_process,
	.thread = pf_thread,
	.event = pf_event,
	.destroy = pf_destroy,
};

struct tl_enc *tl_pf_create(struct outbuf *out, const struct sink_time *t)
{
	struct tl_pf *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->enc.ops = &tl_pf_ops;
	f->enc.out = out;
	f->enc.time = t;
	f->ts_hi = UINT64_MAX;
	/* without it, names go to iids directly */
	f->bloom = calloc(PF_BLOOM / 64, sizeof(*f->bloom));
	return &f->enc;
}
