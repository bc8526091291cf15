// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "pyfmt.h"
#include "render.h"
#include "rules.h"
#include "sink-util.h"

/* ------------------------------------------------------------ u64 → u32 */

void sink_map_fini(struct sink_map *m)
{
	free(m->v);
	memset(m, 0, sizeof(*m));
}

static size_t sink_map_index(const struct sink_map *m, uint64_t key)
{
	size_t i;

	for (i = sink_map_slot(key, m->cap);; i = (i + 1) & (m->cap - 1))
		if (m->v[i].val == SINK_MAP_EMPTY || m->v[i].key == key)
			return i;
}

static int sink_map_grow(struct sink_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64, i;
	struct sink_map n = { .cap = cap };

	n.v = malloc(cap * sizeof(*n.v));
	if (!n.v)
		return -ENOMEM;
	for (i = 0; i < cap; i++)
		n.v[i].val = SINK_MAP_EMPTY;
	for (i = 0; i < m->cap; i++)
		if (m->v[i].val != SINK_MAP_EMPTY)
			n.v[sink_map_index(&n, m->v[i].key)] = m->v[i];
	n.n = m->n;
	sink_map_fini(m);
	*m = n;
	return 0;
}

/* Insert key or replace its value. 0 or -ENOMEM. */
static int sink_map_set(struct sink_map *m, uint64_t key, uint32_t val)
{
	size_t i;

	if ((m->n + 1) * 4 > m->cap * 3 && sink_map_grow(m) < 0)
		return -ENOMEM;
	i = sink_map_index(m, key);
	if (m->v[i].val == SINK_MAP_EMPTY)
		m->n++;
	m->v[i].key = key;
	m->v[i].val = val;
	return 0;
}

int sink_map_add(struct sink_map *m, uint64_t key, uint32_t val)
{
	return sink_map_set(m, key, val);
}

/* --------------------------------------------------------------- time */

/* sink_time_div()'s constants for t->hz (>= 1); checked against the
 * 128-bit division for 40 M pairs of hz (1 .. 18 G) and ts. */
static void sink_time_div_init(struct sink_time *t)
{
	uint64_t d = t->hz, m, rem, twice;
	unsigned l = 63 - (unsigned)__builtin_clzll(d);
	unsigned __int128 num = (unsigned __int128)1 << (64 + l);

	t->hz_fast = d < 18000000000ull;
	t->hz_shift = (uint8_t)l;
	if (!(d & (d - 1)))
		return;		/* hz_magic 0: a shift */
	m = (uint64_t)(num / d);
	rem = (uint64_t)(num % d);
	if (d - rem >= 1ull << l) {
		twice = rem + rem;
		m += m;
		if (twice >= d || twice < rem)
			m++;
		t->hz_add = true;
	}
	t->hz_magic = m + 1;
}

void sink_time_init(struct sink_time *t, enum clock_kind timeline,
		    double mhz)
{
	memset(t, 0, sizeof(*t));
	t->timeline = timeline;
	t->mhz = mhz;
	if (timeline == CLOCK_NS) {
		t->ns = true;
	} else if (timeline == CLOCK_TSC && mhz > 0) {
		double hz = nearbyint(mhz * 1e6);

		t->ns = hz >= 1.0;
		t->hz = t->ns ? (uint64_t)hz : 0;
		if (t->ns)
			sink_time_div_init(t);
	}
}

size_t sink_put_us(char *p, uint64_t ns)
{
	size_t n = pyfmt_u64_dec(p, ns / 1000);
	unsigned f = (unsigned)(ns % 1000);

	p[n++] = '.';
	p[n++] = (char)('0' + f / 100);
	p[n++] = (char)('0' + f / 10 % 10);
	p[n++] = (char)('0' + f % 10);
	return n;
}

/* ------------------------------------------------------------- naming */

/* include/linux/kvm.h of Linux 2.6.26 .. 2.6.30: KVM_TRC_* */
static const char *const sink_kvmtrace_entryexit[] = {
	NULL, "VMENTRY", "VMEXIT",
};

