/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracedat-guard: the trace.dat reader's defence against event formats
 * that lie. Two checks:
 *
 * - tdguard_record(): before an event goes on, every field its format
 *   names (and the text a __data_loc field points to, to its NUL) must lie
 *   inside the record, but for a trailing fixed-size array the kernel
 *   fills partly (kernel_stack's caller[8]), which need only start there.
 *   A record that fails is damaged, said with the file, CPU, record offset
 *   and event name; the reader leaves it out (tracecmd-read.c) and nothing
 *   of ours reads outside it. So is a record of a format whose fields end
 *   past TDGUARD_PAD_MAX (`char load[200000000]`): no record holds that.
 * - tdguard_info(), given a record shorter than its format (damaged, or a
 *   trailing array cut short), hands libtraceevent a copy padded with
 *   zeros to the end of the format's last field (libtraceevent reads the
 *   whole of every field it prints, a static array in full, a string to
 *   its NUL), or, for a format no record can fill, prints
 *   "[FAILED TO PARSE]" and the fields inside the record itself: it never
 *   reads past a record. So is a record given whose text has no NUL
 *   before its end, where libtraceevent would print it with "%s" to its
 *   NUL: any array of char, u8 or s8 of a format it could not parse, a
 *   __data_loc one of any (__get_str()); and every ftrace bprint record
 *   (its arguments are read by a format from the printk table).
 * - tdguard_info(): libtraceevent's printing of an event (its print fmt
 *   may divide by zero, index outside an array, recurse without end or
 *   loop for ever) runs under a trap: SIGSEGV, SIGBUS, SIGFPE and SIGILL
 *   on an alternate stack, and a watchdog (SIGALRM each second; a call
 *   that makes no progress for TDGUARD_STUCK_SECONDS is abandoned), both
 *   jumping back with siglongjmp. The event is reported, its text falls
 *   back to "[FAILED TO PARSE]" and its fields, and the reader stops
 *   there: libtraceevent is not called again for that input.
 *
 * The traps are installed while a guard exists and restored to what was
 * there before (a sanitizer's handlers) when the last one goes; outside a
 * guarded call a fault goes to those handlers as if we were not there.
 */
#ifndef KTF_TRACEDAT_GUARD_H
#define KTF_TRACEDAT_GUARD_H

#include <stdbool.h>
#include <stdint.h>

#include <event-parse.h>
#include <trace-seq.h>

struct diag;
struct tdguard;

#define TDGUARD_STUCK_SECONDS 5
/*
 * The most bytes the fields of a format may span: a ring-buffer event
 * fits in a page and a perf sample's raw data in 64 KiB. A format whose
 * fields end further is damaged; tdguard_info() pads copies up to it.
 */
#define TDGUARD_PAD_MAX (64u << 10)
/*
 * zeros after a padded copy: a string without its NUL stops there, and a
 * bprint argument read at the 4-byte boundary after the record's last
 * byte (up to 3 bytes on, then 8) reads zeros
 */
#define TDGUARD_PAD_TAIL 16
/* tdguard_record(): rec fits, but ends within its trailing array */
#define TDGUARD_SHORT 1

/*
 * name: the input's display name; kind: what it is, for the messages
 * ("corrupt trace.dat"); both borrowed for the guard's lifetime.
 */
struct tdguard *tdguard_create(const char *name, const char *kind);
void tdguard_destroy(struct tdguard *g);

/*
 * Do the fields of e lie inside rec? Returns 0; TDGUARD_SHORT when they
 * do but rec ends within the array its format ends in (not damaged, but
 * libtraceevent must print it through tdguard_info() with e); or -EIO
 * with diag filled ("NAME: CPU 1: offset 0x2a48: event kvm_exit: …").
 */
int tdguard_record(struct tdguard *g, struct tep_handle *tep,
		   struct tep_event *e, const struct tep_record *rec,
		   struct diag *d);
/*
 * The record size from which tdguard_record() returns 0 for a record of e
 * at its first test (the fields end there, no __data_loc field):
 * callers may test it themselves, once a type. UINT64_MAX: every record
 * of e is looked at (or no memory: tdguard_record() says so).
 */
uint64_t tdguard_fits(struct tdguard *g, const struct tep_event *e);

/*
 * tep_print_event(tep, s, rec, "%s", TEP_PRINT_INFO) under the trap; e
 * is rec's event format: rec is checked against it and printed from a
 * padded copy when shorter (see above). NULL: rec is known to fit its
 * format (tdguard_record() returned 0 for it) or has none.
 * Returns 0, or -EFAULT after a fault or a hang (s then holds the
 * fallback text and the guard remembers what happened, see
 * tdguard_failed()).
 */
int tdguard_info(struct tdguard *g, struct tep_handle *tep,
		 struct tep_event *e, struct trace_seq *s,
		 struct tep_record *rec);

/*
 * Did a guarded call fail? Then true, with diag filled: the reader stops
 * with this message at its next event.
 */
bool tdguard_failed(const struct tdguard *g, struct diag *d);

/*
 * Point descriptor fd at what to refers to. Returns a close-on-exec copy
 * of what fd was, for tdguard_restore(), or -1 (fd unchanged).
 */
int tdguard_redirect(int fd, int to);
/* Point fd back at saved and close saved; nothing when saved is -1. */
void tdguard_restore(int fd, int saved);

/*
 * libtracecmd writes some of what it meets to standard error itself
 * ("mmap: Invalid argument", "Can not mmap file, will read instead"),
 * without saying which file. Between begin and end standard error goes to
 * a temporary file; end returns what was written, each line after
 * prefix (malloc'd; NULL for nothing), for the reader to hand on with the
 * file's name.
 */
int tdguard_stderr_begin(void);
char *tdguard_stderr_end(int saved, const char *prefix);

#endif
