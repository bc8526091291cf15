/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inputs. Every reader sits behind struct source_ops; the only switch on
 * the kind of an input is source_detect().
 */
#ifndef KTF_SOURCE_H
#define KTF_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"

struct source;
struct diag;
struct outbuf;
struct symtab;

enum clock_kind {
	CLOCK_TSC = 0,	/* CPU cycles (x86-tsc, raw rdtsc) */
	CLOCK_NS,	/* nanoseconds (local, global, mono, boot, wall …) */
	CLOCK_COUNTER,	/* a counter of unknown unit */
};

/* A field name a source offers, for key binding and for error messages. */
struct source_field {
	const char *name;
	int index;	/* passed back to ops->field() */
};

/* What source_ops.field_at() finds */
enum {
	SOURCE_AT_NONE = 0,
	SOURCE_AT_U64,
	SOURCE_AT_STR,
	SOURCE_AT_S64,
};

struct source_ops {
	const char *kind;	/* "kvmtrace", "trace.dat", "uftrace" */
	/*
	 * The program that wrote the input, when it is not the kernel's
	 * tracing ("QEMU"): --chrome draws its events in processes of its
	 * own. pid_is_process: ev->pid is that program's process (QEMU's
	 * simple backend records getpid()), else one of its threads, or 0
	 * when not known (QEMU's log).
	 */
	const char *program;
	bool pid_is_process;
	/*
	 * Can the reader take a stream (a pipe, a FIFO, standard input) with
	 * the probe bytes already read from it? Else a stream is spooled to a
	 * temporary file first.
	 */
	bool stream;
	/*
	 * Is this input ours? head holds the first bytes of a file (or, for a
	 * directory, is NULL with len 0). Returns true or false.
	 */
	bool (*probe)(const char *path, const unsigned char *head, size_t len,
		      bool is_dir);
	/*
	 * Open path; NULL: the stream src->fd, whose first src->head_len
	 * bytes were read into src->head by the probe (a reader that takes
	 * the descriptor sets src->fd to -1). On failure fill diag and return
	 * a negative errno: -EMEDIUMTYPE when the run cannot start with this
	 * input and the user can set it right (nothing in it this tool reads,
	 * a file named for it that is missing or wrong, as --qemu-events):
	 * exit 2; any other, bad data: exit 1.
	 */
	int (*open)(struct source *src, const char *path, struct diag *d);
	/*
	 * Produce the next event into *ev. Returns 1 with an event, 0 at the
	 * end, or a negative errno with diag filled (bad data); the source is
	 * finished after an error.
	 */
	int (*next)(struct source *src, struct event *ev, struct diag *d);
	/*
	 * Does an event stay whole (its rec and type) while next() fills
	 * another struct event? The merge then reads such an input one
	 * event ahead, off the path that picks the next event.
	 */
	bool two_events;
	/*
	 * May be NULL. Up to max events into ev[0 .. max - 1], each whole
	 * (its rec and type) until the next call of next_batch or next.
	 * Returns how many (at least 1), 0 at the end, or a negative errno
	 * with diag filled, as next() does: a batch stops before a record
	 * next() would fail on, the next call returns the error. Never a
	 * damaged event. For one input printed as text (main.c reads it
	 * without the merge), and for the merge of inputs that all have it
	 * (merge_batched(): a slot reads again only once the events of its
	 * last batch have been passed on). The caller changes no event's
	 * src, type, rec, cpu or has_vcpu between calls: a reader given the
	 * array it filled last may leave them as they are (kvmtrace's).
	 */
	int (*next_batch)(struct source *src, struct event *ev, size_t max,
			  struct diag *d);
	/*
	 * next_batch and next set relts and relts_neg as run_set_relts()
	 * would over the input's own events from its first on: one input
	 * read alone (run_batches()) takes them as they are, without a pass
	 * of its own; the merge sets its own.
	 */
	bool batch_relts;
	void (*close)(struct source *src);
	/*
	 * Bind a template key to a field of events of type t (t NULL: any
	 * event of this source). Returns an index >= 0 for ops->field(), or
	 * -ENOENT.
	 */
	int (*bind)(struct source *src, const struct event_type *t,
		    const char *key);
	/*
	 * Is field index a u32 in host byte order at a fixed byte offset of
	 * ev->rec for every event? Then the renderer reads it directly. May
	 * be NULL.
	 */
	bool (*field_u32)(struct source *src, int index, size_t *offset);
	/*
	 * Is field index, for every event, a value at a fixed byte offset
	 * of ev->rec: SOURCE_AT_U64, a uint64_t at *offset; SOURCE_AT_S64,
	 * an int64_t at *offset; SOURCE_AT_STR,
	 * a const char * at *offset and its size_t length at *len_offset?
	 * Then the renderer reads it directly. 0: ask field(). May be NULL.
	 */
	int (*field_at)(struct source *src, int index, size_t *offset,
			size_t *len_offset);
	/*
	 * Is field index the same string in every event of type t (uftrace's
	 * %(type)s: "entry" in every entry)? Then 0, with *s (living as long
	 * as src) and *len: the renderer makes it part of the template's
	 * text. -ENOENT: it is not. May be NULL.
	 */
	int (*field_const)(struct source *src, const struct event_type *t,
			   int index, const char **s, size_t *len);
	/*
	 * Inputs of one ops with equal bind_class() answer bind(),
	 * field_u32() and field_at() alike for events of any type (t NULL):
	 * they share the renderer's bindings of numeric id rules, one copy
	 * for the per-CPU files of one recording. May be NULL: never shared.
	 */
	unsigned long (*bind_class)(const struct source *src);
	/* Fetch field index (from bind) of ev. Returns 0 or -ENOENT. */
	int (*field)(struct source *src, const struct event *ev, int index,
		     struct value *out);
	/*
	 * The name the event format's print fmt gives field index's value
	 * in ev (trace.dat's __print_symbolic, as `info` prints it), as a
	 * string: 0, or -ENOENT (no name for this value). With ev NULL: 0
	 * if events of type t may name that field's values at all. May be
	 * NULL.
	 */
	int (*field_symbol)(struct source *src, const struct event_type *t,
			    const struct event *ev, int index,
			    struct value *out);
	/*
	 * Call fn for every event type known before reading (trace.dat
	 * formats), so that rules can be checked at load time. A type the
	 * input may hold but does not declare is marked possible (event.h).
	 * May be NULL.
	 */
	int (*each_type)(struct source *src,
			 int (*fn)(const struct event_type *t, void *arg),
			 void *arg);
	/* The field names events of type t have (for error messages). */
	size_t (*fields)(struct source *src, const struct event_type *t,
			 const char **names, size_t max);
	/* Write a default one-line rendering (no rule matched). May be NULL. */
	int (*render_default)(struct source *src, const struct event *ev,
			      struct outbuf *out);
	/*
	 * Write the lines the reference tool prints before the events
	 * (trace-cmd report's "cpus=N"), when the default rendering is all
	 * there is (no rule file, every input of this kind). May be NULL.
	 */
	int (*render_header)(struct source *src, struct outbuf *out);
	/*
	 * The values of ev as the 2008 tool printed them after a TypeError
	 * (a Python dict and a newline). May be NULL.
	 */
	int (*render_args)(struct source *src, const struct event *ev,
			   double mhz, struct outbuf *out);
	/*
	 * The function holding kernel address addr by the input's own
	 * symbols (a trace.dat's kallsyms): its name, borrowed while the
	 * source is open, or NULL. May be NULL.
	 */
	const char *(*func_at)(struct source *src, uint64_t addr);
	/*
	 * The name of function addr in the program task tid ran at time ts
	 * (uftrace: as `uftrace report` names a call it ends itself, "<ADDR>"
	 * without symbol), borrowed, or written to buf. NULL: not known. May
	 * be NULL.
	 */
	const char *(*name_at)(struct source *src, int64_t tid, uint64_t ts,
			       uint64_t addr, char *buf, size_t size);
};

