/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Chrome sink's own header: its state, the writers of JSON pieces
 * (here, inline), metadata and threads (chrome-meta.c), event types and
 * instants (chrome-types.c); exits, entries and calls are sink-chrome.c.
 */
#ifndef KTF_CHROME_H
#define KTF_CHROME_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "diag.h"
#include "outbuf.h"
#include "pyfmt.h"
#include "sink-util.h"
#include "sink.h"
#include "timeline.h"

#define CHROME_MAXFIELDS	256
#define CHROME_IDCACHE		256
#define CHROME_IDPROBE		4
#define CHROME_HEADMAX		120
#define CHROME_LABELMAX		200	/* bytes of a name kept in a head */
/* bytes an event takes besides its head, strings and args */
#define CHROME_SLACK		256
#define CHROME_NOREF		UINT32_MAX	/* a reason without a name */

struct chrome_field {
	int32_t slot;
	struct tl_key k;	/* key: the field's name, jkey "name": (owned) */
	bool word;		/* a kvmtrace data word: left out if 0 at the end */
	/* >= 0: the value is a u32 at this byte of ev->rec for every
	 * event (source_ops.field_u32), or a u64 (u64: field_at's
	 * SOURCE_AT_U64, kvmtrace's event id), read without a call */
	int32_t u32_off;
	bool u64;
};

/*
 * chrome_type.u32_offs[i]: -1, field i through field(); else its byte
 * offset << CHROME_AT_SHIFT, with CHROME_AT_WORD (a kvmtrace data word)
 * and CHROME_AT_U64 (a u64, not a u32): one load for all an instant
 * needs to know of a field.
 */
#define CHROME_AT_U64	1
#define CHROME_AT_WORD	2
#define CHROME_AT_SHIFT	2
#define CHROME_AT_MAX	(INT32_MAX >> CHROME_AT_SHIFT)
#define CHROME_AT_FIELDS	64	/* fields of a chrome_type.all_at */

/* What the sink knows about one event type of one source. */
struct chrome_type {
	bool init;
	struct sink_type st;
	char *head;		/* owned: {"name":…,"cat":…,"ph":"i","s":"t","ts": */
	size_t headlen;
	char *name;		/* owned: the instants' name (no id) */
	size_t namelen;
	char *cat;		/* owned: "cat":"…" */
	size_t catlen;
	const char *rawcat;	/* borrowed: the category itself */
	size_t rawcatlen;
	struct chrome_field *fields;	/* owned */
	size_t nfields;
	size_t jargs;		/* TL_ARGBOUND() of the fields' keys and more */
	/* owned: an instant's args, nfields + 2, refilled by each; field
	 * i's key set once */
	struct tl_arg *args;
	int32_t *u32_offs;	/* owned: each field's CHROME_AT_* */
	/* every field is at an offset (u32_offs >= 0), and there are
	 * CHROME_AT_FIELDS at most: then these say what each is */
	bool all_at;
	uint32_t *at_offs;	/* owned: each field's byte offset */
	uint64_t at_u64;	/* bit i: field i is a u64 */
	uint64_t at_nonword;	/* bit i: field i is not a data word */
	/* all_at, no field is hex, every key's jkey 16 bytes at most: an
	 * instant's args are tl_event.args_uint (if its pid is >= 0) */
	bool args_uint;
	uint32_t *iids;		/* owned: tl_event.iids of the fields' keys */
	uint32_t name_iid;	/* tl_event.name_iid of name */
	uint32_t cat_iid;	/* tl_event.cat_iid of rawcat */
	bool add_pid;		/* no field holds the pid: add "pid" */
	bool add_cpu;		/* the fields held common_cpu: add "cpu" */
	bool cpu_own;		/* the event has a cpu: add "common_cpu" */
	int8_t named;		/* exits: reasons have names (-1: not known) */
	uint8_t cpu_role;	/* enum chrome_cpu_role: drawn on a CPU */
	int32_t slot_a;		/* CPU roles: next_comm, irq, vec */
	int32_t slot_b;		/* next_pid, name (irq_handler_entry) */
	int32_t slot_c;		/* prev_state */
	int32_t sym;		/* EXIT: guest_sym, or SINK_NOSLOT */
	bool prog;		/* a program's event (source_ops.program) */
};

/*
 * Events drawn as slices on their CPU's track (chrome-cpu.c): the task
 * that runs from one sched_switch to the next, interrupt and softirq
 * handlers from entry to exit.
 */
enum chrome_cpu_role {
	CHROME_CPU_NONE = 0,
	CHROME_CPU_SWITCH,
	CHROME_CPU_IRQ_ENTRY,
	CHROME_CPU_IRQ_EXIT,
	CHROME_CPU_SOFTIRQ_ENTRY,
	CHROME_CPU_SOFTIRQ_EXIT,
};

