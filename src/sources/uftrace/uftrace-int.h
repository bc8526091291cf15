/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The uftrace reader's own declarations, shared by its files:
 *
 *   source-uftrace.c  the source ops: open, close, fields
 *   uftrace-next.c    the next event: the heap's top record made an event
 *   uftrace-fast.c    next_batch()'s run of plain records of the top task
 *   uftrace-files.c   finding and reading the directory's files
 *   uftrace-data.c    the data directory and its metadata (info, task.txt,
 *                     events.txt), the tasks
 *   uftrace-index.c   look-up tables: sessions by pid, names by hash
 *   uftrace-sym.c     sessions, memory maps, symbol tables, names
 *   uftrace-args.c    argument and return value specs
 *   uftrace-argval.c  the argument and return values of a record
 *   uftrace-enum.c    enum definitions and the names of enum values
 *   uftrace-evdata.c  the data of event records
 *   uftrace-rec.c     the records of TID.dat, the heap, the call stacks
 *                     (uftrace-walk.h: their inline steps)
 *   uftrace-text.c    a record as `uftrace dump` prints it
 *   uftrace-dump.c    a lone input in `uftrace dump`'s order and words
 *   uftrace-depth.c   … and without the records dump does not show
 *   uftrace-names.c   C++ names as uftrace's demangler spells them
 *   uftrace-opts.c    default.opts (the time filter)
 *   uftrace-perf.c    perf-cpuN.dat: the perf events of uftrace record
 *   uftrace-kernel.c  kernel-cpuN.dat of uftrace record -k (libtraceevent)
 *
 * The layout of the data directory is described in source-uftrace.c.
 */
#ifndef KTF_UFTRACE_INT_H
#define KTF_UFTRACE_INT_H

#include <errno.h>
#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "byteorder.h"
#include "source.h"

struct diag;
struct kbuffer;
struct uft_kernel;

#define UFT_MAGIC		"Ftrace!"
#define UFT_HDR_MIN		32	/* v3 headers end after the info mask */
#define UFT_REC_SIZE		16
#define UFT_REC_MAGIC		5
#define UFT_BUF_SIZE		(64u << 10)
#define UFT_SYMCACHE		256
#define UFT_BATCH		64	/* events of a next_batch() at most; bfast_mask */
#define UFT_ADDR_MASK		((UINT64_C(1) << 48) - 1)
#define UFT_NO_ADDR		UINT64_MAX	/* a frame we never saw enter */
#define UFT_RETVAL_IDX		0	/* argspec.h RETVAL_IDX: "arg0" is one too */

#define UFT_FEAT_SYM_REL_ADDR	(UINT64_C(1) << 5)

/* libmcount's built-in event ids (uftrace.h: enum uftrace_event_id) */
#define UFT_EVENT_BUILTIN	100000u
#define UFT_EVENT_PERF		200000u
#define UFT_EVENT_USER		1000000u
#define UFT_EVENT_EXTERN	2000000u

/* perf events, by id - UFT_EVENT_PERF (uftrace.h: EVENT_ID_PERF_*) */
#define UFT_PERF_SCHED_IN	1
#define UFT_PERF_SCHED_OUT	2
#define UFT_PERF_TASK		4
#define UFT_PERF_EXIT		5
#define UFT_PERF_COMM		6
#define UFT_PERF_SCHED_OUT_PREEMPT	7
#define UFT_NPERF		8	/* event types: UFT_NTYPES + id */
#define UFT_TEXT		(UFT_NTYPES + UFT_NPERF)	/* dump's own lines */

#define UFT_ALIGN(x, a)		(((x) + (a) - 1) & ~(uint64_t)((a) - 1))

enum uft_rtype {
	UFT_ENTRY = 0,
	UFT_EXIT,
	UFT_LOST,
	UFT_EVENT,
	UFT_NTYPES,
};

enum uft_writer {
	UFT_WRITER_UFTRACE = 0,	/* record depth fields can be trusted */
	UFT_WRITER_QEMU,	/* per-vCPU tasks, tid (vcpu + 1) * 100 + level */
	UFT_WRITER_RFTRACE,	/* raw TSC, depth 0 everywhere */
};

