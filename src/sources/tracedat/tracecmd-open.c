// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The guarded open of a trace.dat (source-tracecmd.c opens through it).
 *
 * libtracecmd 1.3.1 and libtraceevent 1.7.1 crash on some corrupt headers:
 * a NULL dereference in libtraceevent's format parser, allocations of any
 * size a damaged field claims (trace-cmd report crashes on such files
 * too). So the file is opened in a child process: when libtracecmd has
 * read its headers and CPU data without harm, that child says so on a
 * pipe and goes on as the program, the handle in hand; the parent, which
 * never touched the file, waits for it and ends as it ends (its exit
 * status, its signal). When the child cannot open the file, or dies
 * trying, the parent goes on with the verdict, its state as before the
 * fork. So the file is opened once: the guard costs a fork, not a second
 * parse of every event format and of kallsyms.
 *
 * That open parses every event format (tep_parse_event()) and the printk
 * formats, needed or not: libtracecmd's public API cannot defer them
 * (trace-cmd.h's only flags are TRACECMD_FL_LOAD_NO_PLUGINS and
 * TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS; the states tracecmd_read_headers()
 * reads up to are in the uninstalled trace-cmd-private.h), and a rule's
 * check (render_check()) wants every format it meets before any output
 * anyway. Measured: about a tenth of opening a 10-event zstd file with
 * 91 formats, 0.4 ms. The larger part, kallsyms, a zstd copy leaves out
 * until a symbol is needed (tc_need_kallsyms()).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "tracecmd.h"
#include "tracedat-guard.h"

/*
 * A handle a failed child holds until its _exit: referenced from here,
 * so that leak checkers do not count it.
 */
static struct tracecmd_input *tc_failed_handle;

/*
 * libtracecmd says what is wrong with a file on standard output (e.g.
 * "File possibly truncated") and through its log. Keep it off our output:
 * its words would not say which input they are about; ours do. While it
 * reads the headers standard error goes too: what a crash there prints
 * (glibc's "malloc(): corrupted …", a sanitizer's report) is said by our
 * message instead. Returns the saved descriptor, or -1.
 */
static int tc_mute(int fd)
{
	int saved, null;

	if (fd == STDOUT_FILENO)
		fflush(stdout);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null < 0)
		return -1;
	saved = tdguard_redirect(fd, null);
	close(null);
	return saved;
}

static void tc_unmute(int fd, int saved)
{
	if (saved >= 0 && fd == STDOUT_FILENO)
		fflush(stdout);
	tdguard_restore(fd, saved);
}

/*
 * The instance buffers of h (trace-cmd report's read_data_info()): an
 * instance that cannot be opened is NULL and skipped. -ENOMEM or 0.
 */
static int tc_open_instances(struct tracecmd_input *h,
			     struct tracecmd_input ***inst,
			     const char ***names, int *ninst)
{
	int n = tracecmd_buffer_instances(h), i;

	*inst = NULL;
	*names = NULL;
	*ninst = 0;
	if (n <= 0)
		return 0;
	*inst = calloc((size_t)n, sizeof(**inst));
	*names = calloc((size_t)n, sizeof(**names));
	if (!*inst || !*names) {
		free(*inst);
		free(*names);
		*inst = NULL;
		*names = NULL;
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		(*names)[i] = tracecmd_buffer_instance_name(h, i);
		if ((*names)[i])
			(*inst)[i] = tracecmd_buffer_instance_handle(h, i);
	}
	*ninst = n;
	return 0;
}

/* The open itself, in this process: a TC_OPEN_* verdict, *out on OK. */
static int tc_open_here(const char *path, struct tracecmd_input **out,
			struct tracecmd_input ***inst, const char ***names,
			int *ninst, char **note)
{
	struct tracecmd_input *h;
	int saved, saved_err, err, ret;

	saved = tc_mute(STDOUT_FILENO);
	saved_err = tc_mute(STDERR_FILENO);
	h = tracecmd_open_head(path, 0);
	tc_unmute(STDERR_FILENO, saved_err);
	tc_unmute(STDOUT_FILENO, saved);
	if (!h)
		return TC_OPEN_NO_HEADERS;
	saved = tc_mute(STDOUT_FILENO);
	err = tdguard_stderr_begin();	/* "mmap: …": said with our name */
	ret = tracecmd_init_data(h);
	if (ret == 0 && inst && tc_open_instances(h, inst, names, ninst) < 0)
		ret = -ENOMEM;
	*note = tdguard_stderr_end(err, "libtracecmd: ");
	tc_unmute(STDOUT_FILENO, saved);
	if (ret != 0) {
		/* not closed: tracecmd_close() crashes on half-made CPU data */
		tc_failed_handle = h;
		free(*note);
		*note = NULL;
		return ret < 0 ? TC_OPEN_NO_DATA : TC_OPEN_LATENCY;
	}
	*out = h;
	return TC_OPEN_OK;
}

/* ------------------------------------------------------------ the parent */

static volatile sig_atomic_t tc_child;

/* A signal meant for the program goes to the process that is the program. */
static void tc_forward(int sig)
{
	if (tc_child > 0)
		kill((pid_t)tc_child, sig);
}

/* Wait for the child that went on, and end as it ended. */
static void __attribute__((noreturn)) tc_follow(pid_t pid)
{
	static const int forwarded[] = {
		SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
	};
	struct sigaction sa = { .sa_handler = tc_forward };
	int status, sig;
	size_t i;

	tc_child = pid;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaction(forwarded[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			_exit(EXIT_FAILURE);
	if (WIFEXITED(status))
		_exit(WEXITSTATUS(status));
	/* the same signal, so that the shell sees what it would have seen */
	sig = WTERMSIG(status);
	signal(sig, SIG_DFL);
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, sig);
	sigprocmask(SIG_UNBLOCK, &sa.sa_mask, NULL);
	raise(sig);
	_exit(128 + sig);
}

int tc_guarded_open(const char *path, struct tracecmd_input **out,
		    char **note)
{
	return tc_guarded_open_all(path, out, NULL, NULL, NULL, note);
}

int tc_guarded_open_all(const char *path, struct tracecmd_input **out,
			struct tracecmd_input ***inst, const char ***names,
			int *ninst, char **note)
{
	unsigned char verdict = TC_OPEN_OK;
	int p[2], status, ret;
	ssize_t n;
	pid_t pid;

	*out = NULL;
	*note = NULL;
	if (inst) {
		*inst = NULL;
		*names = NULL;
		*ninst = 0;
	}
	fflush(stdout);
	fflush(stderr);
	if (pipe2(p, O_CLOEXEC) < 0)
		return tc_open_here(path, out, inst, names, ninst,
				    note);	/* unguarded */
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return tc_open_here(path, out, inst, names, ninst, note);
	}
	if (pid == 0) {
		pid_t parent = getppid();

		close(p[0]);
		/* the program goes on here: it ends when its waiter does */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(EXIT_FAILURE);
		ret = tc_open_here(path, out, inst, names, ninst, note);
		verdict = (unsigned char)ret;
		while (write(p[1], &verdict, 1) < 0 && errno == EINTR)
			;
		close(p[1]);
		if (ret == TC_OPEN_OK)
			return ret;
		_exit(0);
	}
	close(p[1]);
	do
		n = read(p[0], &verdict, 1);
	while (n < 0 && errno == EINTR);
	close(p[0]);
	if (n == 1 && verdict == TC_OPEN_OK)
		tc_follow(pid);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			break;
	/* no verdict: killed by a signal, or a sanitizer's exit */
	return n == 1 ? verdict : TC_OPEN_CRASH;
}
