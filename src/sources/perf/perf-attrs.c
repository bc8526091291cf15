// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The events of a perf.data: each attr with its ids (from a normal file's
 * attrs section or a pipe's HEADER_ATTR records), the attr of a sample's
 * id, the names EVENT_DESC gives them (or perf's own names), and where a
 * sample's fields lie.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf-int.h"

int perf_add_attr(struct perf *p, const unsigned char *a, size_t len,
		  const unsigned char *ids, size_t nids, struct diag *d)
{
	struct perf_attr *at;
	uint64_t flags;
	size_t i;

	if (len < 48) {
		diag_set(d, "%s: an event attr of %zu bytes (at least 48 expected)",
			 p->name, len);
		return -EIO;
	}
	if (p->nattrs >= PERF_ATTRS_MAX) {
		diag_set(d, "%s: more than %u events", p->name, PERF_ATTRS_MAX);
		return -EIO;
	}
	if (p->nattrs == p->capattrs) {
		size_t cap = p->capattrs ? 2 * p->capattrs : 8;

		at = realloc(p->attrs, cap * sizeof(*at));
		if (!at)
			goto nomem;
		p->attrs = at;
		p->capattrs = (uint32_t)cap;
	}
	at = &p->attrs[p->nattrs];
	memset(at, 0, sizeof(*at));
	at->type = perf_u32(p, a);
	at->config = perf_u64(p, a + 8);
	at->sample_type = perf_u64(p, a + 24);
	at->read_format = perf_u64(p, a + 32);
	flags = perf_u64(p, a + 40);
	/*
	 * The bit fields after read_format: sample_id_all is bit 18 from
	 * the low end on a little-endian writer, from the high end on a
	 * big-endian one.
	 */
	at->sample_id_all = p->file_be ? (flags >> (63 - 18)) & 1
				       : (flags >> 18) & 1;
	/* perf record -k: use_clockid (bit 25), the clock id at byte 92 */
	if (len >= 96 && (p->file_be ? (flags >> (63 - 25)) & 1
				     : (flags >> 25) & 1))
		p->clockid = (int32_t)perf_u32(p, a + 92);
	at->t.index = p->nattrs;
	if (p->nids + nids > p->capids) {
		size_t cap = p->capids ? 2 * p->capids : 64;
		struct perf_id *n;

		while (cap < p->nids + nids)
			cap *= 2;
		n = realloc(p->ids, cap * sizeof(*n));
		if (!n)
			goto nomem;
		p->ids = n;
		p->capids = cap;
	}
	for (i = 0; i < nids; i++)
		p->ids[p->nids++] = (struct perf_id){ perf_u64(p, ids + 8 * i),
						      p->nattrs };
	p->nattrs++;
	p->ids_sorted = false;
	memset(p->idc_attr, 0, sizeof(p->idc_attr));
	return 0;
nomem:
	diag_set(d, "%s: out of memory", p->name);
	return -ENOMEM;
}

static int perf_id_cmp(const void *a, const void *b)
{
	const struct perf_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

struct perf_attr *perf_attr_find(struct perf *p, uint64_t id)
{
	size_t lo = 0, hi = p->nids, c = id & 15;

	if (p->nattrs == 1)
		return &p->attrs[0];
	if (!p->ids_sorted) {
		if (p->nids)
			qsort(p->ids, p->nids, sizeof(*p->ids), perf_id_cmp);
		p->ids_sorted = true;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->ids[mid].id == id) {
			p->idc_id[c] = id;
			p->idc_attr[c] = p->ids[mid].attr + 1;
			return &p->attrs[p->ids[mid].attr];
		}
		if (p->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* perf's string: u32 length (with the NUL and padding), then the bytes */
static const unsigned char *perf_string(struct perf *p, const unsigned char *b,
					const unsigned char *end, char **out)
{
	uint32_t n;

	if (end - b < 4)
		return NULL;
	n = perf_u32(p, b);
	b += 4;
	if ((size_t)(end - b) < n)
		return NULL;
	*out = strndup((const char *)b, n);
	return *out ? b + n : NULL;
}

/*
 * The attr of an id among the first snap attrs (those a pipe file had
 * given when the record naming it came); with one attr, that one.
 */
struct perf_attr *perf_attr_among(struct perf *p, uint64_t id, uint32_t snap)
{
	struct perf_attr *at;

	if (snap == 1)
		return &p->attrs[0];
	at = p->nattrs > 1 ? perf_attr_of(p, id) : NULL;
	return at && at->t.index < snap ? at : NULL;
}

/* EVENT_DESC's names, for the first snap attrs. */
int perf_event_desc_among(struct perf *p, const unsigned char *b, size_t len,
			  uint32_t snap)
{
	const unsigned char *end = b + len;
	uint32_t nr, asize, i, k, nid;

	if (len < 8)
		return 0;
	nr = perf_u32(p, b);
	asize = perf_u32(p, b + 4);
	b += 8;
	for (i = 0; i < nr; i++) {
		struct perf_attr *at = NULL;
		char *name = NULL;

		if ((size_t)(end - b) < (size_t)asize + 4)
			break;
		b += asize;
		nid = perf_u32(p, b);
		b += 4;
		b = perf_string(p, b, end, &name);
		if (!b)
			break;
		if ((size_t)(end - b) / 8 < nid) {
			free(name);
			break;
		}
		for (k = 0; k < nid && !at; k++)
			at = snap > 1 ? perf_attr_among(p, perf_u64(p, b + 8 * k),
							snap)
				      : NULL;
		if (!at && i < snap)
			at = &p->attrs[i];
		b += 8 * (size_t)nid;
		if (at && !at->name && name && *name) {
			at->name = name;
			name = NULL;
		}
		free(name);
	}
	return 0;
}

int perf_event_desc(struct perf *p, const unsigned char *b, size_t len,
		    struct diag *d)
{
	(void)d;
	return perf_event_desc_among(p, b, len, p->nattrs);
}

/* The name perf gives an event its file does not name. */
static int perf_default_name(struct perf_attr *at)
{
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses",
		"branches", "branch-misses", "bus-cycles",
		"stalled-cycles-frontend", "stalled-cycles-backend",
		"ref-cycles",
	};
	static const char *const sw[] = {
		"cpu-clock", "task-clock", "page-faults", "context-switches",
		"cpu-migrations", "minor-faults", "major-faults",
		"alignment-faults", "emulation-faults", "dummy", "bpf-output",
		"cgroup-switches",
	};
	char buf[300];

	if (at->tp)
		snprintf(buf, sizeof(buf), "%s:%s", at->tp->system,
			 at->tp->name);
	else if (at->type == PERF_T_TRACEPOINT)
		snprintf(buf, sizeof(buf), "unknown tracepoint");
	else if (at->type == PERF_T_HARDWARE && at->config < 10)
		snprintf(buf, sizeof(buf), "%s", hw[at->config]);
	else if (at->type == PERF_T_SOFTWARE && at->config < 12)
		snprintf(buf, sizeof(buf), "%s", sw[at->config]);
	else
		snprintf(buf, sizeof(buf), "raw 0x%" PRIx64, at->config);
	at->name = strdup(buf);
	if (!at->name)
		return -ENOMEM;
	return 0;
}

int perf_attrs_done(struct perf *p, struct diag *d)
{
	uint32_t i;

	if (!p->ids_sorted) {
		if (p->nids)
			qsort(p->ids, p->nids, sizeof(*p->ids), perf_id_cmp);
		p->ids_sorted = true;
	}
	p->name_width = 0;
	p->ntp = false;
	for (i = 0; i < p->nattrs; i++) {
		struct perf_attr *at = &p->attrs[i];
		int w;

		if (at->type == PERF_T_TRACEPOINT && p->tep && !at->tp)
			at->tp = tep_find_event(p->tep, (int)at->config);
		if (at->tp) {
			at->t.id = (uint64_t)at->tp->id;
			at->t.system = at->tp->system;
			at->t.name = at->tp->name;
		}
		if (at->type == PERF_T_TRACEPOINT)
			p->ntp = true;
		if (!at->name && perf_default_name(at) < 0) {
			diag_set(d, "%s: out of memory", p->name);
			return -ENOMEM;
		}
		w = (int)strlen(at->name);
		if (w > p->name_width)
			p->name_width = w;
	}
	if (p->nattrs)
		p->id_type = p->attrs[0].sample_type;
	p->id_pos = -1;
	if (p->id_type & PERF_S_IDENTIFIER)
		p->id_pos = 0;
	else if (p->id_type & PERF_S_ID)
		p->id_pos = 8 * __builtin_popcountll(
				    p->id_type & (PERF_S_IP | PERF_S_TID |
						  PERF_S_TIME | PERF_S_ADDR));
	for (i = 0; i < p->nattrs; i++) {
		struct perf_attr *at = &p->attrs[i];
		uint64_t st = at->sample_type;
		uint16_t o = 0;

		o += st & PERF_S_IDENTIFIER ? 8 : 0;
		o += st & PERF_S_IP ? 8 : 0;
		at->off_tid = o;
		o += st & PERF_S_TID ? 8 : 0;
		at->off_time = o;
		o += st & PERF_S_TIME ? 8 : 0;
		o += st & PERF_S_ADDR ? 8 : 0;
		o += st & PERF_S_ID ? 8 : 0;
		o += st & PERF_S_STREAM_ID ? 8 : 0;
		at->off_cpu = o;
		o += st & PERF_S_CPU ? 8 : 0;
		o += st & PERF_S_PERIOD ? 8 : 0;
		at->off_read = o;
		at->plain = (st & (PERF_S_TID | PERF_S_TIME | PERF_S_CPU |
				   PERF_S_READ | PERF_S_CALLCHAIN | PERF_S_RAW)) ==
			    (PERF_S_TID | PERF_S_TIME | PERF_S_CPU | PERF_S_RAW);
	}
	return 0;
}

/*
 * HOSTNAME's perf_header_string (u32 length, then the name, NUL-padded)
 * of n bytes at b: the name, if it is one. 0 or -ENOMEM.
 */
int perf_hostname(struct perf *p, const unsigned char *b, size_t n)
{
	size_t len, i;

	if (n < 4 || p->hostname)
		return 0;
	len = perf_u32(p, b);
	if (len > n - 4 || len > 256)
		return 0;
	for (i = 0; i < len && b[4 + i]; i++)
		if (b[4 + i] < 0x20 || b[4 + i] == 0x7f)
			return 0;
	if (!i)
		return 0;
	p->hostname = strndup((const char *)b + 4, i);
	return p->hostname ? 0 : -ENOMEM;
}
