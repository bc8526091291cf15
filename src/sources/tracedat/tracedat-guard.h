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
 *   of ours reads outside it.
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

#include <event-parse.h>
#include <trace-seq.h>

struct diag;
struct tdguard;

#define TDGUARD_STUCK_SECONDS 5

/* name: the input's display name, borrowed for the guard's lifetime. */
struct tdguard *tdguard_create(const char *name);
void tdguard_destroy(struct tdguard *g);

/*
 * Do the fields of e lie inside rec? Returns 0, or -EIO with diag filled
 * ("NAME: CPU 1: offset 0x2a48: event kvm_exit: …").
 */
int tdguard_record(struct tdguard *g, struct tep_handle *tep,
		   struct tep_event *e, const struct tep_record *rec,
		   struct diag *d);

/*
 * tep_print_event(tep, s, rec, "%s", TEP_PRINT_INFO) under the trap; e
 * is rec's event format (NULL: unknown), for the fallback text.
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