static const char *const sink_kvmtrace_handler[] = {
	NULL, "PAGE_FAULT", "INJ_VIRQ", "REDELIVER_EVT", "PEND_INTR",
	"IO_READ", "IO_WRITE", "CR_READ", "CR_WRITE", "DR_READ", "DR_WRITE",
	"MSR_READ", "MSR_WRITE", "CPUID", "INTR", "NMI", "VMMCALL", "HLT",
	"CLTS", "LMSW", "APIC_ACCESS", "TDP_FAULT", "GTLB_WRITE", "STLB_WRITE",
	"STLB_INVAL", "PPC_INSTR",
};

#define SINK_NELEM(a) (sizeof(a) / sizeof((a)[0]))

const char *sink_kvmtrace_name(uint64_t id)
{
	uint64_t lo = id & 0xffff;

	switch (id >> 16) {
	case 1:
		return lo < SINK_NELEM(sink_kvmtrace_entryexit) ?
			       sink_kvmtrace_entryexit[lo] : NULL;
	case 2:
		return lo < SINK_NELEM(sink_kvmtrace_handler) ?
			       sink_kvmtrace_handler[lo] : NULL;
	}
	return NULL;
}

const char *sink_event_name(struct render *r, const struct event *ev)
{
	const struct event_type *t = ev->type;
	const struct binding *b;
	struct diag d;

	if (t->name)
		return t->name;
	if (!t->has_id)
		return NULL;
	/* a label given to exactly this id, not to the default rule */
	if (r && render_binding(r, ev, &b, &d) == 0 && b->rule &&
	    b->rule->label && b->rule->match == RULE_ID && b->rule->id == t->id)
		return b->rule->label;
	return sink_kvmtrace_name(t->id);
}

/* ------------------------------------------------- roles of event types */

static int32_t sink_bind(struct source *src, const struct event_type *t,
			 const char *key)
{
	int idx = src->ops->bind ? src->ops->bind(src, t, key) : -ENOENT;

	return idx >= 0 ? idx : SINK_NOSLOT;
}

static bool sink_is_kvm(const struct event_type *t, const char *name)
{
	return t->name && !strcmp(t->name, name) &&
	       (!t->system || !strcmp(t->system, "kvm"));
}

static bool sink_kind_init(struct sink_type *st, struct source *src,
			   const struct event_type *t)
{
	static const struct {
		const char *event, *field, *old;
		enum sink_kind kind;
	} kinds[] = {
		{ "kvm_pio", "port", NULL, SINK_KIND_PIO },
		{ "kvm_mmio", "gpa", NULL, SINK_KIND_MMIO },
		{ "kvm_msr", "ecx", "index", SINK_KIND_MSR },
		{ "kvm_hypercall", "nr", NULL, SINK_KIND_HYPERCALL },
		{ "kvm_inj_virq", "vector", "irq", SINK_KIND_VIRQ },
	};
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (!sink_is_kvm(t, kinds[i].event))
			continue;
		st->value = sink_bind(src, t, kinds[i].field);
		if (st->value == SINK_NOSLOT && kinds[i].old)
			st->value = sink_bind(src, t, kinds[i].old);
		st->vcpu = sink_bind(src, t, "vcpu_id");
		if (st->value != SINK_NOSLOT)
			st->kind = (uint8_t)kinds[i].kind;
		return true;
	}
	return false;
}

