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
#include "symtab.h"
#include "tap.h"

/* ---------------------------------------------------------- the mock */

enum mock_type { M_EXIT = 0, M_ENTRY, M_EXIT_OLD, M_PIO, M_GUEST, M_EXIT_ARM,
		 M_CALL, M_NTYPES };
enum mock_field { F_REASON = 0, F_VCPU, F_INFO, F_PORT, F_VM, F_HOST_TID,
		  F_RIP, F_ESR_EC, F_PC, F_SYMBOL, F_TYPE, F_ADDR, F_NFIELDS };

struct mock_rec {
	uint64_t reason;
	uint32_t vcpu;
	const char *info;
	const char *vm;		/* NULL: the event has no vm key */
	uint64_t host_tid;
	uint64_t rip;
};

static const struct event_type mock_types[M_NTYPES] = {
	{ .index = M_EXIT, .id = 10, .system = "kvm", .name = "kvm_exit" },
	{ .index = M_ENTRY, .id = 11, .system = "kvm", .name = "kvm_entry" },
	{ .index = M_EXIT_OLD, .id = 12, .system = "kvm", .name = "kvm_exit" },
	{ .index = M_PIO, .id = 13, .system = "kvm", .name = "kvm_pio" },
	{ .index = M_GUEST, .id = 14, .system = "sched", .name = "sched_switch" },
	{ .index = M_EXIT_ARM, .id = 15, .system = "kvm", .name = "kvm_exit" },
	{ .index = M_CALL, .id = 16, .system = "uftrace", .name = "entry" },
};

static bool mock_has(const struct event_type *t, enum mock_field f)
{
	switch (t->index) {
	case M_EXIT:
		return f == F_REASON || f == F_VCPU || f == F_INFO ||
		       f == F_VM || f == F_RIP;
	case M_ENTRY:
		return f == F_VCPU || f == F_VM;
	case M_EXIT_OLD:
		return f == F_REASON || f == F_INFO;
	case M_GUEST:
		return f == F_VM || f == F_HOST_TID;
	case M_EXIT_ARM:
		return f == F_ESR_EC || f == F_INFO || f == F_PC;
	case M_CALL:
		return f == F_SYMBOL || f == F_TYPE || f == F_ADDR;
	default:
		return f == F_PORT;
	}
}

static const char *const mock_names[F_NFIELDS] = {
	"exit_reason", "vcpu_id", "info", "port", "vm", "host_tid", "guest_rip",
	"esr_ec", "vcpu_pc", "symbol", "type", "addr"
};

static int mock_bind(struct source *src, const struct event_type *t,
		     const char *key)
{
	int i;

	for (i = 0; i < F_NFIELDS; i++)
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
	case F_ESR_EC:
		value_set_u64(out, r->reason);
		return 0;
	case F_VCPU:
		value_set_u64(out, r->vcpu);
		return 0;
	case F_INFO:
		value_set_str(out, r->info ? r->info : "", r->info ? strlen(r->info) : 0);
		return 0;
	case F_PORT:
		value_set_u64(out, 0x80);
		return 0;
	case F_VM:
		if (!r->vm)
			return -ENOENT;
		value_set_str(out, r->vm, strlen(r->vm));
		return 0;
	case F_HOST_TID:
		value_set_u64(out, r->host_tid);
		return 0;
	case F_SYMBOL:	/* uftrace: the function in info, entry or exit in vm */
		value_set_str(out, r->info, strlen(r->info));
		return 0;
	case F_TYPE:
		value_set_str(out, r->vm, strlen(r->vm));
		return 0;
	case F_ADDR:
	case F_RIP:
	case F_PC:
		value_set_u64(out, r->rip);
		return 0;
	}
	return -ENOENT;
}

static size_t mock_fields(struct source *src, const struct event_type *t,
			  const char **names, size_t max)
{
	size_t n = 0;
	int i;

	for (i = 0; i < F_NFIELDS && n < max; i++)
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
	struct source *guest;
	struct source *srcs[2];
	struct rules *rules;
	struct render *render;
	struct outbuf *out;
	struct sink *sink;
	FILE *f;
};