enum uft_patt {
	UFT_PATT_SIMPLE = 0,
	UFT_PATT_REGEX,
	UFT_PATT_GLOB,
};

/* The formats of argument values (uftrace's enum uftrace_arg_format). */
enum uft_afmt {
	UFT_AF_AUTO = 0,	/* d */
	UFT_AF_SINT,		/* i */
	UFT_AF_UINT,		/* u */
	UFT_AF_HEX,		/* x */
	UFT_AF_STR,		/* s */
	UFT_AF_CHAR,		/* c */
	UFT_AF_FLOAT,		/* f */
	UFT_AF_STDSTR,		/* S */
	UFT_AF_PTR,		/* p */
	UFT_AF_ENUM,		/* e */
	UFT_AF_STRUCT,		/* t */
};

#define UFT_AF_CHARS		"diuxscfSpet"
#define UFT_MAX_STRUCT		4096	/* larger struct specs are not ours */
#define UFT_MAX_VALUES		64	/* values of one record we look at */

/* One value of an argument spec ("arg2/s", "fparg1/32", "retval/i32"). */
struct uft_arg {
	int idx;		/* argN, fpargN: N (as an int); retval: UFT_RETVAL_IDX */
	bool fp;		/* fpargN or /f (a different register file) */
	bool exact;		/* from an exact name, not a pattern */
	uint8_t fmt;		/* enum uft_afmt */
	uint32_t size;		/* bytes before padding to 4 */
	const char *tname;	/* borrowed from uf->tnames: t:NAME, e:NAME */
};

struct uft_argv {
	struct uft_arg *v;	/* owned */
	size_t n;
};

/* One "PATTERN@spec,spec" entry of the argspec or retspec line. */
struct uft_pspec {
	char *pattern;		/* owned */
	enum uft_patt patt;
	regex_t re;		/* UFT_PATT_REGEX */
	struct uft_argv args;	/* owned */
	bool auto_arg;		/* no explicit spec: the auto-args one */
	bool auto_ret;
};

/* A function of argauto/retauto or of a .dbg file: NAME and its specs. */
struct uft_auto {
	uint64_t addr;		/* .dbg: the function's address, as in NAME.sym */
	char *name;		/* owned; argauto/retauto: the simple form */
	char *args;		/* owned: "arg1/s,arg2" or NULL */
	char *rets;		/* owned: "retval/d32" or NULL */
};

/* A hash of values by a name they hold (open addressing). */
struct uft_hent {
	uint64_t h;
	void *val;		/* borrowed; NULL: a free slot */
};

struct uft_hash {
	struct uft_hent *v;	/* owned */
	size_t cap;		/* a power of two, or 0 */
	size_t n;
	uint64_t seed;
};

/* One name of an enum definition. */
struct uft_enumval {
	long val;
	char *name;		/* owned */
	size_t order;		/* in the definition */
};

/* "enum NAME { ... }": its names by value, highest first. */
struct uft_enum {
	char *name;		/* owned */
	struct uft_enumval *v;	/* owned */
	size_t n;
};

struct uft_enums {
	struct uft_enum **v;	/* owned, each owned */
	size_t n;
	struct uft_hash hash;	/* by name */
};

#define UFT_OWN_NAME		1u	/* uft_sym.name is malloc'd */
#define UFT_OWN_SNAME		2u	/* uft_sym.sname is malloc'd */

struct uft_sym {
	uint64_t addr;
	uint64_t size;
	const char *name;		/* as printed (--demangle): the pool's, or owned */
	const char *sname;		/* simple form, for argument specs */
	const char *raw;		/* borrowed from the symtab's pool */
	uint32_t namelen;
	char type;
	uint8_t own;			/* UFT_OWN_* */
	uint8_t fixup;			/* enum uft_fixup: dump's stack count */
	const struct uft_argv *args;	/* borrowed; NULL: not resolved yet */
};

