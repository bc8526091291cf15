// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * HEADER_TRACING_DATA: the event formats of a perf.data, in the layout
 * trace-cmd's tracing data has (trace-cmd.dat(5)), into a libtraceevent
 * handle without plugins (as Debian's perf prints):
 *
 *   "\027\010\104tracing", version "0.6\0", u8 big-endian, u8 long size,
 *   u32 page size, "header_page\0" u64 size + text, "header_event\0" u64
 *   size + text, u32 n + n × (u64 size + ftrace format), u32 systems + per
 *   system: name "\0", u32 n + n × (u64 size + format), u32 size +
 *   kallsyms, u32 size + printk formats[, u64 size + saved cmdlines].
 *
 * perf skips the kallsyms (it resolves kernel addresses from its own
 * symbols); so do we: an address libtraceevent cannot name prints as the
 * number.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perf-int.h"

struct perf_tr {
	struct perf *p;
	const unsigned char *b, *at, *end;
	bool be;
	uint64_t off;		/* the section's offset in the file */
	struct diag *d;
};

static int perf_tr_short(struct perf_tr *t, const char *what)
{
	diag_set(t->d, "%s: offset 0x%" PRIx64 ": truncated tracing data: the %s runs past its end",
		 t->p->name, t->off + (uint64_t)(t->at - t->b), what);
	return -EIO;
}

static uint64_t perf_tr_num(struct perf_tr *t, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)t->at[t->be ? n - 1 - i : i] << (8 * i);
	t->at += n;
	return v;
}

/* A size-prefixed block: *out, *len; -EIO when it does not fit. */
static int perf_tr_block(struct perf_tr *t, size_t nsize, const char *what,
			 const unsigned char **out, size_t *len)
{
	uint64_t n;

	if ((size_t)(t->end - t->at) < nsize)
		return perf_tr_short(t, what);
	n = perf_tr_num(t, nsize);
	if (n > (uint64_t)(t->end - t->at))
		return perf_tr_short(t, what);
	*out = t->at;
	*len = (size_t)n;
	t->at += n;
	return 0;
}

/* A block libtraceevent wants NUL-terminated. */
static char *perf_tr_dup(const unsigned char *b, size_t n)
{
	char *s = malloc(n + 1);

	if (s) {
		memcpy(s, b, n);
		s[n] = '\0';
	}
	return s;
}

static int perf_tr_formats(struct perf_tr *t, const char *sys)
{
	const unsigned char *f;
	uint32_t n, i;
	size_t len;
	char *s;
	int ret;

	if (t->end - t->at < 4)
		return perf_tr_short(t, "list of formats");
	n = (uint32_t)perf_tr_num(t, 4);
	for (i = 0; i < n; i++) {
		ret = perf_tr_block(t, 8, "event format", &f, &len);
		if (ret < 0)
			return ret;
		/* libtraceevent reads a format as a C string */
		s = perf_tr_dup(f, len);
		if (!s) {
			diag_set(t->d, "%s: out of memory", t->p->name);
			return -ENOMEM;
		}
		/* a format libtraceevent cannot parse prints as perf's does */
		tep_parse_event(t->p->tep, s, len, sys);
		free(s);
	}
	return 0;
}

static int perf_tracing_load(struct perf *p, const unsigned char *b,
			     size_t len, uint64_t off, struct diag *d);

/* Seconds a trial parse may take (a format that loops libtraceevent). */
#define PERF_TRIAL_SECONDS 10

#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
/*
 * The fuzz build only (tests/fuzz/run-fuzz.sh): a fork for every input
 * held libFuzzer to 40 inputs a second, so the verdict on each tracing
 * data tried is kept (the same bytes, the same verdict); and a child that
 * crashes writes no crash file of libFuzzer's (the reader refusing the
 * input is what is tested).
 */
#include <sanitizer/common_interface_defs.h>