static int run_open_syms(struct run *r, int kind, const struct symtab *syms)
{
	struct diag d;

	memset(r, 0, sizeof(*r));
	diag_init(&d);
	r->f = tmpfile();
	r->src = source_create(&mock_ops, "host.dat", 0);
	r->guest = source_create(&mock_ops, "guest.dat", 1);
	if (!r->f || !r->src || !r->guest ||
	    rules_load_default(&r->rules, &d) < 0)
		return -1;
	r->src->clock = CLOCK_NS;
	r->guest->clock = CLOCK_NS;
	r->guest->domain = DOMAIN_GUEST;
	r->srcs[0] = r->src;
	r->srcs[1] = r->guest;
	r->render = render_create(r->rules, 0, 2);
	r->out = outbuf_create(fileno(r->f));
	if (!r->render || !r->out)
		return -1;
	r->render->timeline = CLOCK_NS;
	r->sink = kind ? sink_chrome_create(r->out, r->render, 0, false)
		       : sink_stats_create(r->out, r->render, "csv", 0, syms, 0,
					  NULL);
	if (!r->sink)
		return -1;
	return r->sink->ops->begin(r->sink, r->srcs, 2, &d);
}

static int run_open(struct run *r, int kind)
{
	return run_open_syms(r, kind, NULL);
}

