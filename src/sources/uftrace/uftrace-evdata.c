// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uftrace: the data of event records (read:proc/statm, diff:page-fault,
 * read:pmu-cycle, …, external data): the "[data ]" lines of `uftrace
 * dump` and the template keys of their values (utils/event.c:
 * event_get_data_str(); the layouts are uftrace.h's struct
 * uftrace_proc_statm, uftrace_page_fault, uftrace_pmu_*).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outbuf.h"
#include "uftrace-int.h"

/* The keys of event values, in uft_evkey order. */
static const char *const uft_evkey_names[UFT_NEVKEYS] = {
	"data", "vmsize", "vmrss", "shared", "major", "minor", "cycles",
	"instructions", "refers", "misses", "branch", "msg",
};

/* The u64 values of a builtin event: their keys, and the text's form. */
struct uft_evlayout {
	uint8_t n;
	uint8_t keys[3];	/* enum uft_evkey */
	const char *fmt[3];	/* each value's text, after a ' ' */
};

/* By id - UFT_EVENT_BUILTIN (uftrace.h: EVENT_ID_READ_PROC_STATM …). */
static const struct uft_evlayout uft_evlayouts[] = {
	[1] = { 3, { UFT_EV_VMSIZE, UFT_EV_VMRSS, UFT_EV_SHARED },
		{ "vmsize=%" PRIu64 "KB", "vmrss=%" PRIu64 "KB",
		  "shared=%" PRIu64 "KB" } },
	[2] = { 2, { UFT_EV_MAJOR, UFT_EV_MINOR },
		{ "major=%" PRIu64, "minor=%" PRIu64 } },
	[3] = { 3, { UFT_EV_VMSIZE, UFT_EV_VMRSS, UFT_EV_SHARED },
		{ "vmsize=%" PRIu64 "KB", "vmrss=%" PRIu64 "KB",
		  "shared=%" PRIu64 "KB" } },
	[4] = { 2, { UFT_EV_MAJOR, UFT_EV_MINOR },
		{ "major=%" PRIu64, "minor=%" PRIu64 } },
	[5] = { 2, { UFT_EV_CYCLES, UFT_EV_INSTRS },
		{ "cycles=%" PRIu64, "instructions=%" PRIu64 } },
	[6] = { 2, { UFT_EV_CYCLES, UFT_EV_INSTRS },
		{ "cycles=%" PRIu64, "instructions=%" PRIu64 } },
	[7] = { 2, { UFT_EV_REFERS, UFT_EV_MISSES },
		{ "refers=%" PRIu64, "misses=%" PRIu64 } },
	[8] = { 2, { UFT_EV_REFERS, UFT_EV_MISSES },
		{ "refers=%" PRIu64, "misses=%" PRIu64 } },
	[9] = { 2, { UFT_EV_BRANCH, UFT_EV_MISSES },
		{ "branch=%" PRIu64, "misses=%" PRIu64 } },
	[10] = { 2, { UFT_EV_BRANCH, UFT_EV_MISSES },
		 { "branch=%" PRIu64, "misses=%" PRIu64 } },
};

#define UFT_EV_WATCH_CPU	11	/* EVENT_ID_WATCH_CPU - builtin */

int uft_evkey(const char *key)
{
	size_t i;

	for (i = 0; i < UFT_NEVKEYS; i++)
		if (!strcmp(uft_evkey_names[i], key))
			return (int)i;
	return -1;
}

const char *uft_evkey_name(int key)
{
	return key >= 0 && key < UFT_NEVKEYS ? uft_evkey_names[key] : NULL;
}

/* The data of the current event record: bytes and their count. */
static const unsigned char *uft_evdata(const struct uft_cur *c, uint32_t *n)
{
	*n = 0;
	if (c->perf || c->rec.type != UFT_EVENT || !c->rec.more ||
	    c->paylen < 2)
		return NULL;
	*n = c->arglen;
	if (*n > c->paylen - 2)
		*n = c->paylen - 2;
	return c->pay + 2;
}