#define CHROME_CPUNAME	48	/* bytes of a slice name kept per CPU */
#define CHROME_IRQDEPTH	8	/* handlers open at once on a CPU */

struct chrome_cpu_slice {
	uint64_t since;
	uint64_t num;		/* irq number, softirq vector, task tid */
	uint8_t kind;		/* enum chrome_cpu_role of its entry */
	uint8_t len;
	char name[CHROME_CPUNAME];
};

/* One CPU's track: the task running and the handlers open. */
struct chrome_cpu {
	uint64_t key;			/* the track's thread key */
	bool running;
	struct chrome_cpu_slice task;
	uint32_t depth;			/* handlers open (may exceed the stack) */
	struct chrome_cpu_slice irq[CHROME_IRQDEPTH];
};

#define CHROME_SYMMAX	96
#define CHROME_INFOMAX	256

/* What a pending exit's slice will carry as args, kept per vCPU. */
struct chrome_exitargs {
	uint32_t tid;		/* the vCPU's Chrome thread; 0: not yet */
	uint16_t symlen;
	uint16_t infolen;
	char sym[CHROME_SYMMAX];
	char info[CHROME_INFOMAX];
};

struct chrome_src {
	struct chrome_type *types;	/* owned, by event_type.index */
	uint32_t n;
};

/* chrome_type()'s cache: a type of a source and where its record is. */
#define CHROME_TCACHE	64
struct chrome_tcache {
	const struct source *src;	/* borrowed; NULL: empty */
	uint32_t ti;			/* event_type.index */
	struct chrome_type *ct;		/* in its source's types */
};

/* The head of instants of one kvmtrace id (the name depends on the id). */
struct chrome_idhead {
	uint64_t id;
	uint32_t src;
	bool valid;
	uint8_t len;
	uint8_t namelen;
	uint32_t ver;		/* sink_chrome.idhead_ver when filled */
	uint32_t name_iid;	/* tl_event.name_iid, 0 when filled */
	char head[CHROME_HEADMAX];
	char name[CHROME_HEADMAX];	/* the name itself */
};

struct chrome_thread {
	uint64_t key;		/* sink_thread_key() */
	uint32_t pid;		/* its Chrome process */
	uint32_t open;		/* function entries still open (B without E) */
	bool sched;		/* uftrace: a linux:schedule slice is open */
};

struct chrome_reason {
	char *name;		/* owned, with jname after it */
	size_t len;
	uint32_t name_iid;	/* tl_event.name_iid */
	char *jname;		/* {"name":…,"cat":"kvm" */
	size_t jlen;
};

/* A process of a program's input (chrome-prog.c). */
struct chrome_prog {
	const struct source *src;	/* borrowed */
	uint32_t pid;		/* the program's pid, if src's pids are */
	bool announced;
};

/* chrome_event_tid()'s cache: (pid, machine, domain, vCPU) -> tid */
#define CHROME_TIDHITS_LOG	8
/* set in the vcpu of a filled chrome_tidhit */
#define CHROME_TIDHIT		(1ull << 33)
struct chrome_tidhit {
	uint64_t task;		/* pid | machine << 40 */
	uint64_t vcpu;		/* vCPU | domain << 32 | CHROME_TIDHIT */
	uint32_t tid;
};

static inline uint64_t chrome_tidhit_task(const struct event *ev)
{
	return ((uint64_t)ev->pid & ((1ull << 40) - 1)) |
	       (uint64_t)ev->src->machine << 40;
}

static inline uint64_t chrome_tidhit_vcpu(const struct event *ev)
{
	return ev->vcpu | (uint64_t)ev->src->domain << 32 | CHROME_TIDHIT;
}

static inline size_t chrome_tidhit_at(const struct event *ev)
{
	uint64_t h = chrome_tidhit_task(ev) ^ chrome_tidhit_vcpu(ev) << 20;

	return (size_t)(h * 0x9e3779b97f4a7c15ull >> (64 - CHROME_TIDHITS_LOG));
}