/* The symbols of one module: NAME.sym (and NAME.dbg for auto-args). */
struct uft_symtab {
	char *name;		/* owned: file name of the module */
	struct uft_sym *v;	/* owned, sorted by address */
	size_t n;
	char *pool;		/* owned: the .sym file, names point into it */
	bool loaded;
	bool bare;		/* the file is NAME, not NAME.sym (kallsyms) */
	struct uft_auto *dbg;	/* owned: A:/R: lines of NAME.dbg */
	size_t ndbg;
	struct uft_enums enums;	/* owned: E: lines of NAME.dbg */
	bool dbg_loaded;
};

struct uft_map {
	uint64_t start;
	uint64_t end;
	struct uft_symtab *mod;	/* borrowed from uf->mods */
};

/* sid-SID.map */
struct uft_sidmap {
	char *sid;		/* owned */
	struct uft_map *v;	/* owned, sorted by start */
	size_t n;
	bool loaded;
	size_t last_sess;	/* 1 + index of its latest session; 0: none */
};

struct uft_dlopen {
	uint64_t time;
	uint64_t base;
	struct uft_symtab *mod;	/* borrowed */
};

struct uft_session {
	int64_t pid;
	uint64_t start;
	struct uft_sidmap *map;	/* borrowed from uf->sidmaps */
	char *exename;		/* owned */
	const char *comm;	/* borrowed: the base name of exename */
	struct uft_dlopen *dl;	/* owned, in task.txt order */
	size_t ndl;
};

struct uft_frame {
	uint64_t addr;		/* UFT_NO_ADDR: entered before the data */
	uint64_t ts;
};

struct uft_rec {
	uint64_t ts;		/* LOST: the time of the record before */
	uint64_t raw_ts;	/* LOST: as written (libmcount: 0) */
	uint64_t addr;
	uint32_t depth;		/* as written */
	uint8_t type;
	bool more;
	bool inverted;		/* raw_ts before the task's record before */
};

/* The current record of a perf-cpuN.dat (uftrace-perf.c). */
struct uft_perfrec {
	int64_t tid;		/* whose event */
	int64_t pid;		/* task-new, task-exit, task-name */
	int64_t ppid;		/* task-new, task-exit */
	bool exec;		/* task-name: by exec() */
	char comm[17];		/* task-name */
	/* kernel function records (uftrace-kernel.c) */
	uint64_t kdur;		/* exit: rettime - calltime */
	uint64_t kext;		/* the page's leading time extend (dump prints it) */
	int32_t klost;		/* missed events the page header counts */
	bool has_kext;
};

struct uft_task {
	int64_t tid;
	int64_t pid;
	int64_t ppid;
	uint32_t order;			/* position in tid order */
	char *path;			/* owned: DIR/TID.dat */
	int fd;				/* -1: closed */
	unsigned char *buf;		/* owned */
	size_t cap;
	size_t pos;			/* next unread byte */
	size_t len;			/* bytes held */
	uint64_t foff;			/* file offset of buf[len] */
	uint64_t fsize;			/* as the file was opened */
	bool eof;
	bool done;			/* no more records */
	bool resync;			/* at the start, or after LOST */
	bool astray;			/* no record after the last one's values */
	uint64_t last_ts;		/* of the record before rec */
	uint64_t last_raw;		/* … as written */
	struct uft_rec rec;		/* the next record (when !done) */
	unsigned char *pay;		/* owned: rec's payload, if any */
	size_t paycap;
	uint32_t paylen;		/* padded to 8 */
	uint32_t arglen;		/* the values' bytes (uftrace's length) */
	const struct uft_argv *pay_av;	/* borrowed: its specs */
	struct uft_frame *stack;	/* owned */
	size_t depth;
	size_t stack_cap;		/* depth > stack_cap: frames not kept */
	bool too_deep;			/* said so */
	const struct uft_session *sess;	/* borrowed: cache for sess_until */
	const struct uft_session *stack_sess;	/* borrowed: of the stack */
	uint64_t sess_from;
	uint64_t sess_until;
	uint32_t cpu;
	bool has_vcpu;
	bool nofile;			/* no TID.dat */
	bool perf;			/* a perf-cpuN.dat (cpu), not a task */
	bool kern;			/* a kernel-cpuN.dat (its kernel records) */
	struct kbuffer *kbuf;		/* kern: owned */
	unsigned char *kpage;		/* kern: owned, the page kbuf reads */
	uint64_t koff;			/* kern: file offset of the next page */
	const void *kfirst;		/* kern: first event of the first page */
	bool kstarted;			/* kern: a record was given */
	struct uft_perfrec prec;	/* perf: the next record's data */
	char tid_text[24];		/* the tid as the dump prints it: "%5d" */
	uint8_t tid_len;
	/*
	 * Its events from has_ts up to type, as uft_fast_run() copies
	 * them: the same for all, then the rest by type (entry, exit)
	 */
	bool fast_ev_made;
	unsigned char fast_ev[UFT_EXIT + 2][16];
};

