/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the batched merge (merge_batched(), merge_fill(),
 * merge_next_batch(), as run-batch.c's run_merged() drives them) against
 * the merge read an event at a time (merge_next()), on the same scripted
 * inputs. Differential: the two must hand out the same events in the same
 * order, with the same warnings and errors in the same places; the
 * batched one's relts and spans must be those of the stream it gave, and
 * every event it held must still have its record (a read over one, which
 * MERGE_FLUSH and merge_slow_out() are there to prevent, shows as a
 * poisoned record). Nothing of the files or readers: fake inputs, in the
 * manner of tests/unit/test-merge.c, whose fixed scripts this widens.
 *
 * Input: a header, then a script per input, then the time bytes.
 *   byte 0   inputs, 1 + b % 65 (65: a tree of 128 leaves, past
 *            merge_fill()'s unrolled depths; with an input read an event
 *            at a time, more than 64 are not batched)
 *   byte 1   bit 0: TSC inputs mapped onto a ns timeline at 500 MHz
 *            (times doubled; one past 2^63 does not map: its input stops
 *            with an error); bit 1: times start near 2^62
 *   byte 2   the caller's batch, 1 + b % 128 events (run_merged(): 128)
 *   per input, three bytes:
 *            kind: b % 3: 0 next_batch, at most 1 + (b >> 2) % 64 events
 *            a call (source_ops.two_events too); 1 two_events, read one
 *            at a time (ahead); 2 neither (trace.dat's kind)
 *            events: b (0 to 255)
 *            where next() fails: b, 255 never
 *   then a byte per event, input after input (0 when the input runs out):
 *            0-199    the last time + b % 4 (ties)
 *            200-239  + (b - 199) << 24
 *            240-247  back by (b - 239) << 8 (a step back)
 *            248-249  UINT64_MAX
 *            250-251  0
 *            252-253  2^62 + b
 *            254-255  no stamp (its time the last one, as kvmtrace's)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/merge-fake.h"

#define MAXIN FAKE_MAXIN
#define MAXEV FAKE_MAXEV
#define MAXHOLD 128

/* what a merge handed out, in order: an event, a warning, an error */
struct out {
	int what;		/* MERGE_EVENT, MERGE_WARN, or an errno < 0 */
	unsigned src;
	uint64_t ts, seq;
	bool has_ts;
	uint32_t msg;		/* hash of the message */
};

static struct fake fk[MAXIN];
static struct out oa[MAXIN * MAXEV * 2 + 8], ob[MAXIN * MAXEV * 2 + 8];

static uint32_t msg_hash(const struct diag *d)
{
	uint32_t h = 2166136261u;

	for (const char *p = d->msg; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	return h;
}

static struct out out_of(int what, const struct event *ev,
			 const struct diag *d)
{
	struct out o;

	memset(&o, 0, sizeof(o));	/* compared with memcmp() */
	o.what = what;
	if (ev) {
		o.src = ev->src->index;
		o.ts = ev->ts;
		o.seq = ev->seq;
		o.has_ts = ev->has_ts;
	}
	if (what != MERGE_EVENT)
		o.msg = msg_hash(d);
	return o;
}

static void rewind_fakes(size_t k)
{
	for (size_t i = 0; i < k; i++) {
		fk[i].at = 0;
		fake_poison(&fk[i]);
	}
}

/* merge_next(), an event at a time */
static size_t run_plain(struct source **srcs, size_t k, struct clock *clock)
{
	struct merge *m = merge_create(srcs, k, clock);
	struct event *ev;
	struct diag d;
	size_t n = 0;
	int ret;

	if (!m)
		abort();
	for (;;) {
		diag_init(&d);
		ret = merge_next(m, &ev, &d);
		if (ret == MERGE_END)
			break;
		oa[n++] = out_of(ret, ret > 0 ? ev : NULL, &d);
	}
	merge_destroy(m);
	return n;
}

/* the held events consumed: each record whole, relts the stream's */
static void consume(struct fake_stream *c, const struct event *hold, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct event *e = &hold[i];
		const uint64_t *r = e->rec;
		uint64_t rel;
		bool neg;

		if (!r || *r != e->seq) {
			fprintf(stderr, "input %u event %llu: its record was read over while held\n",
				e->src->index, (unsigned long long)e->seq);
			abort();
		}
		rel = fake_stream_add(c, e->src->index, e->ts, e->has_ts, &neg);
		if (e->relts != rel || e->relts_neg != neg) {
			fprintf(stderr, "input %u event %llu: relts %s%llu, the stream says %s%llu\n",
				e->src->index, (unsigned long long)e->seq,
				e->relts_neg ? "-" : "",
				(unsigned long long)e->relts, neg ? "-" : "",
				(unsigned long long)rel);
			abort();
		}
	}
}

/* as run_merged() drives a batched merge */
static size_t run_batched(struct source **srcs, size_t k, struct clock *clock,
			  size_t holdmax)
{
	static struct event hold[MAXHOLD];
	struct merge *m = merge_create(srcs, k, clock);
	struct clock_span spans[MAXIN];
	struct merge_tally tally = { .spans = spans };
	struct fake_stream chk;
	struct event *ev;
	struct diag d;
	size_t n = 0, nhold = 0, i;
	int ret;

	if (!m)
		abort();
	fake_stream_init(&chk);
	memcpy(spans, chk.spans, sizeof(spans));
	if (!merge_batched(m)) {
		merge_destroy(m);
		return SIZE_MAX;
	}
	for (;;) {
		size_t nf = merge_fill(m, hold + nhold, holdmax - nhold, &tally);

		for (i = nhold; i < nhold + nf; i++)
			ob[n++] = out_of(MERGE_EVENT, &hold[i], NULL);
		nhold += nf;
		diag_init(&d);
		if (nhold == holdmax || (nhold && merge_slow_out(m))) {
			ret = MERGE_EVENT;
			ev = NULL;
		} else {
			ret = merge_next_batch(m, &ev, &d);
			if (ret == MERGE_EVENT) {
				hold[nhold] = *ev;
				fake_take(&hold[nhold], &tally);
				ob[n++] = out_of(ret, &hold[nhold], NULL);
				nhold++;
				if (nhold < holdmax && !merge_slow_out(m))
					continue;
			}
		}
		consume(&chk, hold, nhold);
		nhold = 0;
		if (ret != MERGE_WARN)
			merge_flushed(m);
		if (ret == MERGE_EVENT || ret == MERGE_FLUSH)
			continue;
		if (ret == MERGE_END)
			break;
		ob[n++] = out_of(ret, ret > 0 ? ev : NULL, &d);
		if (ret == MERGE_WARN) {
			hold[nhold] = *ev;
			fake_take(&hold[nhold], &tally);
			nhold++;
		}
	}
	merge_destroy(m);
	for (i = 0; i < k; i++) {
		if (memcmp(&spans[i], &chk.spans[i], sizeof(spans[i]))) {
			fprintf(stderr, "input %zu: span %llu events %llu..%llu, the stream's %llu %llu..%llu\n",
				i, (unsigned long long)spans[i].events,
				(unsigned long long)spans[i].first,
				(unsigned long long)spans[i].last,
				(unsigned long long)chk.spans[i].events,
				(unsigned long long)chk.spans[i].first,
				(unsigned long long)chk.spans[i].last);
			abort();
		}
	}
	return n;
}

/*
 * The order itself, on the event-at-a-time merge's output (the batched
 * one must equal it): each event is its input's next, and comes before
 * the next event of every other input, by time, then input (the
 * tournament on the inputs' current events: an input that steps back
 * keeps its own order, the others go around it). Not where an input
 * failed (a read ahead may say so early) or a time did not map.
 */
static void check_order(size_t k, size_t na, bool map)
{
	size_t at[MAXIN] = { 0 }, i, j, p;

	for (p = 0; p < na; p++)
		if (oa[p].what < 0)
			return;
	for (p = 0; p < na; p++) {
		const struct out *o = &oa[p];
		uint64_t ts;

		i = o->src;
		if (o->seq != at[i]) {
			fprintf(stderr, "place %zu: input %zu event %llu out, its next is %zu\n",
				p, i, (unsigned long long)o->seq, at[i]);
			abort();
		}
		for (j = 0; j < k; j++) {
			if (j == i || at[j] >= fk[j].n)
				continue;
			ts = fk[j].ts[at[j]] * (map ? 2 : 1);
			if (ts < o->ts || (ts == o->ts && j < i)) {
				fprintf(stderr, "place %zu: input %zu event %llu (time %llu) out before input %zu event %zu (time %llu)\n",
					p, i, (unsigned long long)o->seq,
					(unsigned long long)o->ts, j, at[j],
					(unsigned long long)ts);
				abort();
			}
		}
		at[i]++;
	}
	for (j = 0; j < k; j++) {
		if (at[j] != fk[j].n) {
			fprintf(stderr, "input %zu: %zu of its %zu events out\n",
				j, at[j], fk[j].n);
			abort();
		}
	}
}

static uint8_t byte_at(const uint8_t *data, size_t size, size_t *at)
{
	return *at < size ? data[(*at)++] : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct source src[MAXIN];
	struct source *srcs[MAXIN];
	size_t at = 0, k, i, j, holdmax, na, nb;
	uint64_t off, t;
	struct clock *clock;
	uint8_t flags, b;

	if (size < 3)
		return 0;
	k = 1 + byte_at(data, size, &at) % MAXIN;
	flags = byte_at(data, size, &at);
	holdmax = 1 + byte_at(data, size, &at) % MAXHOLD;
	off = flags & 2 ? (uint64_t)1 << 62 : 0;
	for (i = 0; i < k; i++) {
		b = byte_at(data, size, &at);
		fk[i].kind = (enum fake_kind)(b % 3);
		fk[i].bmax = 1 + (b >> 2) % 64;
		fk[i].n = byte_at(data, size, &at);
		b = byte_at(data, size, &at);
		fk[i].fail_at = b == 255 ? MAXEV : b;
		fake_source(&src[i], &fk[i], (unsigned)i);
		srcs[i] = &src[i];
	}
	for (i = 0; i < k; i++) {
		t = off;
		for (j = 0; j < fk[i].n; j++) {
			b = byte_at(data, size, &at);
			fk[i].has_ts[j] = b < 254;
			if (b < 200)
				t += b % 4;
			else if (b < 240)
				t += (uint64_t)(b - 199) << 24;
			else if (b < 248)
				t -= (uint64_t)(b - 239) << 8;
			else if (b < 250)
				t = UINT64_MAX;
			else if (b < 252)
				t = 0;
			else if (b < 254)
				t = ((uint64_t)1 << 62) + b;
			fk[i].ts[j] = t;
		}
	}
	clock = clock_create();
	if (!clock)
		abort();
	clock->timeline = CLOCK_TSC;
	if (flags & 1) {
		clock->timeline = CLOCK_NS;
		clock->tsc_mhz = 500.0;
	}
	rewind_fakes(k);
	na = run_plain(srcs, k, clock);
	check_order(k, na, flags & 1);
	rewind_fakes(k);
	nb = run_batched(srcs, k, clock, holdmax);
	clock_destroy(clock);
	if (nb == SIZE_MAX)
		return 0;	/* not batched: one input, or too many */
	for (i = 0; i < na && i < nb; i++) {
		if (memcmp(&oa[i], &ob[i], sizeof(oa[i]))) {
			fprintf(stderr, "place %zu: one at a time %d input %u event %llu ts %llu msg %08x; batched %d input %u event %llu ts %llu msg %08x\n",
				i, oa[i].what, oa[i].src,
				(unsigned long long)oa[i].seq,
				(unsigned long long)oa[i].ts, oa[i].msg,
				ob[i].what, ob[i].src,
				(unsigned long long)ob[i].seq,
				(unsigned long long)ob[i].ts, ob[i].msg);
			abort();
		}
	}
	if (na != nb) {
		fprintf(stderr, "one at a time handed out %zu, batched %zu\n",
			na, nb);
		abort();
	}
	return 0;
}