static int run_event(struct run *r, enum mock_type t, uint64_t ts,
		     int64_t pid, const struct mock_rec *rec)
{
	struct event ev = {
		.ts = ts, .raw_ts = ts, .has_ts = true, .pid = pid,
		.type = &mock_types[t], .src = t == M_GUEST ? r->guest : r->src,
		.rec = rec,
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
	source_destroy(r->guest);
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
	static const struct mock_rec
		ept = { .reason = 48, .info = "reason EPT_VIOLATION rip 0x1000 info 0 0" },
		io = { .reason = 30, .vcpu = 1, .info = "reason IO_INSTRUCTION rip 0x2000" },
		num = { .reason = 0x99, .info = "reason 153 rip 0x3000" },
		e0 = { .info = "" }, e1 = { .vcpu = 1, .info = "" };
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
	/* of two values, p50 is the min and p90 … the max: exact */
	tap_ok(t, strstr(out, "\nhost,EPT_VIOLATION,48,2,40.00,4.000,76.78,2.000,1.000,1.000,3.000,3.000,3.000,3.000,0\n") != NULL,
	       "kvm_exit/kvm_entry by vcpu_id, name from the text, exact times");
	tap_ok(t, strstr(out, "\nhost,IO_INSTRUCTION,30,2,40.00,1.200,23.03,0.600,0.500,0.500,0.700,0.700,0.700,0.700,0\n") != NULL,
	       "an exit without vcpu_id pairs with its entry through the pid");
	tap_ok(t, strstr(out, "\nhost,exit 0x99,153,1,20.00,0.010,") != NULL,
	       "a reason printed as a number gets no name");
	tap_ok(t, strstr(out, "\npio port,0x80,1,0.500,0.500,0.500\n") != NULL,
	       "kvm_pio during an exit charges the exit's time to its port");
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
	tap_ok(t, strstr(out, "\"args\":{\"name\":\"vCPU 0 (host tid 100)\"}") != NULL &&
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
	/* 8 bytes at a time while plain: a byte to escape in every place */
	tap_ok(t, json_is("abcdefgh\"ijklmnop\\qrstuvw\x01xyz0123456\x7f\xc3\xa9", 39,
			  "\"abcdefgh\\\"ijklmnop\\\\qrstuvw\\u0001xyz0123456\x7f\xc3\xa9\""),
	       "long strings: escapes after and within words");
	tap_ok(t, json_is("0123456789abcdef\x1f", 17,
			  "\"0123456789abcdef\\u001f\""),
	       "long strings: a control byte after two words");
}

/* xorshift64*: the same numbers on every run */
static uint64_t test_rand(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545f4914f6cdd1dull;
}

/*
 * sink_time_ns() divides by a multiply and shifts: the same ns as the
 * 128-bit division, (ts 1e9 + hz / 2) / hz, for frequencies of every kind
 * (powers of two, 2^k +- 1, odd, round, random up to and past 18 GHz,
 * where it takes the division) and ticks from 0 to 2^64 - 1.
 */
static void test_time_div(struct tap *t)
{
	static const double mhz[] = {
		0.000001, 0.000002, 0.000003, 1, 1.048576, 2147.483648,
		2147.483649, 4294.967295, 4294.967297, 2400, 2394.5, 2399.999999,
		999.999999, 3000, 3333.3, 17999.999999, 18000, 25000, 1e6,
	};
	uint64_t x = 88172645463325252ull, bad = 0, n = 0;
	size_t k, i;

	for (k = 0; k < 400; k++) {
		struct sink_time st;
		double m = k < sizeof(mhz) / sizeof(mhz[0])
				   ? mhz[k]
				   : (double)(test_rand(&x) % 20000000000ull) / 1e6;

		sink_time_init(&st, CLOCK_TSC, m);
		if (!st.ns)
			continue;
		for (i = 0; i < 4000; i++) {
			uint64_t ts = i < 64	 ? i
				      : i < 128	 ? UINT64_MAX - (i - 64)
				      : i < 192	 ? st.hz * (i - 128) - (i & 1)
				      : i & 1	 ? test_rand(&x)
						 : test_rand(&x) >> (test_rand(&x) % 64);
			unsigned __int128 want =
				((unsigned __int128)ts * 1000000000u + st.hz / 2) /
				st.hz;

			n++;
			if (sink_time_ns(&st, ts) != (uint64_t)want && !bad++)
				tap_diag("hz %llu ts %llu: %llu, want %llu",
					 (unsigned long long)st.hz,
					 (unsigned long long)ts,
					 (unsigned long long)sink_time_ns(&st, ts),
					 (unsigned long long)want);
		}
	}
	tap_ok(t, !bad && n > 1000000,
	       "ticks to ns by multiplication: as the division (%llu pairs)",
	       (unsigned long long)n);
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
	test_time_div(t);
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
	filter_set_clock(f, CLOCK_TSC, 2400, NULL);
	tap_ok(t, filter_match(f, &ev), "a glob meets the KVM_TRC name; 1 ms at 2400 MHz");
	ev.ts++;
	tap_ok(t, !filter_match(f, &ev), "one tick later is outside");
	ev.ts--;
	ev.vcpu = 2;
	tap_ok(t, !filter_match(f, &ev), "another vCPU is not");
	ev.vcpu = 3;
	kt.id = 0x00010001;
	tap_ok(t, !filter_match(f, &ev), "another id is not");
	filter_set_clock(f, CLOCK_TSC, 0, NULL);
	kt.id = 0x00010002;
	tap_ok(t, !filter_match(f, &ev), "without -c the range is in ticks");
	filter_destroy(f);
	source_destroy(src);
}

/* ----------------------------------------------- VMs, caps, guest syms */

/* Two VMs with a vCPU 0 each, their exits interleaved. */
static char *two_vms(int kind, bool named)
{
	struct mock_rec xa = { .reason = 48, .info = "reason EPT_VIOLATION",
			       .vm = named ? "vm-a" : NULL },
			xb = { .reason = 30, .info = "reason IO_INSTRUCTION",
			       .vm = named ? "vm-b" : NULL },
			na = { .info = "", .vm = named ? "vm-a" : NULL },
			nb = { .info = "", .vm = named ? "vm-b" : NULL },
			g = { .info = "", .vm = "vm-a", .host_tid = 100 };
	struct run r;
	int ret = run_open(&r, kind);

	ret |= run_event(&r, M_EXIT, 1000, 100, &xa);
	ret |= run_event(&r, M_EXIT, 1100, 200, &xb);
	ret |= run_event(&r, M_ENTRY, 1500, 100, &na);
	ret |= run_event(&r, M_ENTRY, 2100, 200, &nb);
	if (named)
		ret |= run_event(&r, M_GUEST, 1200, 7, &g);
	return ret == 0 ? run_close(&r) : NULL;
}

static void test_vms(struct tap *t)
{
	char *out = two_vms(0, true);

	tap_ok(t, out && strstr(out, "\nvm-a,0,100,1,50.00,0.500,") &&
		       strstr(out, "\nvm-b,0,200,1,50.00,1.000,") &&
		       strstr(out, "\nhost,EPT_VIOLATION,48,1,50.00,0.500,"),
	       "two VMs' vCPU 0: each exit pairs with its own VM's entry");
	if (out && t->failed)
		tap_diag("%s", out);
	free(out);
	out = two_vms(0, false);
	tap_ok(t, out && strstr(out, "\npid 100,0,100,1,50.00,0.500,") &&
		       strstr(out, "\npid 200,0,200,1,50.00,1.000,"),
	       "without a vm key, the VM is the exit's host thread");
	free(out);
	out = two_vms(1, true);
	tap_ok(t, out && strstr(out, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":3,\"tid\":0,\"args\":{\"name\":\"vm-a\"}}") &&
		       strstr(out, "\"pid\":3,\"tid\":1,\"args\":{\"name\":\"vCPU 0 (host tid 100)\"}") &&
		       strstr(out, "\"pid\":3,\"tid\":3,\"args\":{\"name\":\"guest task 7\"}") &&
		       strstr(out, "\"pid\":3,\"tid\":3,\"args\":{\"sort_index\":200007}") &&
		       strstr(out, "{\"name\":\"EPT_VIOLATION\",\"cat\":\"kvm\",\"ph\":\"X\",\"ts\":1.000,\"dur\":0.500,\"pid\":3,\"tid\":1,"),
	       "chrome: a process per VM, its vCPU's track and its guest task's");
	if (out && t->failed)
		tap_diag("%s", out);
	free(out);
}

static void test_caps(struct tap *t)
{
	struct mock_rec *x = calloc(SINK_MAXKEYS + 100, sizeof(*x));
	struct run r;
	char *out = NULL;
	size_t i;
	int ret, kind;

	for (kind = 0; kind < 2; kind++) {
		ret = x ? run_open(&r, kind) : -1;
		for (i = 0; ret == 0 && i < SINK_MAXKEYS + 100; i++) {
			x[i].reason = 1000 + i;
			/* stats: one vCPU, many reasons; chrome: many vCPUs */
			x[i].vcpu = kind ? (uint32_t)i : 0;
			x[i].info = "reason 1";
			ret |= run_event(&r, M_EXIT, 1000 * i, 1, &x[i]);
			ret |= run_event(&r, M_ENTRY, 1000 * i + 10, 1, &x[i]);
		}
		out = ret == 0 ? run_close(&r) : NULL;
		if (!kind)
			tap_ok(t, out && strstr(out, "\n-,(other reasons),,100,") &&
				       strstr(out, "\nhost,exit 0x3e8,1000,1,"),
			       "stats: 4096 reasons kept, the rest as one row");
		else
			tap_ok(t, out && strstr(out, "(threads beyond the first 4096)"),
			       "chrome: 4096 threads kept, the rest on one");
		free(out);
	}
	free(x);
}

static void test_guest_syms(struct tap *t)
{
	struct symtab *syms = calloc(1, sizeof(*syms));
	struct mock_rec x1 = { .reason = 12, .info = "reason HLT",
			       .rip = 0xffffffff81000010ull },
			x2 = { .reason = 12, .info = "reason HLT",
			       .rip = 0xffffffff81000100ull },
			n = { .info = "" };
	struct run r;
	char *out;
	int ret;

	ret = syms ? 0 : -1;
	ret |= syms ? symtab_add(syms, 0xffffffff81000000ull, 0, "default_idle", 12) : -1;
	ret |= syms ? symtab_add(syms, 0xffffffff81000100ull, 0, "native_safe_halt", 16) : -1;
	if (syms)
		symtab_sort(syms);
	tap_ok(t, ret == 0 && symtab_find(syms, 0xffffffff81000050ull) == 0 &&
		       symtab_find(syms, 0xffffffff80000000ull) == -1 &&
		       symtab_find(syms, 0xffffffff81000100ull) == 1,
	       "symtab: the last symbol at or below the address");
	ret |= run_open_syms(&r, 0, syms);
	ret |= run_event(&r, M_EXIT, 1000, 100, &x1);
	ret |= run_event(&r, M_ENTRY, 1400, 100, &n);
	ret |= run_event(&r, M_EXIT, 2000, 100, &x2);
	ret |= run_event(&r, M_ENTRY, 2100, 100, &n);
	ret |= run_event(&r, M_EXIT, 3000, 100, &x2);
	ret |= run_event(&r, M_ENTRY, 3100, 100, &n);
	out = ret == 0 ? run_close(&r) : NULL;
	tap_ok(t, out && strstr(out, "\ndefault_idle,HLT,1,0.400,0.400\n") &&
		       strstr(out, "\nnative_safe_halt,HLT,2,0.200,0.100\n"),
	       "exits charged to the guest function of their RIP");
	if (out && t->failed)
		tap_diag("%s", out);
	free(out);
	symtab_destroy(syms);
}

/* arm64: kvm_exit with esr_ec and vcpu_pc, the EC's name in its text */
static void test_arm64(struct tap *t)
{
	struct mock_rec x = { .reason = 0x16, .rip = 0xffffffff81000100ull,
			      .info = "kvm_exit: TRAP: HSR_EC: 0x0016 (HVC64), PC: 0xffffffff81000100" },
			n = { .vcpu = 2, .info = "" };
	struct symtab *syms = calloc(1, sizeof(*syms));
	struct run r;
	char *out;
	int ret = syms ? symtab_add(syms, 0xffffffff81000100ull, 0x40, "psci_hvc", 8) : -1;

	ret |= run_open_syms(&r, 0, syms);
	ret |= run_event(&r, M_EXIT_ARM, 1000, 300, &x);
	ret |= run_event(&r, M_ENTRY, 1250, 300, &n);
	out = ret == 0 ? run_close(&r) : NULL;
	tap_ok(t, out && strstr(out, "\nhost,HVC64,22,1,100.00,0.250,") &&
		       strstr(out, "\npsci_hvc,HVC64,1,0.250,0.250\n"),
	       "arm64 kvm_exit: the exception class named, vcpu_pc resolved");
	if (out && t->failed)
		tap_diag("%s", out);
	free(out);
	symtab_destroy(syms);
}

/* A uftrace guest's call on vCPU vcpu. */
static int guest_call(struct run *r, uint64_t ts, uint32_t vcpu,
		      const struct mock_rec *rec)
{
	struct event ev = {
		.ts = ts, .raw_ts = ts, .has_ts = true, .pid = 7,
		.has_vcpu = true, .vcpu = vcpu,
		.type = &mock_types[M_CALL], .src = r->guest, .rec = rec,
	};
	struct diag d;

	diag_init(&d);
	return r->sink->ops->event(r->sink, &ev, &d);
}

/* No symbols: the function a uftrace guest has open on the vCPU. */
static void test_guest_calls(struct tap *t)
{
	struct mock_rec idle = { .info = "do_idle", .vm = "entry", .rip = 0x1000 },
			halt = { .info = "native_safe_halt", .vm = "entry", .rip = 0x2000 },
			halt_x = { .info = "native_safe_halt", .vm = "exit", .rip = 0x2000 },
			x = { .reason = 12, .info = "reason HLT" },
			n = { .info = "" };
	struct run r;
	char *out;
	int ret = run_open(&r, 0);

	ret |= guest_call(&r, 100, 0, &idle);
	ret |= guest_call(&r, 200, 0, &halt);
	ret |= run_event(&r, M_EXIT, 1000, 100, &x);	/* in native_safe_halt */
	ret |= run_event(&r, M_ENTRY, 1500, 100, &n);
	ret |= guest_call(&r, 1600, 0, &halt_x);
	ret |= run_event(&r, M_EXIT, 2000, 100, &x);	/* back in do_idle */
	ret |= run_event(&r, M_ENTRY, 2100, 100, &n);
	ret |= guest_call(&r, 2200, 1, &halt);		/* another vCPU */
	out = ret == 0 ? run_close(&r) : NULL;
	tap_ok(t, out && strstr(out, "\nnative_safe_halt,HLT,1,0.500,0.500\n") &&
		       strstr(out, "\ndo_idle,HLT,1,0.100,0.100\n"),
	       "without symbols, the guest function open on the vCPU at the exit");
	/* the longest exit of the reason, with that function */
	tap_ok(t, out && strstr(out, "\n1000,host,pid 100,0,100,HLT,0.500,,native_safe_halt\n\n") &&
		       !strstr(out, ",HLT,0.100,,do_idle\n"),
	       "the longest exit of a reason names the guest function open at it");
	if (out && t->failed)
		tap_diag("%s", out);
	free(out);
}

int main(void)
{
	struct tap t = { 0 };

	tap_plan(53);
	test_json(&t);
	test_time(&t);
	test_filter(&t);
	test_pairs(&t);
	test_vms(&t);
	test_caps(&t);
	test_guest_syms(&t);
	test_arm64(&t);
	test_guest_calls(&t);
	return t.failed ? 1 : 0;
}