static void sink_type_slots(struct sink_type *st, struct source *src,
			    const struct event_type *t)
{
	st->role = SINK_EVENT;
	st->reason = SINK_NOSLOT;
	st->vcpu = SINK_NOSLOT;
	st->info = SINK_NOSLOT;
	st->call = SINK_NOSLOT;
	st->tid = SINK_NOSLOT;
	st->symbol = SINK_NOSLOT;
	st->addr = SINK_NOSLOT;
	st->kind = SINK_KIND_NONE;
	st->value = SINK_NOSLOT;
	st->rip = SINK_NOSLOT;
	st->rip_hi = SINK_NOSLOT;
	/* the running task's name (sched_wakeup's own comm is the wakee's) */
	st->comm = sink_bind(src, t, "common_comm");
	if (st->comm == SINK_NOSLOT)
		st->comm = sink_bind(src, t, "comm");
	st->vm = sink_bind(src, t, "vm");
	st->host_tid = sink_bind(src, t, "host_tid");
	if (t->has_id) {
		/*
		 * kvmtrace: VMEXIT's data word 1 is the exit code, words 2
		 * and 3 the RIP; word 1 of IO_*, MSR_*, INJ_VIRQ, VMMCALL the
		 * port, MSR, vector or number.
		 */
		st->reason = sink_bind(src, t, "1");
		st->value = st->reason;
		st->rip = sink_bind(src, t, "2");
		st->rip_hi = sink_bind(src, t, "3");
		return;
	}
	if (sink_is_kvm(t, "kvm_exit")) {
		/* x86; arm64: the exception class and PC; riscv: scause, pc */
		st->role = SINK_EXIT;
		st->reason = sink_bind(src, t, "exit_reason");
		if (st->reason == SINK_NOSLOT)
			st->reason = sink_bind(src, t, "esr_ec");
		if (st->reason == SINK_NOSLOT)
			st->reason = sink_bind(src, t, "scause");
		st->vcpu = sink_bind(src, t, "vcpu_id");
		st->info = sink_bind(src, t, "info");
		st->rip = sink_bind(src, t, "guest_rip");
		if (st->rip == SINK_NOSLOT)
			st->rip = sink_bind(src, t, "vcpu_pc");
		if (st->rip == SINK_NOSLOT)
			st->rip = sink_bind(src, t, "pc");
		return;
	}
	if (sink_is_kvm(t, "kvm_entry")) {
		st->role = SINK_ENTRY;
		st->vcpu = sink_bind(src, t, "vcpu_id");
		return;
	}
	if (sink_kind_init(st, src, t))
		return;
	st->symbol = sink_bind(src, t, "symbol");
	st->call = sink_bind(src, t, "type");
	if (st->symbol != SINK_NOSLOT && st->call != SINK_NOSLOT) {
		st->role = SINK_CALL;
		st->tid = sink_bind(src, t, "tid");
		st->addr = sink_bind(src, t, "addr");
	}
}

/* The offset of slot in ev->rec where it is a uint32_t always; or NOAT. */
static uint16_t sink_at(struct source *src, int32_t slot)
{
	size_t off;

	if (slot == SINK_NOSLOT || slot < 0 || !src->ops->field_u32 ||
	    !src->ops->field_u32(src, slot, &off) || off >= SINK_NOAT)
		return SINK_NOAT;
	return (uint16_t)off;
}

void sink_type_init(struct sink_type *st, struct source *src,
		    const struct event_type *t)
{
	sink_type_slots(st, src, t);
	st->at_reason = sink_at(src, st->reason);
	st->at_vcpu = sink_at(src, st->vcpu);
	st->at_value = sink_at(src, st->value);
	st->at_rip = sink_at(src, st->rip);
	st->at_rip_hi = sink_at(src, st->rip_hi);
}

int sink_field_u64(const struct event *ev, int32_t slot, uint64_t *out)
{
	struct value v;

	if (slot == SINK_NOSLOT || slot < 0)
		return -ENOENT;
	if (ev->src->ops->field(ev->src, ev, slot, &v) < 0 ||
	    v.kind != VALUE_INT)
		return -ENOENT;
	*out = v.neg ? -v.u : v.u;
	return 0;
}

int sink_call_dir(const struct sink_type *st, const struct event *ev)
{
	struct value v;

	if (ev->src->ops->field(ev->src, ev, st->call, &v) < 0 ||
	    v.kind != VALUE_STR)
		return 0;
	if (v.len == 5 && !memcmp(v.s, "entry", 5))
		return 1;
	if (v.len == 4 && !memcmp(v.s, "exit", 4))
		return -1;
	if (v.len == 5 && !memcmp(v.s, "event", 5))
		return 2;
	return 0;
}

/* Follow a rule's plain key aliases to the field they name. */
static const char *sink_alias_target(const struct rule *rule, const char *key)
{
	unsigned depth;
	size_t i;

	for (depth = 0; depth < 8; depth++) {
		for (i = 0; i < rule->naliases; i++)
			if (rule->aliases[i].kind == ALIAS_KEY &&
			    !strcmp(rule->aliases[i].key, key))
				break;
		if (i == rule->naliases)
			return key;
		key = rule->aliases[i].a;
	}
	return key;
}

