/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracedat-shrink: a trace.dat that shrinks while it is read. libtracecmd
 * maps a CPU's data with mmap(); when the file is cut meanwhile, a page
 * past its new end raises SIGBUS wherever it is touched (in libtracecmd,
 * in libtraceevent, in our reader), which would end the process with the
 * lines rendered but not yet written. While a reader holds the trap, a
 * SIGBUS on a page of a mapped file puts zeros in place of what the file
 * lost (from that page to the end of its mapping) and notes the file and
 * offset; the faulting access then goes on. The reader checks before it
 * hands out each record (tdshrink_touch(), tdshrink_hits(), then
 * tdshrink_lost()): that input stops there with
 * the file and offset, as for a file cut before the run; every line
 * rendered before is written.
 *
 * A record read before the cut and rendered after it (a window of one
 * event) prints what the zeros give; the next check stops the input.
 */
#ifndef KTF_TRACEDAT_SHRINK_H
#define KTF_TRACEDAT_SHRINK_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

struct diag;

/* Install the trap (counted: the last tdshrink_release() removes it). */
void tdshrink_hold(void);
void tdshrink_release(void);

/*
 * For another SIGBUS handler (tracedat-guard's): was this fault a page a
 * mapped file lost? Then it is handled (zeros in place) and true.
 */
bool tdshrink_fault(int sig, const siginfo_t *si);

/*
 * Touch the n bytes at p (a record in libtracecmd's mapping; NULL: none),
 * then: did the file (dev, ino) lose pages under its mapping? Then true,
 * with d saying so of name (its size now from path).
 */
bool tdshrink_lost(const void *p, int n, uint64_t dev, uint64_t ino,
		   const char *name, const char *path, struct diag *d);

/*
 * How many files have lost pages, as the handler counts them: a reader
 * keeps this address and, per record, calls tdshrink_touch() and reads
 * it, calling tdshrink_lost() only once it is not 0 (a load per record
 * while no file shrank, instead of a call).
 */
const volatile sig_atomic_t *tdshrink_hits(void);

/* The first and last of the n bytes at p: a page the file lost faults now. */
static inline void tdshrink_touch(const void *p, int n)
{
	const volatile unsigned char *b = p;

	if (b && n > 0) {
		(void)b[0];
		(void)b[n - 1];
	}
}

#endif