#define PERF_TRIALS 4096
static struct {
	uint64_t hash;
	int status;
	bool used;
} perf_trials[PERF_TRIALS];

static uint64_t perf_trial_hash(const unsigned char *b, size_t len)
{
	uint64_t h = 14695981039346656037ull;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h ^ len;
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PERF_FUZZ_ASAN 1
#endif
#endif
#ifndef PERF_FUZZ_ASAN
#include <setjmp.h>
/*
 * Without ASan (FUZZ_SANITIZE=undefined), not even a fork for new
 * tracing data: the formats are parsed here under a trap, as
 * tests/fuzz/fuzz-tdformat.c parses them; a crash refuses the input (and
 * leaks what libtraceevent had made).
 */
static sigjmp_buf perf_trial_env;

static void perf_trial_fault(int sig)
{
	siglongjmp(perf_trial_env, sig);
}

static int perf_tracing_trap(struct perf *p, const unsigned char *b,
			     size_t len, uint64_t off, struct diag *d)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
	struct sigaction sa, old[4];
	volatile int ret = 0;
	int sig;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = perf_trial_fault;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_NODEFER;
	for (i = 0; i < 4; i++)
		sigaction(sigs[i], &sa, &old[i]);
	sig = sigsetjmp(perf_trial_env, 1);
	if (!sig)
		ret = perf_tracing_load(p, b, len, off, d);
	for (i = 0; i < 4; i++)
		sigaction(sigs[i], &old[i], NULL);
	if (sig) {
		p->tep = NULL;
		diag_set(d, "%s: offset 0x%" PRIx64 ": corrupt tracing data: libtraceevent crashes parsing its event formats",
			 p->name, off);
		return -EIO;
	}
	return ret;
}
#endif
#endif

/*
 * libtraceevent 1.7 crashes (and perf 6.1 with it) on some damaged
 * formats: they are parsed once in a child process first, which tells
 * whether that goes well; only then here.
 */
int perf_tracing_parse(struct perf *p, const unsigned char *b, size_t len,
		       uint64_t off, struct diag *d)
{
	int status = 0;
	pid_t pid;
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
	uint64_t h = perf_trial_hash(b, len);
	size_t slot = h % PERF_TRIALS;
#endif

	if (p->tep)
		return 0;
#if defined(FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION) && !defined(PERF_FUZZ_ASAN)
	(void)slot;
	return perf_tracing_trap(p, b, len, off, d);
#endif
	fflush(NULL);
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
	if (perf_trials[slot].used && perf_trials[slot].hash == h) {
		status = perf_trials[slot].status;
		pid = 1;
		goto verdict;
	}
#endif
	pid = fork();
	if (pid == 0) {
		/* a sanitizer's report of the crash is not ours to print */
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (null >= 0)
			dup2(null, STDERR_FILENO);
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
		__sanitizer_set_death_callback(NULL);
#endif
		alarm(PERF_TRIAL_SECONDS);
		_exit(perf_tracing_load(p, b, len, off, d) < 0 ? 3 : 0);
	}
	if (pid > 0) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
		perf_trials[slot].hash = h;
		perf_trials[slot].status = status;
		perf_trials[slot].used = true;
verdict:
#endif
		/* 0 and 3 are the child's own; a sanitizer exits 1 */
		if (!WIFEXITED(status) ||
		    (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 3)) {
			diag_set(d, "%s: offset 0x%" PRIx64 ": corrupt tracing data: libtraceevent %s parsing its event formats (tried in a child process)",
				 p->name, off,
				 WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM
					 ? "hangs" : "crashes");
			return -EIO;
		}
	}
	return perf_tracing_load(p, b, len, off, d);
}