struct uft_symcache {
	const struct uft_sidmap *map;	/* borrowed; NULL: empty slot */
	uint64_t addr;
	struct uft_sym *sym;		/* borrowed; NULL: no symbol */
	struct uft_symtab *mod;		/* borrowed; the module of addr */
};

struct uft_evname {
	uint32_t id;
	char *name;		/* owned: "provider:event" */
};

/*
 * The fields of an event (ev->rec points here): uf->cur, next()'s, or one
 * of uf->bcur, next_batch()'s. Those a template reads first, together.
 */
struct uft_cur {
	struct uft_rec rec;
	uint64_t depth;
	uint64_t duration;
	const char *symbol;		/* borrowed, or buf */
	size_t symlen;
	int64_t tid;			/* task->tid, for the renderer */
	const char *type;		/* static: "entry", "exit" … */
	size_t typelen;
	struct uft_task *task;		/* borrowed: the task (of a perf event too) */
	bool is_text;			/* dump's own lines: uf->lone_text */
	bool hidden;			/* lone: dump prints its banner only */
	bool perf;			/* a perf event: prec */
	bool kern;			/* a kernel function record: prec */
	bool resolved;
	const char *comm;		/* borrowed */
	uint32_t paylen;
	uint32_t arglen;
	const struct uft_argv *av;	/* borrowed: specs of pay, or NULL */
	unsigned char *pay;		/* owned: swapped with the task's */
	size_t paycap;
	struct uft_perfrec prec;
	uint64_t kraw;			/* kern: the address as recorded (48 bits) */
	char ktid_text[24];		/* kern: the tid as the dump prints it */
	uint8_t ktid_len;
	char *text;			/* owned: args, dump lines */
	size_t textlen;
	size_t textcap;
	char buf[64];
};

/*
 * What `uftrace dump` knows of the task it reads to decide which records
 * it shows (uftrace-depth.c): its stack count, filter depth, and what
 * each frame kept (uftrace's struct uftrace_fstack: orig_depth, the
 * NORECORD flag), those of the frames [lz_lo, lz_hi) being k - frame.
 */
struct uft_dd {
	int64_t sc;		/* task->stack_count */
	int64_t filt;		/* task->filter.depth */
	int64_t k;
	int64_t lz_lo;
	int64_t lz_hi;
	int64_t off;		/* a fast run's count less our depth */
	int64_t init;		/* frames [0, init) in the arrays */
	int32_t *orig;		/* owned: max_stack + 1 */
	uint8_t *norec;		/* owned: max_stack + 1 */
	uint32_t max_stack;	/* the header's */
	int64_t setjmp_count;	/* of any task before (a global) */
	bool set;		/* task->fstack_set */
	bool lost_seen;
};

/* The functions after whose entry dump sets its stack count anew. */
enum uft_fixup {
	UFT_FIX_NONE = 0,
	UFT_FIX_EXEC,		/* exec*(): 0 */
	UFT_FIX_SETJMP,		/* setjmp() and the like: kept */
	UFT_FIX_LONGJMP,	/* longjmp() and the like: the one kept */
};

/* The info file's header, as `uftrace dump` prints it. */
struct uft_hdr {
	unsigned char magic[8];
	uint32_t version;
	uint16_t size;
	uint8_t endian;
	uint8_t elf_class;
	uint64_t feat;
	uint64_t info;
};