/* The enum a rule gives the reason field of ev, or NULL. */
static const struct rule_enum *sink_rule_reason(struct render *r,
						const struct event *ev)
{
	const char *field = ev->type->has_id ? "1" : "exit_reason";
	const struct binding *b;
	struct diag d;
	size_t i;

	if (!r || render_binding(r, ev, &b, &d) < 0 || !b->rule)
		return NULL;
	for (i = 0; i < b->rule->naliases; i++) {
		const struct rule_alias *a = &b->rule->aliases[i];

		if (a->kind == ALIAS_ENUM && a->table &&
		    !strcmp(sink_alias_target(b->rule, a->a), field))
			return a->table;
	}
	return NULL;
}

bool sink_reason_named(struct render *r, const struct event *ev,
		       const struct sink_type *st)
{
	return st->info != SINK_NOSLOT || sink_rule_reason(r, ev);
}

void sink_unpaired_add(struct diag *d, uint64_t n, const char *what)
{
	diag_add(d, "%s %" PRIu64 " exit%s met an entry of its vCPU after it (kvm:kvm_entry, or VMENTRY in kvmtrace), so no exit %shas a duration: ",
		 n == 1 ? "the" : "none of the", n, n == 1 ? " never" : "s",
		 what);
}

size_t sink_reason_default(char *p, uint64_t reason)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[16];
	size_t n = 0, i;

	memcpy(p, "exit 0x", 7);
	do {
		tmp[n++] = hex[reason & 15];
		reason >>= 4;
	} while (reason);
	for (i = 0; i < n; i++)
		p[7 + i] = tmp[n - 1 - i];
	return 7 + n;
}

/* arm64's kvm_exit text: "…: HSR_EC: 0x0016 (HVC64), PC: …" */
static bool sink_reason_arm64(const char *s, const char *end, char *buf,
			      size_t len)
{
	const char *p, *q;

	for (p = s; p + 8 <= end; p++)
		if (!memcmp(p, "HSR_EC: ", 8))
			break;
	if (p + 8 > end)
		return false;
	for (p += 8; p < end && *p != '(' && *p != ','; p++)
		;
	if (p == end || *p != '(')
		return false;
	for (q = ++p; q < end && *q != ')'; q++)
		;
	if (q == end || q == p || (size_t)(q - p) >= len)
		return false;
	memcpy(buf, p, (size_t)(q - p));
	buf[q - p] = '\0';
	return true;
}

bool sink_reason_name(struct render *r, const struct event *ev,
		      const struct sink_type *st, uint64_t reason, char *buf,
		      size_t len)
{
	const struct rule_enum *e = sink_rule_reason(r, ev);
	const char *sym = e ? rules_enum_symbol(e, reason) : NULL;
	const char *end, *p, *q;
	struct value v;

	if (sym) {
		snprintf(buf, len, "%s", sym);
		return true;
	}
	/* libtraceevent's text of kvm_exit: "reason EXTERNAL_INTERRUPT rip …" */
	if (st->info == SINK_NOSLOT ||
	    ev->src->ops->field(ev->src, ev, st->info, &v) < 0 ||
	    v.kind != VALUE_STR)
		return false;
	end = v.s + v.len;
	for (p = v.s; p + 7 <= end; p++)
		if (!memcmp(p, "reason ", 7))
			break;
	if (p + 7 > end)
		return sink_reason_arm64(v.s, end, buf, len);
	p += 7;
	for (q = p; q < end && *q != ' ' && *q != '\n'; q++)
		;
	/* a symbol, not the number printed back */
	if (q == p || (size_t)(q - p) >= len || (*p >= '0' && *p <= '9'))
		return false;
	memcpy(buf, p, (size_t)(q - p));
	buf[q - p] = '\0';
	return true;
}

/* ------------------------------------------------------------ output */

/*
 * Length of the valid UTF-8 sequence at s (2..4), or minus the length of
 * its maximal invalid subpart (Unicode 15, table 3-7 and §3.9 U+FFFD).
 */
