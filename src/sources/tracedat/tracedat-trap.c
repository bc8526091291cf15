// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tracedat-guard's trap (tracedat-trap.h): libtraceevent's printing of an
 * event under SIGSEGV, SIGBUS, SIGFPE and SIGILL handlers on an alternate
 * stack and a watchdog, each jumping back with siglongjmp; a fault outside
 * a guarded call goes back to the handler that was there before.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "tracedat-guard.h"
#include "tracedat-shrink.h"
#include "tracedat-trap.h"

/*
 * Signal handler state, the one kind of file-scope mutable state allowed:
 * the handler cannot be given an argument. tdtrap_env is set only while
 * a guarded call runs.
 */
static const int tdtrap_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGALRM };
#define TDTRAP_NSIGS (sizeof(tdtrap_sigs) / sizeof(tdtrap_sigs[0]))
static struct sigaction tdtrap_old[TDTRAP_NSIGS];
static struct itimerval tdtrap_old_timer;
static stack_t tdtrap_old_stack;
static void *tdtrap_stack;
static unsigned tdtrap_users;
static sigjmp_buf *volatile tdtrap_env;
static volatile sig_atomic_t tdtrap_caught;
static volatile sig_atomic_t tdtrap_calls, tdtrap_seen, tdtrap_still;

static void tdtrap_handler(int sig, siginfo_t *si, void *uc)
{
	size_t i;

	(void)uc;
	/* a page of a trace.dat cut meanwhile: zeros, the reader stops */
	if (tdshrink_fault(sig, si))
		return;
	if (sig == SIGALRM) {
		/* the watchdog: a call that has not returned for a while */
		if (!tdtrap_env)
			return;
		if (tdtrap_calls != tdtrap_seen) {
			tdtrap_seen = tdtrap_calls;
			tdtrap_still = 0;
			return;
		}
		if (++tdtrap_still < TDGUARD_STUCK_SECONDS)
			return;
	} else if (!tdtrap_env) {
		/*
		 * Not in a guarded call: give the signal back to the handler
		 * that was there before us (the default, or a sanitizer's);
		 * the faulting instruction runs again and raises it there.
		 */
		for (i = 0; i < TDTRAP_NSIGS; i++)
			if (tdtrap_sigs[i] == sig)
				sigaction(sig, &tdtrap_old[i], NULL);
		return;
	}
	tdtrap_caught = sig;
	siglongjmp(*tdtrap_env, 1);
}

int tdtrap_install(void)
{
	struct itimerval tick = { { 1, 0 }, { 1, 0 } };
	struct sigaction sa;
	size_t size = SIGSTKSZ > 65536 ? SIGSTKSZ : 65536, i;
	stack_t st;

	if (tdtrap_users++)
		return 0;
	tdtrap_stack = malloc(size);
	if (!tdtrap_stack) {
		tdtrap_users--;
		return -ENOMEM;
	}
	st.ss_sp = tdtrap_stack;
	st.ss_size = size;
	st.ss_flags = 0;
	sigaltstack(&st, &tdtrap_old_stack);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = tdtrap_handler;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < TDTRAP_NSIGS; i++) {
		/* NODEFER: siglongjmp leaves nothing blocked */
		sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER |
			      (tdtrap_sigs[i] == SIGALRM ? SA_RESTART : 0);
		sigaction(tdtrap_sigs[i], &sa, &tdtrap_old[i]);
	}
	setitimer(ITIMER_REAL, &tick, &tdtrap_old_timer);
	return 0;
}

void tdtrap_uninstall(void)
{
	size_t i;

	if (!tdtrap_users || --tdtrap_users)
		return;
	setitimer(ITIMER_REAL, &tdtrap_old_timer, NULL);
	for (i = 0; i < TDTRAP_NSIGS; i++)
		sigaction(tdtrap_sigs[i], &tdtrap_old[i], NULL);
	sigaltstack(&tdtrap_old_stack, NULL);
	free(tdtrap_stack);
	tdtrap_stack = NULL;
}

const char *tdtrap_signame(int sig)
{
	switch (sig) {
	case SIGSEGV:
		return "crashes (SIGSEGV)";
	case SIGBUS:
		return "crashes (SIGBUS)";
	case SIGFPE:
		return "crashes (SIGFPE: a division by zero)";
	case SIGILL:
		return "crashes (SIGILL)";
	}
	return "hangs";
}

__attribute__((noinline)) int tdtrap_print(struct tep_handle *tep,
					 struct trace_seq *s,
					 struct tep_record *rec)
{
	sigjmp_buf env;

	tdtrap_calls++;
	if (sigsetjmp(env, 0)) {
		tdtrap_env = NULL;
		return tdtrap_caught;
	}
	tdtrap_env = &env;
	tep_print_event(tep, s, rec, "%s", TEP_PRINT_INFO);
	tdtrap_env = NULL;
	return 0;
}
