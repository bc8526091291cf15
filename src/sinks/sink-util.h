/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the summarising sinks (Chrome JSON, statistics) and the filter share:
 * a small integer map, the time units of the timeline, display names of
 * events, and the pairing of KVM exits with the next entry on the vCPU.
 *
 * Everything here is looked up once per (source, event type) or on the
 * first sight of a key; the per-event paths only compare integers.
 */
#ifndef KTF_SINK_UTIL_H
#define KTF_SINK_UTIL_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "event.h"
#include "source.h"

struct render;

/* ------------------------------------------------------------ u64 → u32 */

#define SINK_MAP_EMPTY UINT32_MAX

struct sink_map_slot {
	uint64_t key;
	uint32_t val;	/* SINK_MAP_EMPTY: a free slot */
};

/* Open addressing, linear probing; values are indices (not EMPTY). */
struct sink_map {
	struct sink_map_slot *v;	/* owned */
	size_t cap;	/* a power of two, or 0 */
	size_t n;
};

void sink_map_fini(struct sink_map *m);

static inline size_t sink_map_slot(uint64_t k, size_t cap)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (size_t)k & (cap - 1);
}

/* The value of key, or SINK_MAP_EMPTY. */
static inline uint32_t sink_map_find(const struct sink_map *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return SINK_MAP_EMPTY;
	for (i = sink_map_slot(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (m->v[i].val == SINK_MAP_EMPTY)
			return SINK_MAP_EMPTY;
		if (m->v[i].key == key)
			return m->v[i].val;
	}
}

/*
 * Start loading p into the cache. On x86-64 by hand: GCC 12 drops a
 * __builtin_prefetch() of an address made by sink_map_slot()'s hash (at
 * -O1 and -O2, its whole branch with it), and one for writing without
 * -mprfchw.
 */
static inline void sink_prefetch(const void *p)
{
#if defined(__x86_64__)
	__asm__ volatile("prefetcht0 %0" : : "m"(*(const char *)p));
#else
	__builtin_prefetch(p);
#endif
}

/* Start loading the slot of key into the cache: it is looked up soon. */
static inline void sink_map_prefetch(const struct sink_map *m, uint64_t key)
{
	if (m->cap)
		sink_prefetch(&m->v[sink_map_slot(key, m->cap)]);
}

/* Add key (not in the map yet) with val. 0 or -ENOMEM. */
int sink_map_add(struct sink_map *m, uint64_t key, uint32_t val);

/* --------------------------------------------------------------- time */

/*
 * The units time stamps print in. A nanosecond timeline, or a TSC one with
 * -c MHZ, converts to nanoseconds (and prints µs with three decimals);
 * otherwise stamps stay ticks of unknown length.
 */
struct sink_time {
	enum clock_kind timeline;
	double mhz;		/* -c; 0: none */
	bool ns;		/* stamps convert to nanoseconds */
	uint64_t hz;		/* TSC with -c: ticks per second, rounded */
	/*
	 * n / hz as a multiply and shifts (libdivide's unsigned 64-bit
	 * scheme: magic = 2^(64+shift) / hz rounded up, or with the "add"
	 * step when that needs 65 bits); used below 18 GHz, where the
	 * remainder's ns fit 64 bits. hz_magic 0: a power of two.
	 */
	uint64_t hz_magic;
	uint8_t hz_shift;
	bool hz_add;
	bool hz_fast;
};

static inline uint64_t sink_time_div(const struct sink_time *t, uint64_t n)
{
	uint64_t q;

	if (!t->hz_magic)
		return n >> t->hz_shift;
	q = (uint64_t)(((unsigned __int128)n * t->hz_magic) >> 64);
	if (t->hz_add)
		q = ((n - q) >> 1) + q;
	return q >> t->hz_shift;
}

void sink_time_init(struct sink_time *t, enum clock_kind timeline,
		    double mhz);

/* ts (host timeline) in ns; only when t->ns. Rounded to the nearest ns. */
static inline uint64_t sink_time_ns(const struct sink_time *t, uint64_t ts)
{
	unsigned __int128 x;

	uint64_t q;

	if (t->timeline != CLOCK_TSC)
		return ts;
	if (__builtin_expect(t->hz_fast, 1)) {
		/* below a second (durations): q is 0 */
		if (ts < t->hz)
			return sink_time_div(t, ts * 1000000000u + t->hz / 2);
		/* ts = q hz + r: q seconds, and r's ns rounded (the same) */
		q = sink_time_div(t, ts);
		return q * 1000000000u +
		       sink_time_div(t, (ts - q * t->hz) * 1000000000u +
						t->hz / 2);
	}
	x = (unsigned __int128)ts * 1000000000u + t->hz / 2;
	return (uint64_t)(x / t->hz);
}

/* Decimal of ns / 1000 with exactly three decimals ("12.345"): <= 24 bytes. */
size_t sink_put_us(char *p, uint64_t ns);

/* ------------------------------------------------------------- naming */

#define SINK_KVMTRACE_VMENTRY	0x00010001u
#define SINK_KVMTRACE_VMEXIT	0x00010002u

/* The KVM_TRC_* name of a kvmtrace event id (Linux 2.6.26), or NULL. */
const char *sink_kvmtrace_name(uint64_t id);

/*
 * The display name of ev: its type's name; for events with an id, a rule's
 * label (YAML "name:") or the KVM_TRC_* name; NULL: print the id.
 * r may be NULL (no labels).
 */
const char *sink_event_name(struct render *r, const struct event *ev);

/* ------------------------------------------------- roles of event types */

enum sink_role {
	SINK_EVENT = 0,	/* anything else: an instant */
	SINK_EXIT,	/* VMEXIT, kvm:kvm_exit */
	SINK_ENTRY,	/* VMENTRY, kvm:kvm_entry */
	SINK_CALL,	/* a function entry or exit (uftrace) */
};

#define SINK_NOSLOT INT32_MIN

/* What one event type of one source is to the sinks, found by its fields. */
/* Events that say what an exit in progress was about (kvm_pio, …). */
enum sink_kind {
	SINK_KIND_NONE = 0,
	SINK_KIND_PIO,		/* kvm_pio: port */
	SINK_KIND_MMIO,		/* kvm_mmio: gpa */
	SINK_KIND_MSR,		/* kvm_msr: ecx */
	SINK_KIND_HYPERCALL,	/* kvm_hypercall: nr */
	SINK_KIND_VIRQ,		/* kvm_inj_virq: vector (irq before 4.x) */
	SINK_NKINDS,
};

struct sink_type {
	uint8_t role;		/* types with has_id: see sink_role() */
	uint8_t kind;		/* enum sink_kind of a SINK_EVENT type */
	int32_t reason;		/* EXIT: slot of the exit reason */
	int32_t vcpu;		/* EXIT/ENTRY: slot of vcpu_id */
	int32_t info;		/* EXIT: libtraceevent's text (reason names) */
	int32_t call;		/* CALL: slot of "type" (entry|exit|…) */
	int32_t tid;		/* CALL: slot of the thread id */
	int32_t symbol;		/* CALL: slot of the function name */
	int32_t addr;		/* CALL: slot of the function's address */
	int32_t comm;		/* the task's name, for thread names */
	int32_t vm;		/* the VM's name (host/guest map), or NOSLOT */
	int32_t host_tid;	/* guest events: the host thread of the vCPU */
	int32_t value;		/* a kind's value: port, gpa, msr, nr, vector */
	int32_t rip;		/* EXIT: guest_rip (kvmtrace: words 2, 3) */
	int32_t rip_hi;		/* kvmtrace EXIT: the RIP's high word */
	/*
	 * reason, vcpu, value, rip and rip_hi where the source keeps them as
	 * a uint32_t at a fixed byte offset of ev->rec for every event
	 * (source_ops.field_u32: kvmtrace's words), read without a call;
	 * SINK_NOAT: through field().
	 */
	uint16_t at_reason, at_vcpu, at_value, at_rip, at_rip_hi;
};

#define SINK_NOAT UINT16_MAX

void sink_type_init(struct sink_type *st, struct source *src,
		    const struct event_type *t);

static inline enum sink_role sink_role(const struct sink_type *st,
				       const struct event *ev)
{
	if (ev->type->has_id) {
		if (ev->type->id == SINK_KVMTRACE_VMEXIT)
			return SINK_EXIT;
		if (ev->type->id == SINK_KVMTRACE_VMENTRY)
			return SINK_ENTRY;
		return SINK_EVENT;
	}
	return (enum sink_role)st->role;
}

/* The kind of ev: what an exit in progress is about (kvm_pio, …). */
static inline enum sink_kind sink_kind(const struct sink_type *st,
				       const struct event *ev)
{
	if (ev->type->has_id) {
		switch (ev->type->id) {
		case 0x00020002u:	/* INJ_VIRQ: irq */
			return SINK_KIND_VIRQ;
		case 0x00020005u:	/* IO_READ: port, size */
		case 0x00020006u:	/* IO_WRITE */
			return SINK_KIND_PIO;
		case 0x0002000bu:	/* MSR_READ: ecx, data */
		case 0x0002000cu:	/* MSR_WRITE */
			return SINK_KIND_MSR;
		case 0x00020010u:	/* VMMCALL: nr */
			return SINK_KIND_HYPERCALL;
		}
		return SINK_KIND_NONE;
	}
	return (enum sink_kind)st->kind;
}

/* Integer field slot of ev: 0 with *out, or -ENOENT. */
int sink_field_u64(const struct event *ev, int32_t slot, uint64_t *out);

/* sink_field_u64() of a slot of st whose offset (st->at_*) is at. */
static inline int sink_field_at(const struct event *ev, int32_t slot,
				uint16_t at, uint64_t *out)
{
	uint32_t w;

	if (at == SINK_NOAT)
		return sink_field_u64(ev, slot, out);
	memcpy(&w, (const char *)ev->rec + at, sizeof(w));
	*out = w;
	return 0;
}

/* For SINK_CALL: 1 entry, -1 exit, 2 an event record, 0 else (lost). */
int sink_call_dir(const struct sink_type *st, const struct event *ev);

/*
 * The name of exit reason `reason` of ev (an exit): a rule's enum symbol
 * for the reason field (YAML), or the symbol libtraceevent prints after
 * "reason " (trace.dat). Returns true with the name in buf, false if the
 * reason has no name: it prints as sink_reason_default(). Called once per
 * new reason.
 */
bool sink_reason_name(struct render *r, const struct event *ev,
		      const struct sink_type *st, uint64_t reason, char *buf,
		      size_t len);

/*
 * Can exits of ev's type have reason names (a rule's enum, or trace.dat's
 * text)? If not, every reason prints as sink_reason_default().
 */
bool sink_reason_named(struct render *r, const struct event *ev,
		       const struct sink_type *st);

/* "exit 0x1e": the name of a reason without one; <= 24 bytes, no NUL. */
size_t sink_reason_default(char *p, uint64_t reason);

struct diag;

/*
 * To d: that not one of the n exits (n > 0) met its entry, so no exit
 * (what: "", or what the sink draws of one, with a space after) has a
 * duration; the caller says why after it. --stats, --exits
 * (exits_warn_unpaired()), --chrome and --perfetto say it alike.
 */
void sink_unpaired_add(struct diag *d, uint64_t n, const char *what);

/* ----------------------------------------------------------- threads */

enum sink_thread_kind {
	SINK_VCPU = 0,
	SINK_TASK,
	SINK_CPU,
	SINK_PROG,	/* a track of a program's process (chrome-prog.c) */
};

/* A thread of one domain: a vCPU, a task or a CPU, as one 64-bit key. */
static inline uint64_t sink_thread_key(enum domain d, enum sink_thread_kind k,
				       uint64_t number)
{
	return number << 3 | (uint64_t)k << 1 | (uint64_t)d;
}

static inline enum domain sink_key_domain(uint64_t key)
{
	return (enum domain)(key & 1);
}

static inline enum sink_thread_kind sink_key_kind(uint64_t key)
{
	return (enum sink_thread_kind)((key >> 1) & 3);
}

static inline uint64_t sink_key_number(uint64_t key)
{
	return key >> 3;
}

/* The guest RIP of exit ev (guest_rip, or kvmtrace VMEXIT words 2, 3). */
static inline int sink_exit_rip(const struct sink_type *st,
				const struct event *ev, uint64_t *rip)
{
	uint64_t hi = 0;

	if (sink_field_at(ev, st->rip, st->at_rip, rip) < 0)
		return -ENOENT;
	if (st->rip_hi != SINK_NOSLOT) {
		if (sink_field_at(ev, st->rip_hi, st->at_rip_hi, &hi) < 0)
			hi = 0;
		*rip = (*rip & 0xffffffffu) | hi << 32;
	}
	return 0;
}

/* ---------------------------------------------------------------- caps */

/*
 * The most distinct keys a summary keeps per table (vCPUs, VMs, threads,
 * exit reasons, event ids, …): a stream of random words cannot make it
 * grow past them. What comes beyond is counted together and said.
 */
#define SINK_MAXKEYS	4096u

/* ---------------------------------------------------------------- VMs */

#define SINK_VM_OVER	UINT32_MAX	/* beyond SINK_MAXKEYS */

/*
 * The VMs seen, as small indices: by the `vm` key where an input names
 * them (trace-cmd's GUEST option), else by the pid of the exit's host
 * thread (kvmtrace: the process; trace.dat: the vCPU thread).
 */
struct sink_vms {
	struct sink_map map;	/* name hash or pid -> index */
	char **names;		/* owned, each owned: "NAME" or "pid N" */
	bool *named;		/* owned: from a `vm` key */
	size_t n;
	size_t cap;
	/*
	 * Keys found and their indices (an index never moves), direct
	 * mapped: kvmtrace streams switch between a few pids at nearly
	 * every record, where one "last" entry missed three times in four.
	 */
	struct sink_vms_seen {
		uint64_t key;
		uint32_t idx;	/* index + 1; 0: none */
	} seen[16];
};

static inline struct sink_vms_seen *sink_vms_seen(struct sink_vms *vms,
						  uint64_t key)
{
	return &vms->seen[(key * 0x9e3779b97f4a7c15ull) >> 60];
}

void sink_vms_fini(struct sink_vms *vms);

/* The VM index of ev, made on first sight; SINK_VM_OVER; -ENOMEM. */
int sink_vm_of_slow(struct sink_vms *vms, const struct sink_type *st,
		    const struct event *ev, uint32_t *out);

/* The key of ev's VM when its type names none: its pid's, per machine. */
static inline uint64_t sink_vm_pid_key(const struct event *ev)
{
	return ((uint64_t)ev->pid & ((1ull << 40) - 1)) |
	       (uint64_t)ev->src->machine << 40;
}

/* sink_vm_of_slow(), inline when ev's VM is its pid's and in vms->seen. */
static inline int sink_vm_of(struct sink_vms *vms, const struct sink_type *st,
			     const struct event *ev, uint32_t *out)
{
	if (st->vm == SINK_NOSLOT) {
		uint64_t key = sink_vm_pid_key(ev);
		const struct sink_vms_seen *s = sink_vms_seen(vms, key);

		if (s->idx && s->key == key) {
			*out = s->idx - 1;
			return 0;
		}
	}
	return sink_vm_of_slow(vms, st, ev, out);
}

/* ---------------------------------------------------- exit/entry pairs */

struct sink_vcpu {
	uint64_t key;		/* sink_thread_key(): VM << 32 | vCPU */
	uint64_t exit_ts;	/* host time of the pending exit */
	uint64_t reason;	/* its reason */
	uint64_t kind_value;	/* what the exit was about (kind) */
	uint64_t rip;		/* the guest RIP of the exit */
	int64_t host_tid;	/* the host thread seen last */
	uint32_t ref;		/* the sink's index for that reason */
	const char *sym;	/* the RIP's function, borrowed; or NULL */
	uint8_t kind;		/* enum sink_kind seen during the exit */
	bool has_rip;
	bool pending;		/* an exit waits for its entry */
	bool over;		/* the shared state beyond SINK_MAXKEYS */
};

/*
 * The vCPUs seen in exits and entries, per VM. The vCPU of a kvmtrace
 * record is its vcpu field; of a trace.dat event its vcpu_id field if the
 * format has one, else the vCPU last seen with its pid, else the task
 * (pid) itself. An exit pairs with the next entry of the same vCPU of the
 * same VM.
 */
struct sink_pairs {
	struct sink_map map;	/* key -> index into v */
	struct sink_vcpu *v;	/* owned */
	size_t n;
	size_t cap;
	struct sink_map pid_vcpu;	/* (domain, pid) -> vCPU number */
	struct sink_vms vms;
	struct sink_vcpu over;	/* every vCPU beyond SINK_MAXKEYS */
	bool tasks;	/* an exit or entry was kept under its task */
	/*
	 * The last key of map found and its index: an exit's entry comes
	 * next on its vCPU more often than not.
	 */
	uint64_t last_key;
	uint32_t last;		/* index + 1; 0: none */
	/*
	 * The vCPUs of events that name theirs (ev->vcpu) and no VM (no `vm`
	 * key): their state by (pid, machine, domain, vCPU), in one probe
	 * (kvmtrace streams switch vCPUs at nearly every record).
	 */
	struct sink_pairs_hit {
		uint64_t task;	/* pid | machine << 40 */
		uint64_t vcpu;	/* vCPU | domain << 32 | SINK_PAIRS_HIT */
		uint32_t idx;	/* into v */
	} hits[256];
};

#define SINK_PAIRS_HIT (1ull << 33)

/* The entry of hits for ev, if its vCPU can be found there: its keys. */
static inline struct sink_pairs_hit *
sink_pairs_hit(struct sink_pairs *p, const struct sink_type *st,
	       const struct event *ev, uint64_t *task, uint64_t *vcpu)
{
	uint64_t h;

	if (st->vm != SINK_NOSLOT || st->vcpu != SINK_NOSLOT || !ev->has_vcpu)
		return NULL;
	*task = ((uint64_t)ev->pid & ((1ull << 40) - 1)) |
		(uint64_t)ev->src->machine << 40;
	*vcpu = ev->vcpu | (uint64_t)ev->src->domain << 32 | SINK_PAIRS_HIT;
	h = (*task ^ *vcpu << 20) * 0x9e3779b97f4a7c15ull;
	return &p->hits[h >> 56];
}

/* The vCPU state of ev from hits, if it is there; else NULL. */
static inline struct sink_vcpu *sink_pairs_probe(struct sink_pairs *p,
						 const struct sink_type *st,
						 const struct event *ev)
{
	uint64_t task, vcpu;
	struct sink_pairs_hit *h = sink_pairs_hit(p, st, ev, &task, &vcpu);

	return h && h->task == task && h->vcpu == vcpu ? &p->v[h->idx] : NULL;
}

/* The VM index of a vCPU key (from sink_pairs_get), and its vCPU. */
static inline uint32_t sink_key_vm(uint64_t key)
{
	return (uint32_t)(sink_key_number(key) >> 32);
}

static inline uint32_t sink_key_vcpu(uint64_t key)
{
	return (uint32_t)sink_key_number(key);
}

void sink_pairs_fini(struct sink_pairs *p);

/*
 * The vCPU state for exit or entry ev, created on first sight. An entry
 * whose vCPU has no pending exit also looks under its task, where an exit
 * without vcpu_id waits. Beyond SINK_MAXKEYS vCPUs: &p->over (never
 * pending). NULL: out of memory.
 */
struct sink_vcpu *sink_pairs_get(struct sink_pairs *p,
				 const struct sink_type *st,
				 const struct event *ev);

/*
 * sink_pairs_get() of an exit (entry false) or an entry, the common case
 * inline: a vCPU found in hits, not an entry whose vCPU has nothing
 * pending.
 */
static inline struct sink_vcpu *sink_pairs_find(struct sink_pairs *p,
						const struct sink_type *st,
						const struct event *ev,
						bool entry)
{
	struct sink_vcpu *v = sink_pairs_probe(p, st, ev);

	if (v && (v->pending || !entry)) {
		v->host_tid = ev->pid;
		return v;
	}
	return sink_pairs_get(p, st, ev);
}

/* ------------------------------------------------------------ output */

/*
 * ev's string s as a JSON string with its quotes: '"', '\\' and control
 * characters escaped, invalid UTF-8 as \ufffd (one per maximal invalid
 * subsequence). Writes at most SINK_JSON_BOUND(len) bytes.
 */
#define SINK_JSON_BOUND(len) (6 * (len) + 2)
size_t sink_json_str(char *p, const char *s, size_t len);

/*
 * s as valid UTF-8, for Perfetto's protobuf strings: what sink_json_str()
 * writes as \ufffd is U+FFFD here, the rest is copied. Writes at most
 * 3 * len bytes.
 */
size_t sink_utf8_clean(char *p, const char *s, size_t len);

/*
 * Make (*v)[idx] exist in an array of n elements of size bytes, growing it
 * by doubling and zeroing the new elements. 0 or -ENOMEM.
 */
int sink_grow_to(void **v, uint32_t *n, uint32_t idx, size_t size);
static inline int sink_grow(void **v, uint32_t *n, uint32_t idx, size_t size)
{
	return idx < *n ? 0 : sink_grow_to(v, n, idx, size);
}

/*
 * Make room for element n of a growable array of *cap elements of size
 * bytes (doubling, from 16). The new room is not cleared. 0 or -ENOMEM.
 */
int sink_reserve(void **v, size_t *cap, size_t n, size_t size);

#endif