static int sink_utf8(const unsigned char *s, size_t len)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	int need, i;

	if (c >= 0xc2 && c <= 0xdf)
		need = 1;
	else if (c >= 0xe0 && c <= 0xef)
		need = 2;
	else if (c >= 0xf0 && c <= 0xf4)
		need = 3;
	else
		return -1;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	for (i = 1; i <= need; i++) {
		if ((size_t)i >= len || s[i] < lo || s[i] > hi)
			return -i;
		lo = 0x80;
		hi = 0xbf;
	}
	return need + 1;
}

/* 1 for the bytes a JSON string holds as they are */
static const unsigned char sink_json_plain[256] = {
	[0x20 ... 0x21] = 1, [0x23 ... 0x5b] = 1, [0x5d ... 0x7f] = 1,
};

size_t sink_json_str(char *p, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	char *start = p;
	size_t i = 0;

	*p++ = '"';
	while (i < len) {
		unsigned char c;
		int n;

		/* 8 plain bytes at a time: none < 0x20, '"', '\\' or >= 0x80 */
		while (len - i >= 8) {
			const uint64_t ones = 0x0101010101010101ull,
				       high = 0x8080808080808080ull;
			uint64_t x, q, b;

			memcpy(&x, u + i, 8);
			q = x ^ (ones * '"');
			b = x ^ (ones * '\\');
			if ((((x - ones * 0x20) & ~x) | ((q - ones) & ~q) |
			     ((b - ones) & ~b) | x) & high)
				break;
			memcpy(p, &x, 8);
			p += 8;
			i += 8;
		}
		if (i >= len)
			break;
		c = u[i];
		if (sink_json_plain[c]) {
			*p++ = (char)c;
			i++;
			continue;
		}
		if (c == '"' || c == '\\') {
			*p++ = '\\';
			*p++ = (char)c;
			i++;
			continue;
		}
		if (c < 0x20) {
			*p++ = '\\';
			switch (c) {
			case '\n': *p++ = 'n'; break;
			case '\t': *p++ = 't'; break;
			case '\r': *p++ = 'r'; break;
			case '\b': *p++ = 'b'; break;
			case '\f': *p++ = 'f'; break;
			default:
				memcpy(p, "u00", 3);
				p[3] = hex[c >> 4];
				p[4] = hex[c & 15];
				p += 5;
			}
			i++;
			continue;
		}
		n = sink_utf8(u + i, len - i);
		if (n > 0) {
			memcpy(p, u + i, (size_t)n);
			p += n;
			i += (size_t)n;
		} else {
			memcpy(p, "\\ufffd", 6);
			p += 6;
			i += (size_t)-n;
		}
	}
	*p++ = '"';
	return (size_t)(p - start);
}

size_t sink_utf8_clean(char *p, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	char *start = p;
	size_t i = 0;
	uint64_t w;

	/* ASCII, eight bytes at a time */
	for (; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, 8);
		if (w & 0x8080808080808080ull)
			break;
		memcpy(p, &w, 8);
		p += 8;
	}
	while (i < len) {
		int n;

		if (u[i] < 0x80) {
			*p++ = (char)u[i++];
			continue;
		}
		n = sink_utf8(u + i, len - i);
		if (n > 0) {
			memcpy(p, u + i, (size_t)n);
			p += n;
			i += (size_t)n;
		} else {
			memcpy(p, "\xef\xbf\xbd", 3);
			p += 3;
			i += (size_t)-n;
		}
	}
	return (size_t)(p - start);
}

int sink_grow_to(void **v, uint32_t *n, uint32_t idx, size_t size)
{
	uint32_t cap = *n ? *n : 16;
	char *nv;

	if (idx < *n)
		return 0;
	while (cap <= idx)
		cap *= 2;
	nv = realloc(*v, (size_t)cap * size);
	if (!nv)
		return -ENOMEM;
	memset(nv + (size_t)*n * size, 0, (size_t)(cap - *n) * size);
	*v = nv;
	*n = cap;
	return 0;
}

int sink_reserve(void **v, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? *cap : 16;
	void *nv;

	if (n < *cap)
		return 0;
	while (c <= n)
		c *= 2;
	nv = realloc(*v, c * size);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = c;
	return 0;
}