struct sink_chrome {
	struct sink sink;
	struct tl_enc *enc;		/* owned: JSON or Perfetto */
	bool perfetto;			/* enc writes Perfetto's protobuf */
	bool big_said;			/* the JSON passed CHROME_BIG */
	double mhz;
	struct sink_time time;
	struct source **srcs;		/* borrowed (begin) */
	size_t nsrcs;
	struct chrome_src *csrcs;	/* owned, by source.index */
	/* emptied when a source's types move (grow) */
	struct chrome_tcache tcache[CHROME_TCACHE];
	struct chrome_idhead idheads[CHROME_IDCACHE];
	uint32_t idhead_ver;	/* fills of idheads so far */
	struct chrome_tidhit tidhits[1u << CHROME_TIDHITS_LOG];
	struct sink_map thread_map;	/* key -> index into threads */
	struct chrome_thread *threads;	/* owned */
	size_t nthreads;
	size_t cap_threads;
	struct sink_pairs pairs;
	struct sink_map vm_pids;	/* VM processes announced */
	struct sink_map reason_map;	/* (domain, kind, reason) -> index */
	struct sink_map dreason_map;	/* reasons of types naming none */
	struct chrome_reason *reasons;	/* owned */
	size_t nreasons;
	size_t cap_reasons;
	struct chrome_exitargs *xargs;	/* owned: by index into pairs.v */
	uint32_t nxargs;
	struct source *sym_src;		/* borrowed: a guest input's symbols */
	struct sink_map cpu_map;	/* track key -> index into cpus */
	struct chrome_cpu *cpus;	/* owned */
	size_t ncpus, cap_cpus;
	struct sink_map prog_map;	/* (input, pid) -> index into progs */
	struct chrome_prog *progs;	/* owned */
	size_t nprogs, cap_progs;
	bool prog_over_announced;	/* the process beyond the cap */
	bool announced[2];		/* the host and guest processes */
	bool any;			/* an event was seen */
	uint64_t first_ts, last_ts;
	uint64_t exits_unpaired;	/* another exit came first */
	uint64_t exits_open;		/* no entry before the end */
	uint64_t exits_paired;		/* ended by their entry */
	uint64_t calls_no_entry;	/* exits whose entry came before */
	uint64_t calls_no_exit;		/* entries open at the end */
	bool ended;
};

/* ------------------------------------------------------------ writing */