/* The layout of a builtin event with its data all there, or NULL. */
static const struct uft_evlayout *uft_layout(const struct uft_cur *c,
					     uint32_t n)
{
	uint64_t i = c->rec.addr - UFT_EVENT_BUILTIN;

	if (c->rec.addr <= UFT_EVENT_BUILTIN ||
	    i >= sizeof(uft_evlayouts) / sizeof(uft_evlayouts[0]) ||
	    !uft_evlayouts[i].n || n < uft_evlayouts[i].n * 8u)
		return NULL;
	return &uft_evlayouts[i];
}

/* The text of a NUL-terminated string in the data: up to the NUL. */
static int uft_evstr_len(const unsigned char *p, uint32_t n)
{
	const unsigned char *z = memchr(p, '\0', n);

	return (int)(z ? (size_t)(z - p) : n);
}

/*
 * The data as event_get_data_str() writes it (not verbose, as the dump
 * does), added to c->text; false when the event has no data to show.
 */
static bool uft_evdata_text(const struct uftrace *uf, struct uft_cur *c)
{
	const struct uft_evlayout *l;
	const unsigned char *p;
	uint32_t n, k;

	p = uft_evdata(c, &n);
	if (!p)
		return false;
	l = uft_layout(c, n);
	if (l) {
		for (k = 0; k < l->n; k++) {
			if (k)
				uft_tadd(c, " ");
			uft_tadd(c, l->fmt[k], uft_u64(uf, p + 8 * k));
		}
	} else if (c->rec.addr == UFT_EVENT_BUILTIN + UFT_EV_WATCH_CPU &&
		   n >= 4) {
		uft_tadd(c, "cpu=%d", (int)(int32_t)uft_u32(uf, p));
	} else if (c->rec.addr == UFT_EVENT_EXTERN) {
		uft_tadd(c, "msg=\"%.*s\"", uft_evstr_len(p, n),
			 (const char *)p);
	} else if (c->rec.addr < UFT_EVENT_BUILTIN) {
		/* kernel tracepoints: their data is text */
		uft_tadd(c, "%.*s", uft_evstr_len(p, n), (const char *)p);
	} else {
		return false;
	}
	return true;
}

/*
 * The lines `uftrace dump` writes after an event with data
 * (cmds/dump.c: dump_raw_task_event(), pr_event()):
 *
 *   2762.132217079  20688: [data ] length = 24
 *     read:proc/statm: vmsize=15492KB vmrss=7592KB shared=5472KB
 */
int uft_dump_event_data(struct uftrace *uf, struct uft_cur *c,
			const char *time, size_t timelen, struct outbuf *o)
{
	size_t at;

	if (c->perf || c->rec.type != UFT_EVENT || !c->rec.more)
		return 0;
	c->textlen = 0;
	uft_tadd(c, "%.*s%s: [data ] length = %" PRIu32 "\n  %.*s: ",
		 (int)timelen, time, c->task->tid_text, c->arglen,
		 (int)c->symlen, c->symbol);
	at = c->textlen;
	if (!uft_evdata_text(uf, c) && c->textlen == at && at >= 2)
		c->textlen = at - 2;	/* no data: the name alone */
	uft_tadd(c, "\n");
	return outbuf_put(o, c->text ? c->text : "", c->textlen);
}

/*
 * The key of an event's data: "data" the text as the dump shows it, the
 * others the value of that name (vmsize, major, cycles, …) or msg; an
 * empty string for events without it.
 */
int uft_event_field(struct uftrace *uf, struct uft_cur *c, int key,
		    struct value *out)
{
	const struct uft_evlayout *l;
	const unsigned char *p;
	uint32_t n, k;

	value_set_str(out, "", 0);
	p = uft_evdata(c, &n);
	if (!p)
		return 0;
	if (key == UFT_EV_DATA) {
		c->textlen = 0;
		if (uft_evdata_text(uf, c))
			value_set_str(out, c->text ? c->text : "", c->textlen);
		return 0;
	}
	if (key == UFT_EV_MSG && c->rec.addr == UFT_EVENT_EXTERN) {
		value_set_str(out, (const char *)p, uft_evstr_len(p, n));
		return 0;
	}
	l = uft_layout(c, n);
	for (k = 0; l && k < l->n; k++)
		if (l->keys[k] == key)
			value_set_u64(out, uft_u64(uf, p + 8 * k));
	return 0;
}