static int perf_tracing_load(struct perf *p, const unsigned char *b,
			     size_t len, uint64_t off, struct diag *d)
{
	static const unsigned char magic[10] = { 0x17, 0x08, 0x44, 't', 'r',
						 'a', 'c', 'i', 'n', 'g' };
	struct perf_tr t = { p, b, b, b + len, false, off, d };
	const unsigned char *blk, *z;
	uint32_t nsys, i;
	size_t n;
	char *s;
	int ret, long_size, page;

	if (len < sizeof(magic) || memcmp(b, magic, sizeof(magic))) {
		diag_set(d, "%s: offset 0x%" PRIx64 ": the tracing data does not start with trace-cmd's magic (\\027\\010\\104tracing)",
			 p->name, off);
		return -EIO;
	}
	t.at += sizeof(magic);
	z = memchr(t.at, '\0', (size_t)(t.end - t.at));
	if (!z || t.end - z < 1 + 1 + 1 + 4)
		return perf_tr_short(&t, "header");
	t.at = z + 1;
	t.be = *t.at++ != 0;
	long_size = *t.at++;
	page = (int)perf_tr_num(&t, 4);
	p->tep = tep_alloc();
	if (!p->tep) {
		diag_set(d, "%s: out of memory", p->name);
		return -ENOMEM;
	}
	tep_set_file_bigendian(p->tep, t.be ? TEP_BIG_ENDIAN
					    : TEP_LITTLE_ENDIAN);
#ifdef WORDS_BIGENDIAN
	tep_set_local_bigendian(p->tep, TEP_BIG_ENDIAN);
#else
	tep_set_local_bigendian(p->tep, TEP_LITTLE_ENDIAN);
#endif
	tep_set_long_size(p->tep, long_size);
	tep_set_page_size(p->tep, page);
	/* "header_page\0" and its text */
	if (t.end - t.at < 12 || memcmp(t.at, "header_page", 12)) {
		diag_set(d, "%s: offset 0x%" PRIx64 ": corrupt tracing data: no header_page",
			 p->name, off + (uint64_t)(t.at - b));
		return -EIO;
	}
	t.at += 12;
	ret = perf_tr_block(&t, 8, "header_page", &blk, &n);
	if (ret < 0)
		return ret;
	s = perf_tr_dup(blk, n);
	if (!s)
		goto nomem;
	tep_parse_header_page(p->tep, s, n, long_size);
	free(s);
	if (t.end - t.at < 13 || memcmp(t.at, "header_event", 13)) {
		diag_set(d, "%s: offset 0x%" PRIx64 ": corrupt tracing data: no header_event",
			 p->name, off + (uint64_t)(t.at - b));
		return -EIO;
	}
	t.at += 13;
	ret = perf_tr_block(&t, 8, "header_event", &blk, &n);
	if (ret < 0)
		return ret;
	ret = perf_tr_formats(&t, "ftrace");
	if (ret < 0)
		return ret;
	if (t.end - t.at < 4)
		return perf_tr_short(&t, "list of systems");
	nsys = (uint32_t)perf_tr_num(&t, 4);
	for (i = 0; i < nsys; i++) {
		char sys[256];

		z = memchr(t.at, '\0', (size_t)(t.end - t.at));
		if (!z)
			return perf_tr_short(&t, "system name");
		snprintf(sys, sizeof(sys), "%.*s", (int)(z - t.at),
			 (const char *)t.at);
		t.at = z + 1;
		ret = perf_tr_formats(&t, sys);
		if (ret < 0)
			return ret;
	}
	/* kallsyms: skipped, as perf does */
	ret = perf_tr_block(&t, 4, "kallsyms", &blk, &n);
	if (ret < 0)
		return ret;
	ret = perf_tr_block(&t, 4, "printk formats", &blk, &n);
	if (ret < 0)
		return ret;
	if (n) {
		s = perf_tr_dup(blk, n);
		if (!s)
			goto nomem;
		tep_parse_printk_formats(p->tep, s);
		free(s);
	}
	p->have_tracing = true;
	return 0;
nomem:
	diag_set(d, "%s: out of memory", p->name);
	return -ENOMEM;
}