static inline char *chrome_lit(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

#define CHROME_LIT(p, s) chrome_lit(p, s, sizeof(s) - 1)

static inline char *chrome_dec(char *p, uint64_t v)
{
	return p + pyfmt_u64_dec(p, v);
}

/*
 * Chrome processes: 1 the host, 2 the guest, CHROME_VM_PID + VM index a VM
 * that an input names (one process per VM).
 */
#define CHROME_VM_PID	3
/* A guest thread's vCPU key without a VM */
#define CHROME_NOVM	SINK_MAXKEYS
/* A guest task's key: (VM index + 1) << CHROME_VMTASK | tid */
#define CHROME_VMTASK	40
/* The thread of every key beyond SINK_MAXKEYS */
#define CHROME_OTHER_KEY	UINT64_MAX

/* Chrome's viewer gives up near this much JSON. */
#define CHROME_BIG	(256ull << 20)

static inline int chrome_emit(struct sink_chrome *c,
			      const struct tl_event *te)
{
	return c->enc->ops->event(c->enc, te);
}

static inline int chrome_nomem(struct diag *d)
{
	diag_set(d, "out of memory");
	return -ENOMEM;
}

/* ------------------------------------ chrome-meta.c: metadata, threads */

/* A process of the timeline (before its first thread). */
static inline int chrome_process_meta(struct sink_chrome *c, uint32_t pid,
				      const char *name, size_t len,
				      int64_t sort)
{
	return c->enc->ops->process(c->enc, pid, name, len, sort);
}
/* The Chrome pid of thread tid. */
static inline uint32_t chrome_tid_pid(const struct sink_chrome *c,
				      uint32_t tid)
{
	return c->threads[tid - 1].pid;
}
int chrome_thread_new(struct sink_chrome *c, uint64_t key,
		      const struct event *ev, const struct sink_type *st,
		      uint32_t *tid);
/* The Chrome tid of thread key (from 1), announced on first sight. */
static inline int chrome_thread(struct sink_chrome *c, uint64_t key,
				const struct event *ev,
				const struct sink_type *st, uint32_t *tid)
{
	uint32_t i = sink_map_find(&c->thread_map, key);

	if (__builtin_expect(i != SINK_MAP_EMPTY, 1)) {
		*tid = i + 1;
		return 0;
	}
	return chrome_thread_new(c, key, ev, st, tid);
}
/* The thread an event belongs on. 0 or -ENOMEM. */
int chrome_thread_key(struct sink_chrome *c, const struct sink_type *st,
		      const struct event *ev, enum sink_role role,
		      uint64_t *key);
/*
 * The Chrome tid of ev's thread (chrome_thread_key(), chrome_thread()).
 * Events that name their vCPU and no VM (kvmtrace) find it by (pid,
 * machine, domain, vCPU) in one probe of c->tidhits: their key is a
 * function of those alone (chrome_thread_key()) but when it is a CPU's,
 * and a key's tid never changes. h: their entry of tidhits, to fill, or
 * NULL. 0 or -ENOMEM.
 */
int chrome_event_tid_slow(struct sink_chrome *c, const struct sink_type *st,
			  const struct event *ev, enum sink_role role,
			  struct chrome_tidhit *h, uint32_t *tid);
static inline int chrome_event_tid(struct sink_chrome *c,
				   const struct sink_type *st,
				   const struct event *ev, enum sink_role role,
				   uint32_t *tid)
{
	struct chrome_tidhit *h = NULL;

	if (st->vm == SINK_NOSLOT && ev->has_vcpu && role != SINK_CALL) {
		h = &c->tidhits[chrome_tidhit_at(ev)];
		if (h->task == chrome_tidhit_task(ev) &&
		    h->vcpu == chrome_tidhit_vcpu(ev)) {
			*tid = h->tid;
			return 0;
		}
	}
	return chrome_event_tid_slow(c, st, ev, role, h, tid);
}
/* The process of a domain, named after its inputs (once it has a thread). */
int chrome_process(struct sink_chrome *c, enum domain dom);
/* The end of the document: metadata and what was repaired. */
int chrome_footer(struct sink_chrome *c);
/* --counters: their "C" events (chrome-counters.c). 0 or -ENOMEM. */
int chrome_counters(struct sink_chrome *c);

/* ------------------------------------ chrome-types.c: types, instants */

void chrome_type_fini(struct chrome_type *ct);
/* {"name":NAME,"cat":"…","ph":"i","s":"t","ts": into buf; its length. */
size_t chrome_make_head(const struct chrome_type *ct, char *buf,
			const char *name, size_t len);
struct chrome_type *chrome_type_new(struct sink_chrome *c,
				    const struct event *ev, struct diag *d);
/* The sink's record of ev's type, made on first sight; NULL: no memory. */
static inline struct chrome_type *chrome_type(struct sink_chrome *c,
					      const struct event *ev,
					      struct diag *d)
{
	uint32_t ti = ev->type->index;
	uintptr_t h = ti ^ (uintptr_t)ev->src >> 6;
	struct chrome_tcache *e = &c->tcache[h & (CHROME_TCACHE - 1)];
	const struct chrome_src *cs;

	/*
	 * by the type's index, not its address: kvmtrace stamps a type in
	 * each record of a batch, and 7 records in 10 missed
	 */
	if (__builtin_expect(e->ti == ti && e->src == ev->src, 1))
		return e->ct;
	cs = &c->csrcs[ev->src->index];
	if (!(ti < cs->n && cs->types[ti].init))
		return chrome_type_new(c, ev, d);
	e->ti = ti;
	e->src = ev->src;
	e->ct = &cs->types[ti];
	return e->ct;
}
/* An instant of ev on thread key, named after its type or after name. */
int chrome_instant(struct sink_chrome *c, const struct chrome_type *ct,
		   const struct event *ev, uint64_t key,
		   const struct value *name, struct diag *d);
/* chrome_instant() on Chrome thread tid. */
int chrome_instant_tid(struct sink_chrome *c, const struct chrome_type *ct,
		       const struct event *ev, uint32_t tid,
		       const struct value *name, struct diag *d);

/* ------------------------------------ chrome-cpu.c: CPU tracks */

/* The CPU role of a type and the slots it reads (at type init). */
void chrome_cpu_type(struct chrome_type *ct, struct source *src,
		     const struct event_type *t);
/* A sched_switch, irq or softirq event of ct: slices on its CPU. */
int chrome_cpu_event(struct sink_chrome *c, const struct chrome_type *ct,
		     const struct event *ev, struct diag *d);
/* At the end: what runs and what is open ends at the last time stamp. */
int chrome_cpu_close(struct sink_chrome *c);
void chrome_cpu_fini(struct sink_chrome *c);

/* ------------------------------------ chrome-prog.c: a program's tracks */

/*
 * Chrome processes of programs' inputs (QEMU): CHROME_PROG_PID + index,
 * one per (input, pid), or one per input whose pids are threads.
 */
#define CHROME_PROG_PID	100000

/* The track of a program's event. 0 or -ENOMEM. */
int chrome_prog_key(struct sink_chrome *c, const struct event *ev,
		    uint64_t *key);
/* A program's track: its name, order and process, announced if new. */
int chrome_prog_thread(struct sink_chrome *c, uint64_t key, char *name,
		       size_t len, size_t *nlen, int64_t *order,
		       uint32_t *pid);
/* ,"pids":[…] of the processes of input src. */
char *chrome_prog_pids(const struct sink_chrome *c, char *p,
		       const struct source *src);
void chrome_prog_fini(struct sink_chrome *c);

#endif
