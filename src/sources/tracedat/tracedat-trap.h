/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracedat-trap: what tracedat-guard.c runs libtraceevent's printing
 * under (tracedat-guard.h says what it traps and why). The handlers and
 * the watchdog are installed while anyone uses them, and what was there
 * before (a sanitizer's handlers) comes back when the last one stops.
 */
#ifndef KTF_TRACEDAT_TRAP_H
#define KTF_TRACEDAT_TRAP_H

#include <event-parse.h>
#include <trace-seq.h>

/* One more user of the trap: 0, or -ENOMEM (no alternate stack). */
int tdtrap_install(void);
/* One user less: the last restores the handlers and timer before it. */
void tdtrap_uninstall(void);
/* tep_print_event() of rec's info under the trap: 0, or the signal that
 * ended it (SIGALRM: it hung) */
int tdtrap_print(struct tep_handle *tep, struct trace_seq *s,
		 struct tep_record *rec);
/* What the signal says of libtraceevent: "crashes (SIGSEGV)", "hangs" */
const char *tdtrap_signame(int sig);

#endif
