// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace.dat reader against libtracecmd and libtraceevent themselves,
 * on every fixture (or the files named on the command line):
 *
 *   - order: the same records in the same order as tracecmd_iterate_events()
 *     (with instance buffers: tracecmd_iterate_events_multi() of them all)
 *     (smallest time stamp first, ties to the lowest CPU: trace-cmd report's
 *     order), compared by (CPU, time stamp, size, a hash of the bytes): not
 *     by offset, as the reader opens an uncompressed copy of a zstd file;
 *   - every field of every event's format, read through bind() and field(),
 *     equals what libtraceevent reads (tep_read_number_field() for integers,
 *     tep_get_field_raw() for strings, arrays and __data_loc data);
 *   - pid, comm, id and info equal tep_data_pid(), tep_data_comm_from_pid(),
 *     tep_data_type() and tep_print_event(TEP_PRINT_INFO).
 */
#include <errno.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-cmd.h>
#include <trace-seq.h>

#include "diag.h"
#include "source.h"
#include "tap.h"

struct rec_id {
	int cpu;
	int size;
	unsigned long long ts;
	uint64_t hash;
};

/* FNV-1a of the record's bytes */
static uint64_t rec_hash(const struct tep_record *rec)
{
	const unsigned char *p = rec->data;
	uint64_t h = 0xcbf29ce484222325ull;
	int i;

	for (i = 0; i < rec->size; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

struct order {
	struct rec_id *v;
	size_t n;
	size_t cap;
};

static int collect(struct tracecmd_input *h, struct tep_record *rec, int cpu,
		   void *arg)
{
	struct order *o = arg;

	if (o->n == o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 1024;
		struct rec_id *v = realloc(o->v, cap * sizeof(*v));

		if (!v)
			return -1;
		o->v = v;
		o->cap = cap;
	}
	o->v[o->n].cpu = rec->cpu;
	o->v[o->n].size = rec->size;
	o->v[o->n].ts = rec->ts;
	o->v[o->n].hash = rec_hash(rec);
	o->n++;
	return 0;
}

static const char hexdig[] = "0123456789abcdef";

/* Does v hold what libtraceevent reads for field f of rec? */
static bool field_matches(struct tep_format_field *f, struct tep_record *rec,
			  const struct value *v, struct trace_seq *s)
{
	unsigned long long val;
	const unsigned char *raw;
	bool text;
	int len, i;

	if (!(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) &&
	    (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8)) {
		int64_t sv;

		if (tep_read_number_field(f, rec->data, &val) < 0 ||
		    v->kind != VALUE_INT)
			return false;
		if (!(f->flags & TEP_FIELD_IS_SIGNED))
			return !v->neg && v->u == val;
		sv = f->size == 8 ? (int64_t)val
				  : (int64_t)(val << (64 - 8 * f->size)) >>
					    (64 - 8 * f->size);
		return v->neg == (sv < 0) &&
		       v->u == (sv < 0 ? -(uint64_t)sv : (uint64_t)sv);
	}
	if ((f->flags & TEP_FIELD_IS_ARRAY) &&
	    !(f->flags & TEP_FIELD_IS_DYNAMIC) &&
	    (!f->size || f->offset + f->size > rec->size)) {
		/*
		 * a flexible array (ftrace:print's buf[]), or one the kernel
		 * filled partly (kernel_stack's caller[8]): to the record's end
		 */
		raw = (const unsigned char *)rec->data + f->offset;
		len = rec->size - f->offset;
	} else {
		raw = tep_get_field_raw(s, f->event, f->name, rec, &len, 0);
	}
	if (!raw || v->kind != VALUE_STR)
		return false;
	text = (f->flags & TEP_FIELD_IS_STRING) && strstr(f->type, "char") &&
	       !strstr(f->type, "unsigned char");
	if (text)
		return v->len == strnlen((const char *)raw, (size_t)len) &&
		       !memcmp(v->s, raw, v->len);
	if (v->len != 2 * (size_t)len)
		return false;
	for (i = 0; i < len; i++)
		if (v->s[2 * i] != hexdig[raw[i] >> 4] ||
		    v->s[2 * i + 1] != hexdig[raw[i] & 15])
			return false;
	return true;
}

static bool str_is(const struct value *v, const char *s, size_t len)
{
	return v->kind == VALUE_STR && v->len == len && !memcmp(v->s, s, len);
}

struct counts {
	size_t events, fields, bad_order, bad_fields, bad_common, bad_info;
	size_t damaged, said;
};

/* What the reader says of damaged records: counted. */
static void count_say(void *arg, const char *msg)
{
	(void)msg;
	((struct counts *)arg)->said++;
}

static int check_event(struct source *src, struct tep_handle *tep,
		       const struct event *ev, struct counts *c,
		       struct trace_seq *s)
{
	struct tep_record *rec = (struct tep_record *)ev->rec;
	struct tep_format_field *f;
	struct tep_event *tev;
	struct value v;
	const char *comm;
	size_t len;
	int idx, pass;

	tev = tep_find_event(tep, tep_data_type(tep, rec));
	if (!tev || strcmp(tev->name, ev->type->name) ||
	    strcmp(tev->system, ev->type->system) ||
	    ev->type->id != (uint64_t)tev->id)
		c->bad_common++;
	if (!tev)
		return 0;
	if (ev->pid != tep_data_pid(tep, rec) ||
	    ev->cpu != (uint32_t)rec->cpu || ev->ts != rec->ts)
		c->bad_common++;
	comm = tep_data_comm_from_pid(tep, tep_data_pid(tep, rec));
	idx = src->ops->bind(src, ev->type, "common_comm");
	if (idx < 0 || src->ops->field(src, ev, idx, &v) < 0 ||
	    !str_is(&v, comm, strlen(comm)))
		c->bad_common++;
	idx = src->ops->bind(src, ev->type, "info");
	trace_seq_reset(s);
	tep_print_event(tep, s, rec, "%s", TEP_PRINT_INFO);
	len = s->len;
	if (len && s->buffer[len - 1] == '\n')
		len--;
	if (idx < 0 || src->ops->field(src, ev, idx, &v) < 0 ||
	    !str_is(&v, s->buffer, len))
		c->bad_info++;
	for (pass = 0; pass < 2; pass++) {
		for (f = pass ? tev->format.fields : tev->format.common_fields;
		     f; f = f->next) {
			c->fields++;
			idx = src->ops->bind(src, ev->type, f->name);
			if (idx < 0 || src->ops->field(src, ev, idx, &v) < 0) {
				c->bad_fields++;
				continue;
			}
			trace_seq_reset(s);
			if (!field_matches(f, rec, &v, s)) {
				if (c->bad_fields++ < 5)
					tap_diag("%s:%s field %s differs (record %llu)",
						 tev->system, tev->name,
						 f->name,
						 (unsigned long long)ev->seq);
			}
		}
	}
	return 0;
}

/*
 * trace-cmd report's order: the top buffer and every instance buffer
 * (trace-cmd record -B) through tracecmd_iterate_events_multi()
 */
static int iterate_all(struct tracecmd_input *h, struct order *o)
{
	int n = tracecmd_buffer_instances(h), m = 1, i, ret = -1;
	struct tracecmd_input **hs = calloc((size_t)(n > 0 ? n : 0) + 1,
					    sizeof(*hs));

	if (!hs)
		return -1;
	hs[0] = h;
	for (i = 0; i < n; i++) {
		hs[m] = tracecmd_buffer_instance_handle(h, i);
		if (hs[m])
			m++;
	}
	if (m > 1)
		ret = tracecmd_iterate_events_multi(hs, m, collect, o);
	else
		ret = tracecmd_iterate_events(h, NULL, 0, collect, o);
	for (i = 1; i < m; i++)
		tracecmd_close(hs[i]);
	free(hs);
	return ret;
}

static void check_file(struct tap *t, const char *path)
{
	struct counts c = { 0 };
	struct order o = { 0 };
	struct tracecmd_input *h;
	struct tep_handle *tep;
	struct source *src;
	struct trace_seq s;
	struct event ev;
	struct diag d;
	int ret;

	diag_init(&d);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(path, 0);
	src = source_create(&source_tracecmd_ops, path, 0);
	if (src) {
		src->say = count_say;
		src->say_arg = &c;
	}
	ret = src ? source_open(src, &d) : -1;
	if (!tap_ok(t, h && ret == 0, "%s: opens%s%s", path,
		    d.msg[0] ? ": " : "", d.msg) ||
	    !tap_ok(t, iterate_all(h, &o) >= 0,
		    "%s: tracecmd_iterate_events", path)) {
		if (h)
			tracecmd_close(h);
		source_destroy(src);
		free(o.v);
		return;
	}
	tep = tracecmd_get_tep(h);
	trace_seq_init(&s);
	diag_init(&d);
	while ((ret = src->ops->next(src, &ev, &d)) > 0) {
		struct tep_record *rec = (struct tep_record *)ev.rec;

		if (c.events >= o.n || o.v[c.events].cpu != rec->cpu ||
		    o.v[c.events].size != rec->size ||
		    o.v[c.events].ts != rec->ts ||
		    o.v[c.events].hash != rec_hash(rec))
			c.bad_order++;
		/* a damaged record: its fields lie outside it */
		if (ev.damaged)
			c.damaged++;
		else
			check_event(src, tep, &ev, &c, &s);
		c.events++;
	}
	/* damaged records: each said, and counted at the end (-EIO) */
	tap_ok(t, c.said == c.damaged && (ret == 0 || (ret == -EIO && c.damaged)),
	       "%s: %zu damaged records, each said, counted at the end (%s)",
	       path, c.damaged, ret < 0 ? d.msg : "none");
	tap_ok(t, c.events == o.n && !c.bad_order,
	       "%s: %zu events in tracecmd_iterate_events' order (%zu there, %zu out of place)",
	       path, c.events, o.n, c.bad_order);
	tap_ok(t, c.events > 0 && !c.bad_fields,
	       "%s: %zu field values equal libtraceevent's (%zu differ)", path,
	       c.fields, c.bad_fields);
	tap_ok(t, !c.bad_common,
	       "%s: pid, comm, cpu, ts and event type (%zu differ)", path,
	       c.bad_common);
	tap_ok(t, !c.bad_info, "%s: info equals tep_print_event (%zu differ)",
	       path, c.bad_info);
	trace_seq_destroy(&s);
	source_destroy(src);
	tracecmd_close(h);
	free(o.v);
}

int main(int argc, char **argv)
{
	const char *srcdir = getenv("KTF_SRCDIR");
	struct tap t = { 0 };
	char pattern[4096];
	glob_t g = { 0 };
	size_t i, n;

	if (argc < 2) {
		snprintf(pattern, sizeof(pattern),
			 "%s/tests/fixtures/tracedat/*.dat", srcdir ? srcdir : ".");
		if (glob(pattern, 0, NULL, &g) != 0 || !g.gl_pathc) {
			printf("1..0 # SKIP no trace.dat fixtures (%s)\n", pattern);
			return 0;
		}
		argc = (int)g.gl_pathc + 1;
	}
	n = (size_t)argc - 1;
	tap_plan((int)(7 * n));
	for (i = 0; i < n; i++) {
		const char *path = g.gl_pathc ? g.gl_pathv[i] : argv[i + 1];

		/*
		 * libtracecmd's own iteration ends CPU 0 of class-badpage.dat
		 * at its damaged page, where the reader goes on on purpose
		 * (tests/cli/tracedat/class-badpage)
		 */
		if (strstr(path, "class-badpage")) {
			int k;

			for (k = 0; k < 7; k++)
				tap_ok(&t, true, "%s # SKIP a damaged page", path);
			continue;
		}
		check_file(&t, path);
	}
	globfree(&g);
	return t.failed ? 1 : 0;
}