/*
 * How a guest input came onto its host's clock, for the alignment report
 * (clock.c). Filled by source_pair() for trace-cmd's own pairs.
 */
struct source_align {
	bool self_shifted;	/* TIME_SHIFT: libtracecmd shifted it already;
				 * no offset may apply again */
	uint64_t host_traceid;	/* the trace id TIME_SHIFT names */
	struct source *host;	/* borrowed: that input; NULL: not among them */
	const char *vm;		/* borrowed: the VM's name from the host's
				 * GUEST option; NULL: not known */
	uint32_t ncpus;		/* CPUs with a shift */
	int64_t spread;		/* the largest difference of two CPUs' host
				 * times for one guest time (mid-samples) */
};

/* How uftrace function names are printed (--demangle). */
enum source_demangle {
	SOURCE_DEMANGLE_SIMPLE = 0,	/* as `uftrace dump`: no parameters */
	SOURCE_DEMANGLE_FULL,		/* as c++filt */
	SOURCE_DEMANGLE_NO,		/* as recorded */
};

struct source {
	const struct source_ops *ops;	/* borrowed, static */
	char *path;			/* owned; "-" for standard input */
	const char *name;		/* display name: path, or "<stdin>" */
	/* what the probe found (source_probe()) */
	char *open_path;		/* owned: the file the reader opens */
	int spool_fd;			/* -1, or our copy of a stream, which
					 * has no name: open_path is
					 * /proc/self/fd/N of it */
	int fd;				/* -1, or a stream (NULL open_path) */
	bool own_fd;			/* close fd when done with it */
	unsigned char *head;		/* owned: bytes read from fd already */
	size_t head_len;
	char *note;			/* owned: what a library said on open,
					 * lines for main.c to print */
	char *hostname;			/* owned: the machine it was recorded
					 * on, as the input says (trace.dat's
					 * UNAME, perf.data's HOSTNAME); set
					 * by open(); NULL: not said */
	uint32_t machine;		/* 20 bits of hostname's hash, 0 when
					 * none: the pids of two machines are
					 * two VMs (sink_vm_of()) */
	unsigned index;			/* input order, from 0 */
	enum domain domain;
	enum clock_kind clock;		/* set by open() */
	const char *clock_base;		/* of a ns clock, when the reader
					 * knows it: "mono", "wall"; static */
	bool clock_user_set;		/* the user declared the clock */
	uint32_t cpu_hint;		/* NAME.kvmtrace.N: N */
	bool has_cpu_hint;
	uint32_t ntypes;		/* event types handed out so far */
	struct source_align align;
	enum source_demangle demangle;	/* set before open() */
	/*
	 * Set before open(): the only input, printed by the built-in rules
	 * as text, unfiltered. A reader may then give the reference tool's
	 * whole output, in its order (uftrace: `uftrace dump`'s header,
	 * `reading` lines, task after task).
	 */
	bool lone;
	/*
	 * Set by merge_batched(): read by next_batch for the merge, which
	 * sets relts on the merged stream; a reader with batch_relts may
	 * leave them out of the events next_batch gives.
	 */
	bool merged;
	const struct symtab *guest_syms;	/* borrowed: --guest-syms */
	/*
	 * Where a reader says what it goes on after (a damaged record left
	 * out), one line each; NULL: a pass of its own (source_reopen()),
	 * which says nothing. Set before open().
	 */
	void (*say)(void *arg, const char *msg);
	void *say_arg;
	const char *qemu_events;	/* borrowed: --qemu-events; NULL:
					 * QEMU's default dictionary */
	const char *kallsyms;		/* borrowed: --kallsyms; NULL: perf's
					 * choice (perf.data) */
	void *priv;			/* owned by ops */
};

