// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the summarising sinks and the filter: JSON strings, time
 * units, and — through a mock trace.dat source, since the recorded fixtures
 * hold no kvm_exit/kvm_entry pairs (nested KVM emulates the tiny guest) —
 * the pairing of kvm:kvm_exit with kvm:kvm_entry by vcpu_id, by pid for
 * formats without vcpu_id, and reason names from libtraceevent's text.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "filter.h"
#include "outbuf.h"
#include "render.h"
#include "rules.h"
#include "sink-util.h"
#include "sink.h"
#include "source.h"
#include "tap.h"

/* ---------------------------------------------------------- the mock */

enum mock_type { M_EXIT = 0, M_ENTRY, M_EXIT_OLD, M_PIO, M_NTYPES };
enum mock_field { F_REASON = 0, F_VCPU, F_INFO, F_PORT };

struct mock_rec {
	uint64_t reason;
	uint32_t vcpu;
	const char *info;
};

static const struct event_type mock_types[M_NTYPES] = {
	{ .index = M_EXIT, .id = 10, .system = "kvm", .name = "kvm_exit" },
	{ .index = M_ENTRY, .id = 11, .system = "kvm", .name = "kvm_entry" },
	{ .index = M_EXIT_OLD, .id = 12, .system = "kvm", .name = "kvm_exit" },
	{ .index = M_PIO, .id = 13, .system = "kvm", .name = "kvm_pio" },
};

static bool mock_has(const struct event_type *t, enum mock_field f)
{
	switch (t->index) {
	case M_EXIT:
		return f == F_REASON || f == F_VCPU || f == F_INFO;
	case M_ENTRY:
		return f == F_VCPU;
	case M_EXIT_OLD:
		return f == F_REASON || f == F_INFO;
	default:
		return f == F_PORT;
	}
}

static const char *const mock_names[] = { "exit_reason", "vcpu_id", "info",
					  "port" };

static int mock_bind(struct source *src, const struct event_type *t,
		     const char *key)
{
	int i;

	for (i = 0; i < 4; i++)
		if (t && !strcmp(key, mock_names[i]) &&
		    mock_has(t, (enum mock_field)i))
			return i;
	return -ENOENT;
}

static int mock_field(struct source *src, const struct event *ev, int index,
		      struct value *out)
{
	const struct mock_rec *r = ev->rec;

	switch (index) {
	case F_REASON:
		value_set_u64(out, r->reason);
		return 0;
	case F_VCPU:
		value_set_u64(out, r->vcpu);
		return 0;
	case F_INFO:
		value_set_str(out, r->info, strlen(r->info));
		return 0;
	case F_PORT:
		value_set_u64(out, 0x80);
		return 0;
	}
	return -ENOENT;
}

static size_t mock_fields(struct source *src, const struct event_type *t,
			  const char **names, size_t max)
{
	size_t n = 0;
	int i;

	for (i = 0; i < 4 && n < max; i++)
		if (mock_has(t, (enum mock_field)i))
			names[n++] = mock_names[i];
	return n;
}

static void mock_close(struct source *src)
{
}

static const struct source_ops mock_ops = {
	.kind = "trace.dat",
	.close = mock_close,
	.bind = mock_bind,
	.field = mock_field,
	.fields = mock_fields,
};

struct run {
	struct source *src;
	struct rules *rules;
	struct render *render;
	struct outbuf *out;
	struct sink *sink;
	FILE *f;
};

static int run_open(struct run *r, int kind)
{
	struct diag d;

	memset(r, 0, sizeof(*r));
	diag_init(&d);
	r->f = tmpfile();
	r->src = source_create(&mock_ops, "host.dat", 0);
	if (!r->f || !r->src || rules_load_default(&r->rules, &d) < 0)
		return -1;
	r->src->clock = CLOCK_NS;
	r->render = render_create(r->rules, 0, 1);
	r->out = outbuf_create(fileno(r->f));
	if (!r->render || !r->out)
		return -1;
	r->render->timeline = CLOCK_NS;
	r->sink = kind ? sink_chrome_create(r->out, r->render, 0)
		       : sink_stats_create(r->out, r->render, true, 0);
	if (!r->sink)
		return -1;
	return r->sink->ops->begin(r->sink, &r->src, 1, &d);
}

