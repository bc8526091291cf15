/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Clocks and the host timeline. A guest input's time stamps are on the
 * guest's TSC: guest_tsc = host_tsc + offset (signed), so a guest event
 * lands at host time guest_ts - offset.
 */
#ifndef KTF_CLOCK_H
#define KTF_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "event.h"
#include "source.h"

struct diag;

/* One guest TSC offset, in force from host time `from` on. */
struct clock_offset {
	uint64_t from;
	int64_t offset;
	uint32_t vcpu;
	bool any_vcpu;
};

struct clock {
	enum clock_kind timeline;	/* the clock of the merged stream */
	double tsc_mhz;			/* --tsc-mhz: TSC inputs to ns */
	bool have_offset;		/* --tsc-offset N */
	int64_t offset;
	bool auto_offset;		/* --tsc-offset auto */
	struct clock_offset *offsets;	/* owned, sorted by from */
	size_t noffsets;
	size_t cap;
};

struct clock *clock_create(void);
void clock_destroy(struct clock *c);
int clock_add_offset(struct clock *c, uint64_t from, int64_t offset,
		     uint32_t vcpu, bool any_vcpu);
/* Sort the auto offsets; call once after the last clock_add_offset(). */
void clock_finish(struct clock *c);

/* Put ev (of src) on the host timeline: sets ev->ts from ev->ts as read. */
static inline uint64_t clock_guest_to_host(uint64_t guest_ts, int64_t offset)
{
	return guest_ts - (uint64_t)offset;
}

/*
 * ev's time stamp onto the timeline (the guest's offset, --tsc-mhz).
 * Returns 0, or -ERANGE when the nanoseconds would not fit 64 bits (ev
 * unchanged; clock_map_error() says so in d).
 */
int clock_map(const struct clock *c, const struct source *src,
	      struct event *ev);
void clock_map_error(const struct clock *c, const struct source *src,
		     const struct event *ev, struct diag *d);

/*
 * Decide the timeline from the inputs' clocks. Inputs on different clocks
 * are never mixed silently: without --tsc-mhz that is an error (diag names
 * the inputs and their clocks).
 */
int clock_timeline(struct clock *c, struct source **srcs, size_t n,
		   struct diag *d);

const char *clock_name(enum clock_kind k);

/* The host-time span of an input's events as merged (alignment report). */
struct clock_span {
	uint64_t first, last;
	uint64_t events;
};

static inline void clock_span_add(struct clock_span *s, uint64_t ts)
{
	if (!s->events++ || ts < s->first)
		s->first = ts;
	if (ts > s->last || s->events == 1)
		s->last = ts;
}

/*
 * The alignment report of the guest input srcs[g], in d: where its offset
 * came from, its span on the host timeline and how much of it the span of
 * its host (the input its TIME_SHIFT names, else every host input) covers.
 * *warn is set, with a warning line added, when less than half of it lies
 * inside the host's span or when its vCPUs disagree on the offset (by more
 * than CLOCK_SPREAD_MIN and a thousandth of its span). Returns false when
 * there is nothing to say (no events, no host).
 */
#define CLOCK_SPREAD_MIN 10000

/*
 * The clock of a nanosecond input as far as its files tell: "mono",
 * "wall", "raw", "boot", "tai", "local" (the kernel's local clock: perf's
 * default, trace_clock local), "global", "uptime"; NULL when unknown.
 * how (size bytes) says what told it ("trace_clock mono", "its CLOCKID").
 */
const char *clock_base_of(const struct source *src, char *how, size_t size);
/* "CLOCK_MONOTONIC" for "mono", and so on. */
const char *clock_base_what(const char *base);

/*
 * Host inputs whose spans (as merged) overlap no other input's at all: a
 * warning line each in d, and true; false when there is none (or fewer
 * than two inputs have events).
 */
bool clock_overlap_report(struct source **srcs,
			  const struct clock_span *spans, size_t n,
			  struct diag *d);
bool clock_report(const struct clock *c, struct source **srcs,
		  const struct clock_span *spans, size_t n, size_t g,
		  struct diag *d, bool *warn);

#endif