/* Readers, registered in detection order. */
extern const struct source_ops source_kvmtrace_ops;
#ifdef HAVE_TRACECMD
extern const struct source_ops source_tracecmd_ops;
/* perf.data (src/sources/perf/): its formats go through libtraceevent */
extern const struct source_ops source_perf_ops;
#endif
extern const struct source_ops source_uftrace_ops;
/* QEMU's traces (src/sources/qemu/) */
extern const struct source_ops source_qemu_simple_ops;
extern const struct source_ops source_qemu_log_ops;
bool source_qemu_simple_magic(const unsigned char *head, size_t len);
/* A log line with a stamp of -msg timestamp=on starts head. */
bool source_qemu_log_probe(const unsigned char *head, size_t len);
/*
 * A log without stamps (-D FILE alone, every qemu-user log): its first
 * line begins with an event of the dictionary events (NULL: QEMU's
 * default) and reads back through its format. path: a regular file whose
 * first 4 KiB are read (else, or NULL, head is all there is).
 */
bool source_qemu_log_unstamped(const char *path, const unsigned char *head,
			       size_t len, const char *events);
/*
 * QEMU inputs' clocks (CLOCK_MONOTONIC, the wall clock) against the other
 * nanosecond inputs': 0, or -EINVAL with d naming the inputs and the way
 * out. Call after every input is open and its clock declared.
 */
int source_qemu_clocks(struct source **srcs, size_t n, struct diag *d);

/*
 * Recognise src->path by its content ("-": standard input) and set
 * src->ops: the file is opened once; a stream's first bytes are kept for
 * its reader, or the stream is copied to a temporary file when its reader
 * needs to seek. Returns 0, or -errno with diag filled (missing,
 * unreadable, a directory that is no uftrace data, text that looks like a
 * rule file).
 */
int source_probe(struct source *src, struct diag *d);
/* The reader for path, as source_probe() finds it (tests, fuzzing). */
int source_detect(const char *path, const struct source_ops **ops,
		  struct diag *d);
/*
 * What kind of input path holds, as a phrase for messages ("a trace.dat
 * file"), or NULL for anything that may be a rule file. With binary, any
 * file with control bytes among its first ones is an input too (a
 * kvmtrace stream has no magic word).
 */
const char *source_input_kind(const char *path, bool binary);

/*
 * Host and guest as trace-cmd records them: a trace.dat whose TIME_SHIFT
 * names another input's trace id is that input's guest, on its clock
 * already (domain guest, align filled); several trace.dat inputs carry
 * their file names in their default lines as `trace-cmd report -i A -i B`
 * prints them; the host's GUEST option gives guest events the keys vm and
 * host_tid and the host's vCPU threads vm and vcpu. Call once, after every
 * input is opened. note gets a line for each guest whose host is missing.
 * Returns 0 or -ENOMEM.
 */
#ifdef HAVE_TRACECMD
int source_pair(struct source **srcs, size_t n, struct diag *note);
#else
static inline int source_pair(struct source **srcs, size_t n,
			      struct diag *note)
{
	(void)srcs;
	(void)n;
	(void)note;
	return 0;
}
#endif

/* ops NULL: source_open() calls source_probe() first. */
struct source *source_create(const struct source_ops *ops, const char *path,
			     unsigned index);
/* A second reader of the same input (a file: not of a stream). */
struct source *source_reopen(const struct source *src);
int source_open(struct source *src, struct diag *d);
void source_destroy(struct source *src);

#endif