static int run_event(struct run *r, enum mock_type t, uint64_t ts,
		     int64_t pid, const struct mock_rec *rec)
{
	struct event ev = {
		.ts = ts, .raw_ts = ts, .has_ts = true, .pid = pid,
		.type = &mock_types[t], .src = r->src, .rec = rec,
	};
	struct diag d;

	diag_init(&d);
	return r->sink->ops->event(r->sink, &ev, &d);
}

/* End the run; returns the output (malloc'd) or NULL. */
static char *run_close(struct run *r)
{
	struct diag d;
	char *buf = NULL;
	long n;

	diag_init(&d);
	if (r->sink->ops->end(r->sink, &d) == 0 && outbuf_flush(r->out) == 0 &&
	    (n = ftell(r->f)) >= 0 && (buf = calloc(1, (size_t)n + 1))) {
		rewind(r->f);
		if (fread(buf, 1, (size_t)n, r->f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
	}
	sink_destroy(r->sink);
	outbuf_destroy(r->out);
	render_destroy(r->render);
	rules_destroy(r->rules);
	source_destroy(r->src);
	fclose(r->f);
	return buf;
}

/*
 * vCPU 0 (vcpu_id, pid 100): EPT_VIOLATION 1000 ns and 3000 ns.
 * vCPU 1 (pid 200): an old-format exit without vcpu_id, entry with
 * vcpu_id 1: paired through the pid, reason IO_INSTRUCTION 500 ns; then
 * (pid now known as vCPU 1) another old exit, entry 700 ns.
 * A reason printed as a number by libtraceevent: "exit 0x99".
 */
static int feed(struct run *r)
{
	static const struct mock_rec ept = { 48, 0, "reason EPT_VIOLATION rip 0x1000 info 0 0" },
				      io = { 30, 1, "reason IO_INSTRUCTION rip 0x2000" },
				      num = { 0x99, 0, "reason 153 rip 0x3000" },
				      e0 = { 0, 0, "" }, e1 = { 0, 1, "" };
	int ret = 0;

	ret |= run_event(r, M_EXIT, 10000, 100, &ept);
	ret |= run_event(r, M_EXIT_OLD, 10100, 200, &io);
	ret |= run_event(r, M_PIO, 10200, 200, &e0);
	ret |= run_event(r, M_ENTRY, 10600, 200, &e1);
	ret |= run_event(r, M_ENTRY, 11000, 100, &e0);
	ret |= run_event(r, M_EXIT, 20000, 100, &ept);
	ret |= run_event(r, M_EXIT_OLD, 20100, 200, &io);
	ret |= run_event(r, M_ENTRY, 20800, 200, &e1);
	ret |= run_event(r, M_ENTRY, 23000, 100, &e0);
	ret |= run_event(r, M_EXIT, 30000, 100, &num);
	ret |= run_event(r, M_ENTRY, 30010, 100, &e0);
	return ret;
}

static void test_pairs(struct tap *t)
{
	struct run r;
	char *out;

	out = run_open(&r, 0) == 0 && feed(&r) == 0 ? run_close(&r) : NULL;
	if (!tap_ok(t, out != NULL, "stats over the mock trace.dat"))
		return;
	tap_ok(t, strstr(out, "\nhost,EPT_VIOLATION,48,2,4.000,2.000,1.000,3.000,3.000,0\n") != NULL,
	       "kvm_exit/kvm_entry by vcpu_id, name from the text, exact times");
	tap_ok(t, strstr(out, "\nhost,IO_INSTRUCTION,30,2,1.200,0.600,0.500,0.700,0.700,0\n") != NULL,
	       "an exit without vcpu_id pairs with its entry through the pid");
	tap_ok(t, strstr(out, "\nhost,exit 0x99,153,1,0.010,") != NULL,
	       "a reason printed as a number gets no name");
	tap_ok(t, strstr(out, "host,kvm:kvm_exit,,5,") != NULL &&
		       strstr(out, "host,kvm:kvm_entry,,5,") != NULL,
	       "both kvm_exit formats count as one event");
	if (t->failed)
		tap_diag("%s", out);
	free(out);

	out = run_open(&r, 1) == 0 && feed(&r) == 0 ? run_close(&r) : NULL;
	if (!tap_ok(t, out != NULL, "chrome over the mock trace.dat"))
		return;
	tap_ok(t, strstr(out, "{\"name\":\"EPT_VIOLATION\",\"cat\":\"kvm\",\"ph\":\"X\",\"ts\":20.000,\"dur\":3.000,\"pid\":1,\"tid\":1,") != NULL,
	       "one X per exit, named by reason, on the vCPU's thread");
	tap_ok(t, strstr(out, "{\"name\":\"IO_INSTRUCTION\",\"cat\":\"kvm\",\"ph\":\"X\",\"ts\":10.100,\"dur\":0.500,") != NULL,
	       "the pid-paired exit is a slice too");
	tap_ok(t, strstr(out, "\"args\":{\"name\":\"vCPU 0\"}") != NULL &&
		       strstr(out, "\"args\":{\"port\":128,\"pid\":200}") != NULL,
	       "vCPU thread names; instants carry their fields");
	if (t->failed)
		tap_diag("%s", out);
	free(out);
}

/* ------------------------------------------------------------- helpers */

static bool json_is(const char *in, size_t len, const char *want)
{
	char buf[256];
	size_t n = sink_json_str(buf, in, len);

	buf[n] = '\0';
	if (strcmp(buf, want))
		tap_diag("got %s, want %s", buf, want);
	return !strcmp(buf, want);
}

static void test_json(struct tap *t)
{
	tap_ok(t, json_is("a\"b\\c", 5, "\"a\\\"b\\\\c\""), "quote, backslash");
	tap_ok(t, json_is("\n\t\x01\x1f", 4, "\"\\n\\t\\u0001\\u001f\""),
	       "control characters");
	tap_ok(t, json_is("\xe2\x82\xac\xf0\x9f\x98\x80", 7, "\"\xe2\x82\xac\xf0\x9f\x98\x80\""),
	       "valid UTF-8 passes");
	tap_ok(t, json_is("a\xff" "b", 3, "\"a\\ufffdb\""), "a stray byte");
	tap_ok(t, json_is("\xc0\x80", 2, "\"\\ufffd\\ufffd\""), "overlong: two");
	tap_ok(t, json_is("\xed\xa0\x80", 3, "\"\\ufffd\\ufffd\\ufffd\""),
	       "a surrogate: three");
	tap_ok(t, json_is("\xf0\x9f\x98", 3, "\"\\ufffd\""),
	       "a truncated sequence: one");
	tap_ok(t, json_is("\xe2\x82" "x", 3, "\"\\ufffdx\""),
	       "a broken sequence, then ASCII");
	tap_ok(t, json_is("", 0, "\"\""), "empty");
}

static void test_time(struct tap *t)
{
	struct sink_time st;
	char buf[32];

	buf[sink_put_us(buf, 0)] = '\0';
	tap_ok(t, !strcmp(buf, "0.000"), "0 ns is 0.000 µs");
	buf[sink_put_us(buf, 18446744073709551615ull)] = '\0';
	tap_ok(t, !strcmp(buf, "18446744073709551.615"), "the largest ns");
	sink_time_init(&st, CLOCK_TSC, 2394.5);
	tap_ok(t, st.ns && sink_time_ns(&st, 2394500000ull) == 1000000000ull,
	       "2394.5 MHz: a second of ticks is 1e9 ns");
	tap_ok(t, sink_time_ns(&st, 1) == 0 && sink_time_ns(&st, 2) == 1,
	       "ns round to the nearest");
	tap_ok(t, sink_time_ns(&st, 1ull << 62) == 1925949475225469995ull,
	       "no overflow at 2^62 ticks");
	sink_time_init(&st, CLOCK_TSC, 0);
	tap_ok(t, !st.ns, "TSC without -c stays in ticks");
	buf[sink_reason_default(buf, 0x1e)] = '\0';
	tap_ok(t, !strcmp(buf, "exit 0x1e"), "a reason without a name");
}

/* --------------------------------------------------------------- filter */

static bool filter_err(const char *name, const char *arg, const char *want)
{
	struct filter *f = filter_create();
	struct diag d;
	int ret;

	diag_init(&d);
	ret = filter_option(f, name, arg, &d);
	filter_destroy(f);
	if (ret != -EINVAL || !strstr(d.msg, want))
		tap_diag("--%s %s: %d %s", name, arg, ret, d.msg);
	return ret == -EINVAL && strstr(d.msg, want);
}

static void test_filter(struct tap *t)
{
	struct event_type kt = { .has_id = true, .id = 0x00010002 };
	struct source *src = source_create(&mock_ops, "x", 0);
	struct event ev = { .ts = 2400000, .has_ts = true, .pid = 7,
			    .has_vcpu = true, .vcpu = 3, .type = &kt, .src = src };
	struct filter *f = filter_create();
	struct diag d;
	bool ok;

	diag_init(&d);
	tap_ok(t, filter_err("vcpu", "1,x", "'x': not a number"), "--vcpu x");
	tap_ok(t, filter_err("pid", "010x", "not a number"), "--pid 010x");
	tap_ok(t, filter_err("vcpu", "3-1", "empty"), "--vcpu 3-1");
	tap_ok(t, filter_err("time-range", "2~1", "empty"), "--time-range 2~1");
	tap_ok(t, filter_err("time-range", "1", "START~END"), "--time-range 1");
	tap_ok(t, filter_err("time-range", "-1~", "START~END"), "--time-range -1~");
	tap_ok(t, filter_err("events", "a,,b", "empty item"), "--events a,,b");
	tap_ok(t, !filter_active(f) && filter_match(f, &ev), "no filter: all");
	ok = filter_option(f, "events", "kvm:*,VMEX*", &d) == 0 &&
	     filter_option(f, "vcpu", "0x3", &d) == 0 &&
	     filter_option(f, "pid", "1-7", &d) == 0 &&
	     filter_option(f, "time-range", "0.001~0.001", &d) == 0;
	tap_ok(t, ok && filter_active(f), "options parse");
	filter_set_clock(f, CLOCK_TSC, 2400);
	tap_ok(t, filter_match(f, &ev), "a glob meets the KVM_TRC name; 1 ms at 2400 MHz");
	ev.ts++;
	tap_ok(t, !filter_match(f, &ev), "one tick later is outside");
	ev.ts--;
	ev.vcpu = 2;
	tap_ok(t, !filter_match(f, &ev), "another vCPU is not");
	ev.vcpu = 3;
	kt.id = 0x00010001;
	tap_ok(t, !filter_match(f, &ev), "another id is not");
	filter_set_clock(f, CLOCK_TSC, 0);
	kt.id = 0x00010002;
	tap_ok(t, !filter_match(f, &ev), "without -c the range is in ticks");
	filter_destroy(f);
	source_destroy(src);
}

int main(void)
{
	struct tap t = { 0 };

	tap_plan(39);
	test_json(&t);
	test_time(&t);
	test_filter(&t);
	test_pairs(&t);
	return t.failed ? 1 : 0;
}
