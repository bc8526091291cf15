/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The trace.dat reader's own state, shared by its files:
 * source-tracecmd.c (open, the merge of the CPUs), tracecmd-open.c (the
 * guarded open in a child process), tracecmd-fields.c
 * (the keys of templates), tracecmd-text.c (the line `trace-cmd report` prints) and tracecmd-vm.c
 * (host and guest: TIME_SHIFT, GUEST, the kvm plugin's guest symbols).
 */
#ifndef KTF_TRACECMD_H
#define KTF_TRACECMD_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <event-parse.h>
#include <trace-cmd.h>
#include <trace-seq.h>

#include "source.h"
#include "tep/tep-fields.h"
#include "tracedat-file.h"
#include "tracecmd-kwalk.h"

struct outbuf;

/* A vCPU thread of a host (its GUEST options): pid runs vcpu of vm. */
struct tc_thread {
	int32_t pid;
	uint32_t vcpu;
	const char *vm;		/* borrowed from the host's tracedat_file */
	uint64_t traceid;	/* the guest's */
	struct tc *guest;	/* borrowed: that guest when it is an input */
};

/* Host and guest (tracecmd-vm.c). */
struct tc_vm {
	const char *prefix;	/* borrowed from the path: the name trace-cmd
				 * report -i prints; NULL: one trace.dat */
	int width;		/* the longest such name, or instance name */
	/* each event line starts with its buffer's name, or the file's
	 * (several inputs, or instance buffers in some input) */
	bool tagged;
	/* a host: its vCPU threads, sorted by pid */
	struct tc_thread *threads;	/* owned */
	size_t nthreads;
	/* a guest: what its host's GUEST option says of it */
	const char *name;	/* borrowed from the host; NULL: not known */
	const int32_t *pids;	/* borrowed from the host: per vCPU */
	uint32_t nvcpus;
	bool invert;		/* libtracecmd shifted it: find guest_ts back
				 * (tc_vm_event()) */
	char *sym;		/* owned: the last guest_sym made */
	size_t symcap;
};

#define TC_MAGIC_LEN	10
#define TC_HEAD_LEN	64
#define TC_COMM_CACHE	256	/* pid -> comm entries, direct-mapped */
#define TC_LEARNED	256	/* pids seen registered, direct-mapped */
#define TC_PAGEOUT	(4u << 20)	/* pages read, handed back at once */
#define TC_DAMAGED_SAID	20	/* damaged records said one by one */

/* The pseudo-fields' slots (tep-fields.h has the format's fields). */
enum tc_kind {
	TK_COMM = TEPF_OWN,	/* the task's comm, from common_pid */
	TK_CPU,		/* the record's CPU */
	TK_NAME,	/* the event's name */
	TK_ID,		/* the event id */
	TK_INFO,	/* libtraceevent's text of the event */
	TK_VM,		/* the VM's name (guest events, vCPU threads) */
	TK_HOST_TID,	/* a guest event's vCPU thread on the host */
	TK_VCPU,	/* the vCPU a host thread runs */
	TK_GUEST_SYM,	/* f: a host event's guest RIP, named from the guest */
};

struct tdguard;

struct tc_id {
	uint64_t id;
	uint32_t index;		/* into tc->types */
};

/* Whether printing an event of a type may look a function up (tc_info()) */
enum tc_syms {
	TC_SYMS_UNKNOWN = 0,	/* not yet asked */
	TC_SYMS_NO,
	TC_SYMS_YES,
};

/* What libtraceevent's sched_switch plugin learns of an event's comms */
enum tc_learn {
	TC_LEARN_NONE = 0,
	TC_LEARN_SWITCH,	/* sched_switch: prev_comm, next_comm */
	TC_LEARN_WAKEUP,	/* sched_wakeup, sched_wakeup_new: comm */
};

/*
 * Is a type's text made by hand (tracecmd-kvmtext.c) or from its print
 * fmt compiled (tracecmd-pfmt.c)?
 */
enum tc_kt {
	TC_KT_UNKNOWN = 0,	/* not yet asked */
	TC_KT_NONE,
	TC_KT_EMULATE_INSN,	/* kvm_emulate_insn of the kvm plugin */
	TC_KT_PFMT,		/* its print fmt, compiled: pf */
};

struct tc_pfmt;

struct tc_type {
	struct event_type t;
	struct tep_event *ev;	/* borrowed from tep */
	enum tc_syms syms;
	enum tc_kt kt;
	const struct tep_format_field *kt_f[6];	/* its fields, borrowed */
	struct tc_pfmt *pf;	/* owned: TC_KT_PFMT */
	uint64_t fits;		/* tdguard_fits() of ev; 0: not yet asked */
	enum tc_learn learn;
	/* its comm and pid fields, in pairs (tc_learn_fields()); NULL: none */
	const struct tep_format_field *learn_f[4];
};

/*
 * A buffer of the file: the top one, or an instance (`trace-cmd record -B
 * NAME`), whose CPUs take the slots start .. start + ncpus - 1 of the
 * merge (the order of trace-cmd report's tracecmd_iterate_events_multi():
 * time, then slot)
 */
struct tc_buf {
	struct tracecmd_input *handle;	/* owned; bufs[0]'s is tc->handle */
	const char *name;		/* borrowed from libtracecmd; NULL: top */
	int start, ncpus;
};

/* A slot of the merge: a CPU of a buffer */
struct tc_slot {
	struct tracecmd_input *handle;	/* borrowed from its tc_buf */
	int cpu, buf;
};

/* The pages one CPU's records have left behind (see tc_release()) */
struct tc_behind {
	uintptr_t page;		/* of the latest record */
	uintptr_t lo, hi;	/* pages done, not yet handed back */
};

/*
 * The functions of a kallsyms text, sorted as libtraceevent sorts its
 * own table (tracecmd-kallsyms.c).
 */
struct tc_funcs {
	struct tc_func *map;	/* owned: n functions, then an entry at 0 */
	size_t n;
	char *text;		/* owned: the text, cut up, the names in it */
};

/* A pid's comm as tep_data_comm_from_pid() gave it */
struct tc_comm {
	int64_t pid;
	const char *comm;	/* borrowed from tep; NULL: empty entry */
	size_t len;
	uint64_t miss;		/* 0: a name; else "<...>", good while
				 * tc->comm_gen is this (tc_comm()) */
};

/*
 * What ev->rec of the trace.dat reader points to: a copy of the current
 * record (libtracecmd's is tc->cur), then values the renderer reads
 * straight from it (tc_field_at()).
 */
struct tc_view {
	struct tep_record r;	/* first: ev->rec is a struct tep_record * */
	const char *comm;	/* with tc->want_comm: tc_comm() of pid */
	size_t comm_len;
	int64_t pid;		/* ev->pid */
};

/* One slot's reading (tc->pages) */
struct tc_page {
	struct kbuffer *kb;		/* owned; NULL: libtracecmd's alone */
	struct tep_record *anchor;	/* libtracecmd's first record of the
					 * page (a reference of ours): keeps
					 * the page; NULL: none */
	uint64_t page;			/* the page's file offset */
	uint64_t end;			/* the end of its CPU's data */
	struct tep_record rec;		/* the record handed out */
	/*
	 * With tc->pages_walk: the kbuffer's state, walked here
	 * (tc_kwalk_next()), the page's data past kstart, and its lost
	 * events
	 */
	struct tc_kwalk k;
	uint32_t kstart;
	long long klost;
};

struct tc {
	const char *name;		/* borrowed: the source's */
	struct tracecmd_input *handle;	/* owned */
	struct tep_handle *tep;		/* borrowed from handle */
	struct tracedat_file file;	/* what we read from the file ourselves */
	char *copy;			/* "/proc/self/fd/N" of an uncompressed
					 * copy (unlinked), until opened */
	int copy_fd;			/* its descriptor, or -1 */
	struct tracedat_kallsyms kallsyms;	/* owned: where the table the
						 * copy lacks is, until
						 * something needs a symbol */
	struct tc_funcs funcs;		/* owned: kallsyms, tep's resolver */
	bool proc_kallsyms;		/* live: /proc/kallsyms not read yet
					 * (tc_need_kallsyms() reads it) */
	char kt_text[128];		/* tc_kvmtext()'s text */
	char kt_last[48];		/* the bytes' text it made last */
	uint8_t kt_lastlen;		/* its length; 0: none yet */
	bool kt_plugin;			/* the kvm plugin printed one since */
	bool late;			/* the table was damaged: late_d */
	struct diag late_d;
	const char *clock;		/* file.clock; may be NULL */
	bool usecs;			/* trace-cmd report prints sec.usec */
	bool swap;			/* the file's byte order is not ours */
	/* event types: one per event format, then one for unknown ids */
	struct tc_type *types;		/* owned */
	uint32_t ntypes;
	int32_t *by_id;			/* owned: event id -> type index or -1 */
	uint32_t nids;			/* ids below TC_DENSE_IDS at most */
	struct tc_id *sparse;		/* owned: higher ids, sorted */
	uint32_t nsparse;
	struct event_type unknown;
	struct tep_format_field *any;	/* borrowed: common fields of every event */
	int type_off, type_size;	/* common_type */
	int pid_off, pid_size;		/* common_pid */
	/* bound keys; slots.rec_max: the largest record payload */
	struct tepf_slots slots;
	/* the merge of the CPUs of every buffer: slots */
	int ncpus;			/* the top buffer's CPUs ("cpus=N") */
	struct tc_buf *bufs;		/* owned: [0] the top buffer */
	int nbufs;
	/* instances libtracecmd cannot open (trace-cmd report skips them) */
	int nbadbufs;
	const char *badbuf;		/* borrowed: the first one's name */
	int nslots;
	struct tc_slot *slot;		/* owned: per slot its CPU */
	struct tep_record **next;	/* owned: per slot its next record */
	int *heap;			/* owned: slots with a next record */
	int nheap;
	int refill;			/* slot to read again (cur's), or -1 */
	bool started;
	struct tep_record *cur;		/* owned: the current event's record */
	/* cur's type if its comms are learned (tc_learn_comms()), or NULL */
	const struct tc_type *cur_learn;
	bool cur_info;			/* libtraceevent printed cur (its
					 * plugins learned its comms) */
	bool cur_short;			/* cur is shorter than its format:
					 * tdguard_info() pads a copy */
	struct tc_view view;		/* ev->rec of cur (tracecmd-read.c) */
	bool want_comm;			/* a template reads view.comm */
	uint64_t seq;
	uint64_t ndamaged;		/* damaged records so far */
	uint64_t npages;		/* pages left out so far */
	uint64_t *last_off;		/* owned: per slot the offset + 1 of
					 * its latest record; 0: none yet */
	struct trace_seq info;		/* owned: reset for each use */
	struct tc_comm comms[TC_COMM_CACHE];
	/*
	 * 0: no "<...>" is cached (the live reader registers comms we do
	 * not see); else bumped by tc_comm_changed() at each registration
	 * that may have named a pid
	 */
	uint64_t comm_gen;
	uint64_t learned[TC_LEARNED];	/* pid + 1; 0: empty (tc_learn_comms()) */
	struct tc_behind *behind;	/* owned: per slot; NULL: keep pages */
	struct tc_page *pages;		/* owned: per slot (tracecmd-pages.c);
					 * NULL: libtracecmd reads each record */
	struct tep_event *pages_fgraph;	/* with pages: ftrace's
					 * funcgraph_entry (tc_pages_stop()) */
	bool pages_walk;		/* with pages: kbuffer's walk done here
					 * (little-endian host and file, the
					 * current ring-buffer format) */
	uintptr_t sys_page;		/* the system's page size */
	uint64_t map_dev, map_ino;	/* the file libtracecmd maps (see
					 * tc_pageout()) */
	/* with map_ino: tdshrink_hits(), read per record */
	const volatile sig_atomic_t *shrink_hits;
	struct tdguard *guard;		/* owned: see tracedat-guard.h */
	bool guard_hit;			/* tdguard_info() failed: is it
					 * tdguard_failed()? */
	/* host and guest (tracecmd-vm.c) */
	struct tc_vm vm;
	struct tc_raw *raw;		/* owned: see tc_raw_ts() */
};

/* The buffer of the current record (0: the top one) */
static inline int tc_cur_buf(const struct tc *tc)
{
	return tc->refill >= 0 ? tc->slot[tc->refill].buf : 0;
}

/*
 * Is rec the current event's record: libtracecmd's (the live reader's
 * own), or the copy the trace.dat reader hands out?
 */
static inline bool tc_is_cur(const struct tc *tc, const struct tep_record *rec)
{
	return tc->cur && (rec == tc->cur || rec == &tc->view.r);
}

static inline uint64_t tc_read(const struct tc *tc, const void *p, int size)
{
	return tepf_read(tc->swap, p, size);
}

static inline int64_t tc_sext(uint64_t v, int size)
{
	return tepf_sext(v, size);
}

/*
 * tracecmd-rawts.c: a guest record's own time stamp read from its page
 * (before libtracecmd's TIME_SHIFT). 0, -ENOENT when the record is not
 * where its page should hold it, or -ENOMEM.
 */
struct tc_raw;
int tc_raw_ts(struct tc *tc, const struct tep_record *rec, uint64_t *ts);
void tc_raw_destroy(struct tc_raw *r);

/* Bind the host/guest keys vm, host_tid, vcpu; -ENOENT for others. */
int tc_vm_bind(struct tc *tc, const char *key);
/* Fetch a TK_VM, TK_HOST_TID, TK_VCPU or TK_GUEST_SYM (its RIP field f)
 * of ev. Returns 0 or -ENOENT. */
int tc_vm_field(struct tc *tc, enum tc_kind kind,
		const struct tep_format_field *f, const struct event *ev,
		struct value *out);
/* Set ev's vCPU and guest_ts from what the pairing learned. */
void tc_vm_event(struct tc *tc, struct event *ev);
/* Forget tc: the kvm plugin's map must not outlive it. */
void tc_vm_close(struct tc *tc);
/* Does the kvm plugin name guest functions (a paired guest)? */
bool tc_vm_names_rips(void);

/* Is t's text made by hand (tracecmd-kvmtext.c)? Sets t->kt. */
void tc_kvmtext_bind(struct tc_type *t);
/*
 * The text the kvm plugin prints of rec, an event of type t (t->kt set),
 * in tc->kt_text with *len; NULL: libtraceevent's to print.
 */
const char *tc_kvmtext(struct tc *tc, const struct tc_type *t,
		       const struct tep_record *rec, size_t *len);

/*
 * tracecmd-pfmt.c: e's print fmt compiled, when libtraceevent prints it
 * without a plugin and with nothing tc_pfmt_text() does not make as it
 * does; NULL otherwise (or out of memory). tc gives the byte order.
 */
struct tc_pfmt *tc_pfmt_create(const struct tc *tc, struct tep_event *e);
void tc_pfmt_free(struct tc_pfmt *pf);
/*
 * libtraceevent's text of rec (its newline, if the format ends in one,
 * kept) with *len, in pf's buffer; NULL: tep_print_event()'s to make.
 */
const char *tc_pfmt_text(const struct tc_pfmt *pf,
			 const struct tep_record *rec, size_t *len);
/* Free what the types of tc own (their compiled formats). */
void tc_types_free(struct tc *tc);

/*
 * Parse the kallsyms a copy left out (tracedat_inflate_lean()), if not yet:
 * before anything looks a symbol up in tc->tep.
 */
void tc_need_kallsyms(struct tc *tc);
/*
 * The text of the file at path (malloc'd, NUL-ended; its length in *len if
 * len), or NULL: unreadable, or grown past max bytes (tracecmd-kallsyms.c).
 */
char *tc_slurp(const char *path, size_t max, size_t *len);
/* The text of /proc/kallsyms (at most 1 GiB), or NULL. */
char *tc_proc_kallsyms(void);
/*
 * tep_parse_kallsyms(): the functions of kallsyms (malloc'd; fs takes
 * it, and cuts it up in place) into fs, which becomes tep's function
 * resolver; lookups find what libtraceevent's own table would. 0, or -1
 * where it stopped at a line it could not read (the functions before it
 * in the table). fs must outlive tep's lookups; tc_funcs_free() after.
 */
int tc_parse_kallsyms(struct tep_handle *tep, struct tc_funcs *fs,
		      char *kallsyms);
void tc_funcs_free(struct tc_funcs *fs);
/* The i-th function of the sorted table (NULL past the last), for tests. */
const char *tc_funcs_at(const struct tc_funcs *fs, size_t i,
			unsigned long long *addr, const char **mod);
/*
 * Did tc_need_kallsyms() find the table damaged? Then true, with diag
 * filled: the reader stops with this message at its next event.
 */
bool tc_late_failed(const struct tc *tc, struct diag *d);
/*
 * The comm of pid (a small cache before tep_data_comm_from_pid()): the
 * cached hit inline, tc_comm_lookup() for the rest.
 */
const char *tc_comm_lookup(struct tc *tc, int64_t pid, size_t *len);
static inline const char *tc_comm(struct tc *tc, int64_t pid, size_t *len)
{
	const struct tc_comm *c = &tc->comms[(uint64_t)pid % TC_COMM_CACHE];

	if (__builtin_expect(c->comm && c->pid == pid &&
				     (!c->miss || c->miss == tc->comm_gen),
			     1)) {
		*len = c->len;
		return c->comm;
	}
	return tc_comm_lookup(tc, pid, len);
}
/* A comm may have been registered: the cached "<...>" go (tc_comm()). */
static inline void tc_comm_changed(struct tc *tc)
{
	if (tc->comm_gen)
		tc->comm_gen++;
}
/*
 * The comms a sched_switch or sched_wakeup event names, registered as
 * libtraceevent's sched_switch plugin does when it prints one, for an
 * event nothing printed (tc_next(), before it reads past ev's record).
 */
/* Find the fields tc_learn_comms() reads for t->learn. */
void tc_learn_fields(struct tc_type *t);
/*
 * A comm and pid pair of rec (cf, pf: its fields, NULL when the format has
 * none): true, with the pid in *pid, when both lie where they can be read
 * (the comm at least starts inside rec); then tc_learn_text() copies the
 * comm, at most its field's size and TC_LEARN_TEXT - 1 bytes, NUL-ended.
 */
#define TC_LEARN_TEXT 64
bool tc_learn_pid(struct tc *tc, const struct tep_format_field *cf,
		  const struct tep_format_field *pf,
		  const struct tep_record *rec, int64_t *pid);
void tc_learn_text(const struct tep_format_field *cf,
		   const struct tep_record *rec, char comm[TC_LEARN_TEXT]);
void tc_learn_comms(struct tc *tc, const struct tc_type *t,
		    struct tep_record *rec);

/*
 * source-tracecmd.c, also for the live reader (sources/live/), whose tep
 * comes from tracefs: the event types of tc->tep (0 or -ENOMEM), and the
 * byte order, largest record and common fields.
 */
int tc_load_types(struct tc *tc);
void tc_layout(struct tc *tc);

/*
 * tracecmd-pages.c: the records of a page after its first read with
 * libtraceevent's kbuffer, not libtracecmd's calls. tc_pages_init() at
 * open (fsize: the size of the file libtracecmd reads; 0: not known)
 * sets tc->pages when that gives what libtracecmd gives; then each record
 * libtracecmd hands out goes to tc_pages_anchor(), which keeps it and
 * returns the slot's own copy (tc_pages_own(): not to be freed, good
 * until the slot's next read), or returns it as it is (to be freed);
 * tc_pages_next() gives the slot's next record the same way, NULL with
 * *more: ask libtracecmd; NULL without: the CPU's data ends (libtracecmd
 * reads no further page).
 */
void tc_pages_init(struct tc *tc, uint64_t fsize);
void tc_pages_free(struct tc *tc);
struct tep_record *tc_pages_anchor(struct tc *tc, int slot,
				   struct tep_record *rec);
struct tep_record *tc_pages_next(struct tc *tc, int slot, bool *more);
static inline bool tc_pages_own(const struct tc *tc,
				const struct tep_record *rec, int slot)
{
	return tc->pages && slot >= 0 && rec == &tc->pages[slot].rec;
}
/*
 * libtracecmd's iterators where its own reading of every record would
 * have left them (the current record and each slot's next are its own
 * again), and tc->pages gone: before libtraceevent prints an event whose
 * plugin reads on through them (tc->pages_fgraph).
 */
void tc_pages_stop(struct tc *tc);

/* tracecmd-read.c: the next record of all CPUs, in time order */
int tc_next(struct source *src, struct event *ev, struct diag *d);
/* Fields (tracecmd-fields.c): the source_ops of the same names. */
int tc_bind(struct source *src, const struct event_type *t, const char *key);
int tc_field(struct source *src, const struct event *ev, int index,
	     struct value *out);
/* source_ops.field_at of trace.dat: comm, from tc->view */
int tc_field_at(struct source *src, int index, size_t *offset,
		size_t *len_offset);
/* tracecmd-symbolic.c: source_ops.field_symbol */
int tc_field_symbol(struct source *src, const struct event_type *t,
		    const struct event *ev, int index, struct value *out);
int tc_each_type(struct source *src,
		 int (*fn)(const struct event_type *t, void *arg), void *arg);
size_t tc_fields(struct source *src, const struct event_type *t,
		 const char **names, size_t max);

/* libtraceevent's text of rec, without the newline some formats end in. */
const char *tc_info(struct tc *tc, const struct event *ev, size_t *len);
/* The line `trace-cmd report` prints for ev (tracecmd-text.c). */
int tc_render_default(struct source *src, const struct event *ev,
		      struct outbuf *out);
/* What `trace-cmd report` prints before the events: "cpus=N". */
int tc_render_header(struct source *src, struct outbuf *out);

/* ------------------------------------------------------ tracecmd-open.c */

/* What opening a trace.dat with libtracecmd came to. */
enum tc_open_verdict {
	TC_OPEN_OK = 0,
	TC_OPEN_NO_HEADERS,	/* tracecmd_open_head() failed */
	TC_OPEN_NO_DATA,	/* tracecmd_init_data() failed */
	TC_OPEN_LATENCY,	/* a latency trace: no event records */
	TC_OPEN_CRASH,		/* libtracecmd crashed (in the child) */
};

/*
 * Open path with libtracecmd, headers and CPU data, in a child process
 * that goes on as the program when it went well (see tracecmd-open.c):
 * TC_OPEN_OK with *out (and *note, what libtracecmd wrote to standard
 * error, malloc'd, or NULL) in the process that goes on; any other
 * verdict in this one, nothing opened.
 */
int tc_guarded_open(const char *path, struct tracecmd_input **out,
		    char **note);
/*
 * The same, with the handles of the file's instance buffers opened in
 * the guarded child too: *inst (malloc'd, *ninst of them; an instance
 * libtracecmd cannot open is NULL, as trace-cmd report skips it) and
 * *names (malloc'd, borrowed strings of libtracecmd).
 */
int tc_guarded_open_all(const char *path, struct tracecmd_input **out,
			struct tracecmd_input ***inst, const char ***names,
			int *ninst, char **note);

#endif
