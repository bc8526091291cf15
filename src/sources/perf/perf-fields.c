// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Keys of perf.data tracepoint samples for templates, as trace.dat
 * events have them: every field of the event's format (common_* too),
 * comm (perf's thread name), id, info (libtraceevent's text without
 * plugins), tid, common_comm, common_cpu, common_name, guest_sym (with
 * --guest-syms: the function of an exit's guest RIP); and the line
 * `perf script -F trace:comm,tid,cpu,time,event,trace` prints.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "outbuf.h"
#include "pyfmt.h"
#include "symtab.h"
#include "perf-int.h"
#include "tep/tep-fields.h"
#include "tracedat/tracedat-guard.h"

/* The pseudo-fields' slots (tep-fields.h has the format's fields). */
enum perf_kind {
	PK_COMM = TEPF_OWN,
	PK_CPU,
	PK_NAME,
	PK_ID,
	PK_INFO,
	PK_TID,
};

void perf_fields_free(struct perf *p)
{
	tepf_slots_free(&p->slots);
}

static struct tep_event *perf_tp_of(struct perf *p, const struct event_type *t)
{
	if (!t || t->index >= p->nattrs)
		return NULL;
	return p->attrs[t->index].tp;
}

/* Any tracepoint format of the file, for common fields. */
static struct tep_event *perf_any_tp(struct perf *p)
{
	uint32_t i;

	for (i = 0; i < p->nattrs; i++)
		if (p->attrs[i].tp)
			return p->attrs[i].tp;
	return NULL;
}

/*
 * As for trace.dat events: the fields of the event's format shadow the
 * pseudo-fields comm, id, info, tid; common_comm, common_cpu and
 * common_name are never shadowed.
 */
int perf_bind(struct source *src, const struct event_type *t,
	      const char *key)
{
	struct perf *p = src->priv;
	struct tep_event *ev = perf_tp_of(p, t);
	int ret;

	/* guest_sym with --guest-syms: the exit's RIP named from that table */
	if (src->guest_syms && ev && !strcmp(key, "guest_sym"))
		return tepf_bind_guest_rip(&p->slots, ev);
	ret = tepf_bind_field(&p->slots, ev, perf_any_tp(p), key);
	if (ret != -ENOENT)
		return ret;
	if (!strcmp(key, "comm") || !strcmp(key, "common_comm"))
		return tepf_slot(&p->slots, PK_COMM, NULL);
	if (!strcmp(key, "common_cpu"))
		return tepf_slot(&p->slots, PK_CPU, NULL);
	if (!strcmp(key, "common_name"))
		return tepf_slot(&p->slots, PK_NAME, NULL);
	if (!strcmp(key, "id"))
		return tepf_slot(&p->slots, PK_ID, NULL);
	if (!strcmp(key, "info"))
		return tepf_slot(&p->slots, PK_INFO, NULL);
	if (!strcmp(key, "tid"))
		return tepf_slot(&p->slots, PK_TID, NULL);
	return -ENOENT;
}

int perf_field(struct source *src, const struct event *ev, int index,
	       struct value *out)
{
	const struct perf_sample *s = ev->rec;
	struct perf *p = src->priv;
	struct tepf_slot *sl;
	const char *str;
	size_t len;

	if (symtab_is_field(index)) {
		struct value rip;

		return perf_field(src, ev, index & ~SYMTAB_FIELD, &rip) == 0 &&
				       rip.kind == VALUE_INT
			       ? symtab_field(src->guest_syms, rip.u, out)
			       : -ENOENT;
	}
	if (index < 0 || (size_t)index >= p->slots.n)
		return -ENOENT;
	sl = &p->slots.v[index];
	if (sl->kind < TEPF_OWN)
		return tepf_fetch(sl, (const char *)s->raw, s->raw_size,
				  p->swap, 0, out);
	switch ((enum perf_kind)sl->kind) {
	case PK_COMM:
		str = perf_comm(p, s->tid, &len);
		value_set_str(out, str, len);
		return 0;
	case PK_CPU:
		value_set_u64(out, s->cpu);
		return 0;
	case PK_NAME:
		str = ev->type->name ? ev->type->name : s->attr->name;
		value_set_str(out, str, strlen(str));
		return 0;
	case PK_ID:
		value_set_u64(out, ev->type->id);
		return 0;
	case PK_INFO:
		str = perf_info(p, s, &len);
		value_set_str(out, str, len);
		return 0;
	case PK_TID:
		value_set_s64(out, s->tid);
		return 0;
	}
	return -ENOENT;
}

int perf_each_type(struct source *src,
		   int (*fn)(const struct event_type *t, void *arg), void *arg)
{
	struct perf *p = src->priv;
	uint32_t i;
	int ret;

	for (i = 0; i < p->nattrs; i++) {
		if (p->attrs[i].type != PERF_T_TRACEPOINT)
			continue;
		ret = fn(&p->attrs[i].t, arg);
		if (ret < 0)
			return ret;
	}
	return 0;
}

size_t perf_fields(struct source *src, const struct event_type *t,
		   const char **names, size_t max)
{
	static const char *const pseudo[] = {
		"comm", "id", "info", "tid", "common_comm", "common_cpu",
		"common_name",
	};
	struct perf *p = src->priv;
	struct tep_event *ev = perf_tp_of(p, t), *any = perf_any_tp(p);
	const struct tep_format_field *f;
	size_t n = 0, i;

	if (ev)
		for (f = ev->format.fields; f && n < max; f = f->next)
			names[n++] = f->name;
	for (i = 0; i < sizeof(pseudo) / sizeof(pseudo[0]) && n < max; i++)
		if (!ev || !tep_find_field(ev, pseudo[i]))
			names[n++] = pseudo[i];
	ev = ev ? ev : any;
	for (f = ev ? ev->format.common_fields : NULL; f && n < max;
	     f = f->next)
		names[n++] = f->name;
	return n;
}

const char *perf_info(struct perf *p, const struct perf_sample *s, size_t *len)
{
	struct tep_record rec;

	const char *fast;

	*len = 0;
	if (!p->tep || !s->raw)
		return "";
	fast = perf_print_fast(p, s, len);
	if (fast)
		return fast;
	memset(&rec, 0, sizeof(rec));
	rec.cpu = (int)s->cpu;
	rec.size = (int)s->raw_size;
	rec.data = (void *)s->raw;
	rec.ts = s->time;
	rec.offset = s->offset;
	trace_seq_reset(&p->info);
	/* a print fmt that crashes libtraceevent ends the input (tracedat-guard.h) */
	tdguard_info(p->guard, p->tep, s->attr->tp, &p->info, &rec);
	if (p->info.state != TRACE_SEQ__GOOD || !p->info.buffer)
		return "";
	*len = p->info.len;
	return p->info.buffer;
}

/* A signed value right-aligned in width ("%5d"). */
static size_t perf_sdec_w(char *b, int64_t v, size_t width)
{
	char tmp[24];
	size_t n = 0, i = 0;

	if (v < 0)
		tmp[n++] = '-';
	n += pyfmt_u64_dec(tmp + n, v < 0 ? -(uint64_t)v : (uint64_t)v);
	for (; i + n < width; i++)
		b[i] = ' ';
	memcpy(b + i, tmp, n);
	return i + n;
}

/*
 * `perf script -F trace:comm,tid,cpu,time,event,trace` (builtin-script.c:
 * "%16s ", "%5d ", "[%03d] ", the time as "%lu.%06lu" in "%12s: ",
 * the event's name in "%*s: " to the longest name, libtraceevent's text):
 *
 *        tinyguest 10306 [000]   331.311666:       kvm:kvm_pio: pio_write …
 */
/* "%16s %5d" of the thread's comm and tid, kept until its comm changes */
static const char *perf_thread_head(struct perf_thread *t, size_t *len)
{
	char *b = t->head;
	size_t i;

	if (!t->headlen) {
		for (i = t->len; i < 16; i++)
			*b++ = ' ';
		memcpy(b, t->comm, t->len);
		b += t->len;
		*b++ = ' ';
		b += perf_sdec_w(b, t->tid, 5);
		t->headlen = (uint8_t)(b - t->head);
	}
	*len = t->headlen;
	return t->head;
}

/* The line up to the event's text: comm, tid, cpu, time, name. */
static char *perf_head(struct perf *p, const struct perf_sample *s,
		       char *b)
{
	struct perf_attr *a = s->attr;
	struct perf_thread *t = perf_thread(p, s->tid);
	uint64_t us = s->time / 1000, sec = us / 1000000;
	uint32_t u = (uint32_t)(us - sec * 1000000), lo;
	size_t i, n;

	if (t) {
		perf_thread_head(t, &n);
		/* whole: what goes past the text is written over */
		memcpy(b, t->head, sizeof(t->head));
		b += n;
	} else {
		/* out of memory for the thread: as perf_comm() says */
		for (i = 0; i < 16; i++)
			*b++ = ' ';
		*b++ = ' ';
		b += perf_sdec_w(b, s->tid, 5);
	}
	if (s->cpu < 1000) {
		memcpy(b, " [", 2);
		b[2] = (char)('0' + s->cpu / 100);
		memcpy(b + 3, pyfmt_dig2 + 2 * (s->cpu % 100), 2);
		memcpy(b + 5, "] ", 2);
		b += 7;
	} else {
		memcpy(b, " [", 2);
		b += 2;
		b += pyfmt_u64_dec_w(b, s->cpu, 3, '0');
		memcpy(b, "] ", 2);
		b += 2;
	}
	/*
	 * "%lu.%06lu" in "%12s": the seconds change seldom; kept with the
	 * padding before them and the point
	 */
	if (!p->hseclen || p->hsec_v != sec) {
		char d[24];

		n = pyfmt_u64_dec(d, sec);
		for (i = 0; i + n + 7 < 12; i++)
			p->hsec[i] = ' ';
		memcpy(p->hsec + i, d, n);
		p->hsec[i + n] = '.';
		p->hseclen = (uint8_t)(i + n + 1);
		p->hsec_v = sec;
	}
	memcpy(b, p->hsec, sizeof(p->hsec));
	b += p->hseclen;
	lo = u % 10000;
	memcpy(b, pyfmt_dig2 + 2 * (u / 10000), 2);
	memcpy(b + 2, pyfmt_dig2 + 2 * (lo / 100), 2);
	memcpy(b + 4, pyfmt_dig2 + 2 * (lo % 100), 2);
	memcpy(b + 6, ": ", 2);
	b += 8;
	if (a->pname_w != p->name_width || !a->pnamelen) {
		n = strlen(a->name);
		if ((size_t)p->name_width + n + 2 > sizeof(a->pname)) {
			/* too long to keep */
			for (i = n; i < (size_t)p->name_width; i++)
				*b++ = ' ';
			memcpy(b, a->name, n);
			b += n;
			memcpy(b, ": ", 2);
			return b + 2;
		}
		for (i = 0; i + n < (size_t)p->name_width; i++)
			a->pname[i] = ' ';
		memcpy(a->pname + i, a->name, n);
		memcpy(a->pname + i + n, ": ", 2);
		memset(a->pname + i + n + 2, 0, sizeof(a->pname) - i - n - 2);
		a->pnamelen = (uint8_t)(i + n + 2);
		a->pname_w = p->name_width;
	}
	/* whole, as the thread's head */
	memcpy(b, a->pname, sizeof(a->pname));
	return b + a->pnamelen;
}

int perf_render_default(struct source *src, const struct event *ev,
			struct outbuf *o)
{
	const struct perf_sample *s = ev->rec;
	struct perf *p = src->priv;
	size_t ilen, room, head;
	const char *info;
	char *b, *start;

	/*
	 * comm (23), tid (11), cpu (10), time (28), name, padding; the
	 * thread's head, the seconds and the name are copied whole (40, 24,
	 * 48 bytes)
	 */
	head = 40 + 16 + 16 + 32 + 48 +
	       (s->attr->pname_w == p->name_width && s->attr->pnamelen
			? s->attr->pnamelen
			: strlen(s->attr->name) + (size_t)p->name_width);
	/* the event's text made by hand straight into the line */
	room = s->room ? s->room - 1u
		       : p->tep && s->raw ? perf_print_room(p, s) : 0;
	if (room) {
		start = outbuf_reserve(o, head + room + 8);
		if (!start)
			return -ENOMEM;
		b = perf_head(p, s, start);
		b = perf_print_to(p, s, b);
		if (b) {
			*b++ = '\n';
			outbuf_commit(o, (size_t)(b - start));
			return 0;
		}
	}
	info = perf_info(p, s, &ilen);
	start = outbuf_reserve(o, head + ilen + 8);
	if (!start)
		return -ENOMEM;
	b = perf_head(p, s, start);
	memcpy(b, info, ilen);
	b += ilen;
	*b++ = '\n';
	outbuf_commit(o, (size_t)(b - start));
	return 0;
}