struct uftrace {
	char *dir;			/* owned: the path without trailing '/' */
	uint64_t sec_key;		/* the seconds of the last default line */
	char sec_text[24];		/* … in decimal, then '.' */
	size_t sec_len;
	bool swap;			/* big-endian data */
	bool lp64;
	bool rel_addr;			/* SYM_REL_ADDR */
	enum uft_writer writer;
	enum uft_patt patt;		/* pattern_type of the recording */
	bool auto_args;			/* "auto-args:1" */
	uint64_t time_filter;		/* -t of default.opts, ns; 0: none */
	enum source_demangle demangle;	/* how names are printed */
	char *cmdline;			/* owned */
	struct uft_pspec *specs;	/* owned: argspec, then retspec */
	size_t nspecs;
	struct uft_auto *autos;		/* owned: argauto and retauto */
	size_t nautos;
	struct uft_enums enums;		/* owned: enumauto */
	struct uft_symtab **mods;	/* owned */
	size_t nmods;
	struct uft_hash mod_hash;	/* mods by name */
	struct uft_sidmap **sidmaps;	/* owned */
	size_t nsidmaps;
	struct uft_hash sid_hash;	/* sidmaps by sid */
	struct uft_session *sess;	/* owned */
	size_t nsess;
	uint32_t *by_pid;		/* owned: sess indices by pid, start */
	struct uft_evname *evnames;	/* owned: events.txt */
	size_t nevnames;
	struct uft_task *tasks;		/* owned, in tid order, then perf */
	size_t ntasks;			/* the tasks; the perf files follow */
	size_t nperf;
	char **perf_names;		/* owned, each owned: perf-cpu*.dat */
	size_t nperf_names;
	struct uft_kernel *kernel;	/* owned: record -k data, or NULL */
	size_t nkern;			/* kernel-cpu*.dat after the perf files */
	uint32_t *heap;			/* owned: task indices */
	struct uft_task *top;		/* &tasks[heap[0]] while nheap */
	size_t nheap;
	struct uft_argv **argvs;	/* owned: resolved argument lists */
	size_t nargvs;
	struct uft_argv no_args;	/* resolved: nothing */
	char **tnames;			/* owned: type names of specs */
	size_t ntnames;
	struct uft_symcache cache[UFT_SYMCACHE];
	struct event_type types[UFT_TEXT + 1];
	/* a lone input (source.lone): the files one after the other */
	bool lone;
	struct uft_hdr hdr;
	int64_t *tid_order;		/* owned: the tids as info lists them */
	size_t norder;
	size_t lone_next;		/* files begun: tid_order, then perf */
	bool lone_begun;		/* the header is out */
	char *lone_text;		/* owned: lines before the next record */
	size_t lone_len;
	size_t lone_cap;
	struct uft_dd dd;		/* lone: dump's view of the task read */
	struct uft_cur cur;		/* next()'s event */
	struct uft_cur *bcur;		/* owned: next_batch()'s, UFT_BATCH */
	/*
	 * The bcur whose task, tid, comm and flags hold as for any fast
	 * record of bfast (uft_fast_run()): a bit each; uft_next_full()
	 * clears it
	 */
	const struct uft_task *bfast;	/* borrowed */
	const char *bfast_comm;		/* borrowed: comm of those bcur */
	uint64_t bfast_mask;
	bool batch_nomem;		/* next_batch() owes an out of memory */
	uint64_t seq;
	char **problems;		/* owned: messages, in the order found */
	size_t nproblems;
	bool nomem;			/* a problem could not be noted */
	bool reported;
};

static inline uint16_t uft_u16(const struct uftrace *uf, const void *p)
{
	return bo_u16(uf->swap, p);
}

static inline uint32_t uft_u32(const struct uftrace *uf, const void *p)
{
	return bo_u32(uf->swap, p);
}

static inline uint64_t uft_u64(const struct uftrace *uf, const void *p)
{
	return bo_u64(uf->swap, p);
}

/* Lines of a buffer, split in place ('\n' and a '\r' before it become NUL). */
struct uft_lines {
	char *p;
	char *end;
	unsigned lineno;
};

/* A task of task.txt: its pid and parent. */
struct uft_tinfo {
	int64_t tid;
	int64_t pid;
	int64_t ppid;
	size_t order;	/* line order */
};

/* uftrace-data.c: metadata files */
void uft_problem(struct uftrace *uf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int uft_read_file(const char *path, char **out, size_t *lenp);
char *uft_line(struct uft_lines *it);
char *uft_path(const struct uftrace *uf, const char *name);
char *uft_pathf(struct uftrace *uf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *uft_basename(const char *path);
int uft_read_info(struct uftrace *uf, const char *name, int64_t **tids,
		  size_t *ntids, struct diag *d);
int uft_read_tasks(struct uftrace *uf, struct uft_tinfo **tinfo,
		   size_t *ntinfo);
int uft_read_events(struct uftrace *uf);
void uft_read_opts(struct uftrace *uf);
int uft_scan_tids(struct uftrace *uf, int64_t **tids, size_t *ntids);
int uft_setup_tasks(struct uftrace *uf, int64_t *tids, size_t ntids,
		    const struct uft_tinfo *ti, size_t nti, size_t nperf,
		    size_t nkern);

/* uftrace-index.c: look-up tables */
int uft_grow(void *v, size_t n, size_t size);
uint64_t uft_hash_str(const struct uft_hash *h, const char *s, size_t len);
void *uft_hash_find(const struct uft_hash *h, const char *s, size_t len,
		    const char *(*keyof)(const void *val));
int uft_hash_add(struct uft_hash *h, void *val,
		 const char *(*keyof)(const void *val));
int uft_index_sessions(struct uftrace *uf);
void uft_pid_range(const struct uftrace *uf, int64_t pid, size_t *lo,
		   size_t *hi);
size_t uft_after(const struct uftrace *uf, size_t lo, size_t hi, uint64_t ts);

/* uftrace-sym.c: sessions, maps, symbols */
bool uft_sym_end_name(const char *name);
char *uft_simplify(const char *s);
char *uft_simple_name(const char *raw);
void uft_free_symtab(struct uft_symtab *st);
struct uft_symtab *uft_module(struct uftrace *uf, const char *path);
struct uft_sidmap *uft_sidmap(struct uftrace *uf, const char *sid,
			      size_t len);
const char *uft_sidmap_key(const void *val);
const struct uft_session *uft_task_session_find(struct uftrace *uf,
						struct uft_task *t,
						uint64_t ts);
struct uft_sym *uft_resolve(struct uftrace *uf, struct uft_task *t,
			    uint64_t ts, uint64_t addr,
			    struct uft_symtab **modp);
struct uft_sym *uft_resolve_in(struct uftrace *uf,
			       const struct uft_session *s, uint64_t ts,
			       uint64_t addr, struct uft_symtab **modp);
struct uft_sym *uft_find_sym(struct uftrace *uf, struct uft_symtab *st,
			     uint64_t addr);

/* uftrace-names.c: names as uftrace's demangler spells them */
char *uft_dump_spelling(const char *raw, const char *d);
char *uft_inheriting_name(const char *raw, const char *s);
char *uft_rust_legacy_name(const char *raw);
size_t uft_special_inner(const char *raw);
char *uft_std_spelling(const char *raw, char *s);
int uft_ctor_dtor(const char *d);
char *uft_ctor_repeat(char *s, int kind);
long uft_cast_operator(const char *d, const char **tag);

/* uftrace-args.c: argument specs */
int uft_parse_specs(struct uftrace *uf, const char *line, bool ret);
int uft_parse_autos(struct uftrace *uf, const char *line, bool ret);
const struct uft_argv *uft_args_of(struct uftrace *uf, struct uft_sym *sym,
				   struct uft_symtab *mod);
void uft_load_dbg(struct uftrace *uf, struct uft_symtab *st);

/* uftrace-enum.c: enum definitions */
int uft_enums_parse(struct uft_enums *es, const char *s);
void uft_enums_free(struct uft_enums *es);
size_t uft_enum_text(const struct uftrace *uf, const struct uft_symtab *mod,
		     const char *name, int val, char *buf, size_t size);

/* uftrace-argval.c: argument values */
struct outbuf;
struct value;
void uft_tadd(struct uft_cur *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int uft_args_text(struct uftrace *uf, struct uft_cur *c, bool retval,
		  struct value *out);
int uft_arg_value(struct uftrace *uf, struct uft_cur *c, size_t nth,
		  struct value *out);
int uft_dump_values(struct uftrace *uf, struct uft_cur *c, const char *time,
		    size_t timelen, struct outbuf *o);

/* uftrace-evdata.c: the data of events; the keys of their values */
enum uft_evkey {
	UFT_EV_DATA = 0,
	UFT_EV_VMSIZE,
	UFT_EV_VMRSS,
	UFT_EV_SHARED,
	UFT_EV_MAJOR,
	UFT_EV_MINOR,
	UFT_EV_CYCLES,
	UFT_EV_INSTRS,
	UFT_EV_REFERS,
	UFT_EV_MISSES,
	UFT_EV_BRANCH,
	UFT_EV_MSG,
	UFT_NEVKEYS,
};

int uft_evkey(const char *key);
const char *uft_evkey_name(int key);
int uft_dump_event_data(struct uftrace *uf, struct uft_cur *c,
			const char *time, size_t timelen, struct outbuf *o);
int uft_event_field(struct uftrace *uf, struct uft_cur *c, int key,
		    struct value *out);

/* uftrace-perf.c: perf-cpuN.dat */
size_t uft_perf_count(struct uftrace *uf);
size_t uft_kernel_files(struct uftrace *uf, char **first);
int uft_perf_setup(struct uftrace *uf, struct uft_task *t, uint32_t cpu);
int uft_perf_advance(struct uftrace *uf, struct uft_task *t);
struct uft_task *uft_task_of(struct uftrace *uf, int64_t tid);
const char *uft_perf_name(unsigned id);

/* uftrace-kernel.c: kernel-cpuN.dat (uftrace record -k) */
size_t uft_kernel_count(struct uftrace *uf);
int uft_kernel_setup(struct uftrace *uf);
void uft_kernel_close(struct uftrace *uf);
int uft_kernel_advance(struct uftrace *uf, struct uft_task *t);
const char *uft_kernel_name(const struct uftrace *uf, size_t i);
bool uft_kernel_ready(const struct uftrace *uf);
const char *uft_kernel_event_name(const struct uftrace *uf, uint64_t id,
				  char *buf, size_t len);
struct uft_sym *uft_kernel_sym(struct uftrace *uf, uint64_t addr,
			       uint64_t *full);

/* uftrace-text.c: a record as `uftrace dump` prints it */
struct event;
struct source;
int uft_render_default(struct source *src, const struct event *ev,
		       struct outbuf *o);

/* uftrace-next.c: the next event (source_ops.next) */
struct uft_type_name {
	const char *name;
	size_t len;
};
/*
 * The record types' names, with their lengths (not counted per record);
 * here, not in a file of its own, so that a constant index folds.
 */
#define UFT_TYPE(s) { s, sizeof(s) - 1 }
static const struct uft_type_name uft_type_names[UFT_NTYPES] = {
	UFT_TYPE("entry"), UFT_TYPE("exit"), UFT_TYPE("lost"), UFT_TYPE("event"),
};
#undef UFT_TYPE
int uft_next(struct source *src, struct event *ev, struct diag *d);
int uft_next_batch(struct source *src, struct event *ev, size_t max,
		   struct diag *d);

/* uftrace-fast.c: next_batch()'s run of plain records */
size_t uft_fast_run(struct source *src, struct uftrace *uf,
		    struct uft_cur *cur, struct event *ev, size_t max);

/* uftrace-dump.c: a lone input, file after file */
int uft_lone_next(struct uftrace *uf);

/* uftrace-depth.c: the records of a task dump shows */
void uft_dd_setup(struct uftrace *uf, const unsigned char *hdr, size_t len);
void uft_dd_reset(struct uftrace *uf);
int uft_dd_fixup(const char *name);
int uft_dd_step(struct uftrace *uf, const struct uft_rec *r, unsigned fix);
bool uft_dd_fast(struct uftrace *uf, size_t depth, size_t *dlim, size_t *xlo);
void uft_dd_after(struct uftrace *uf, size_t depth);
void uft_dd_free(struct uftrace *uf);

#endif
