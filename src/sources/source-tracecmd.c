// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat files (versions 6 and 7, compressed or not, any number of
 * CPUs, the top instance) through libtracecmd and libtraceevent.
 *
 * Events come in the order `trace-cmd report` prints them: the smallest
 * time stamp among the next records of all CPUs, ties to the lowest CPU.
 * Time stamps are record->ts as libtracecmd hands them out, which is what
 * `trace-cmd report -t` prints: nanoseconds for the nanosecond clocks, the
 * raw counter for x86-tsc.
 *
 * Keys bind once per (event type, key) to a slot of a per-source table
 * holding the resolved tep_format_field; reading a field is a bounds check
 * and a load. The text libtraceevent prints for an event (`info`) is only
 * made when a template asks for it.
 *
 * Only functions the installed headers declare. None of them tells the
 * trace clock, so tracedat-file.c reads it from the file's options. Around
 * libtracecmd 1.3.1's rough edges: its words on standard output are muted
 * while a file opens, the layout is checked before libtracecmd reads it
 * (a v6 file with truncated CPU data makes tracecmd_close() crash after
 * tracecmd_init_data(); see tracedat-file.c), and the current record is
 * freed before its CPU is read again (see tc_next()).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-cmd.h>
#include <trace-seq.h>

#include "diag.h"
#include "outbuf.h"
#include "source.h"
#include "tracedat-file.h"
#include "tracedat-guard.h"

#define TC_MAGIC_LEN	10
#define TC_HEAD_LEN	64

enum tc_kind {
	TK_UINT = 0,	/* an integer of f->size bytes */
	TK_SINT,
	TK_TEXT,	/* char array: text up to the first NUL */
	TK_HEX,		/* any other fixed-size data: its bytes in hex */
	TK_DYN_TEXT,	/* __data_loc / __rel_loc char[] */
	TK_DYN_HEX,	/* __data_loc / __rel_loc of anything else */
	TK_COMM,	/* the task's comm, from common_pid */
	TK_CPU,		/* the record's CPU */
	TK_NAME,	/* the event's name */
	TK_ID,		/* the event id */
	TK_INFO,	/* libtraceevent's text of the event */
};

/* A key resolved for the events of one type; indices are ops->field()'s. */
struct tc_slot {
	enum tc_kind kind;
	const struct tep_format_field *f;	/* borrowed from tep; NULL: pseudo */
	char *hex;				/* owned: TK_HEX, TK_DYN_HEX text */
	size_t hexcap;
};

struct tc_id {
	uint64_t id;
	uint32_t index;		/* into tc->types */
};

struct tc_type {
	struct event_type t;
	struct tep_event *ev;	/* borrowed from tep */
};

struct tc {
	struct tracecmd_input *handle;	/* owned */
	struct tep_handle *tep;		/* borrowed from handle */
	struct tracedat_file file;	/* what we read from the file ourselves */
	char *copy;			/* an uncompressed copy, until opened */
	const char *clock;		/* file.clock; may be NULL */
	bool usecs;			/* trace-cmd report prints sec.usec */
	bool swap;			/* the file's byte order is not ours */
	size_t rec_max;			/* the largest record payload */
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
	/* bound keys */
	struct tc_slot *slots;		/* owned */
	size_t nslots;
	size_t capslots;
	/* the merge of the CPUs */
	int ncpus;
	struct tep_record **next;	/* owned: per CPU its next record */
	int *heap;			/* owned: CPUs with a next record */
	int nheap;
	int refill;			/* CPU to read again, or -1 */
	bool started;
	struct tep_record *cur;		/* owned: the current event's record */
	uint64_t seq;
	struct trace_seq info;		/* owned: reset for each use */
	struct tdguard *guard;		/* owned: see tracedat-guard.h */
};

static bool tc_probe(const char *path, const unsigned char *head, size_t len,
		     bool is_dir)
{
	static const unsigned char magic[TC_MAGIC_LEN] = {
		0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'
	};

	return !is_dir && head && len >= TC_MAGIC_LEN &&
	       !memcmp(head, magic, TC_MAGIC_LEN);
}

static inline uint64_t tc_read(const struct tc *tc, const void *p, int size)
{
	uint64_t v = 0;
	uint32_t w;
	uint16_t h;
	uint8_t b;

	switch (size) {
	case 1:
		memcpy(&b, p, 1);
		return b;
	case 2:
		memcpy(&h, p, 2);
		return tc->swap ? __builtin_bswap16(h) : h;
	case 4:
		memcpy(&w, p, 4);
		return tc->swap ? __builtin_bswap32(w) : w;
	case 8:
		memcpy(&v, p, 8);
		return tc->swap ? __builtin_bswap64(v) : v;
	}
	return 0;
}

static inline int64_t tc_sext(uint64_t v, int size)
{
	unsigned shift = 64 - 8 * (unsigned)size;

	return size >= 8 ? (int64_t)v : (int64_t)(v << shift) >> shift;
}

/* The file's byte order, the largest record, where the common fields are. */
static void tc_layout(struct tc *tc)
{
	struct tep_format_field *f;
	int page, sub;

	tc->swap = tep_is_file_bigendian(tc->tep) !=
		   tep_is_local_bigendian(tc->tep);
	page = tep_get_page_size(tc->tep);
	sub = tep_get_sub_buffer_size(tc->tep);
	tc->rec_max = (size_t)(page > sub ? page : sub);
	if (tc->rec_max < 4096)
		tc->rec_max = 4096;
	if (!tc->ntypes)
		return;
	tc->any = tc->types[0].ev->format.common_fields;
	f = tep_find_common_field(tc->types[0].ev, "common_type");
	if (f && f->size <= 8) {
		tc->type_off = f->offset;
		tc->type_size = f->size;
	}
	f = tep_find_common_field(tc->types[0].ev, "common_pid");
	if (f && f->size <= 8) {
		tc->pid_off = f->offset;
		tc->pid_size = f->size;
	}
}

/* Event ids past this are looked up in a sorted list, not a table. */
#define TC_DENSE_IDS 65536u

static int tc_id_cmp(const void *a, const void *b)
{
	const struct tc_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* The type index of an event id, or -1. */
static int32_t tc_type_of(const struct tc *tc, uint64_t id)
{
	uint32_t lo = 0, hi = tc->nsparse;

	if (id < tc->nids)
		return tc->by_id[id];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		uint64_t m = tc->sparse[mid].id;

		if (m == id)
			return (int32_t)tc->sparse[mid].index;
		if (m < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int tc_load_types(struct tc *tc)
{
	int n = tep_get_events_count(tc->tep), i;
	uint32_t max_id = 0;

	tc->types = calloc(n > 0 ? (size_t)n : 1, sizeof(*tc->types));
	if (!tc->types)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct tep_event *ev = tep_get_event(tc->tep, i);
		struct tc_type *t = &tc->types[tc->ntypes];

		if (!ev || ev->id < 0)
			continue;
		t->ev = ev;
		t->t.index = tc->ntypes++;
		t->t.id = (uint64_t)ev->id;
		t->t.system = ev->system;
		t->t.name = ev->name;
		if ((uint32_t)ev->id > max_id)
			max_id = (uint32_t)ev->id;
	}
	/* a table sized by the ids the file claims: at most TC_DENSE_IDS */
	tc->nids = max_id < TC_DENSE_IDS ? max_id + 1 : TC_DENSE_IDS;
	tc->by_id = malloc(tc->nids * sizeof(*tc->by_id));
	tc->sparse = malloc((size_t)(n > 0 ? n : 1) * sizeof(*tc->sparse));
	if (!tc->by_id || !tc->sparse)
		return -ENOMEM;
	memset(tc->by_id, 0xff, tc->nids * sizeof(*tc->by_id));
	for (i = 0; i < (int)tc->ntypes; i++) {
		if (tc->types[i].t.id < tc->nids)
			tc->by_id[tc->types[i].t.id] = i;
		else
			tc->sparse[tc->nsparse++] = (struct tc_id){
				tc->types[i].t.id, (uint32_t)i };
	}
	qsort(tc->sparse, tc->nsparse, sizeof(*tc->sparse), tc_id_cmp);
	/* records of an id without a format */
	tc->unknown.index = tc->ntypes;
	return 0;
}

/*
 * Which clocks `trace-cmd report` shows as seconds and microseconds
 * (libtracecmd's TRACECMD_FL_IN_USECS); the others print the raw count.
 */
static bool tc_clock_usecs(const char *clock)
{
	static const char *const ns[] = {
		"local", "global", "uptime", "perf", "tsc2nsec", "tai",
	};
	size_t i;

	if (!clock)
		return true;
	if (!strncmp(clock, "mono", 4))
		return true;
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		if (!strcmp(clock, ns[i]))
			return true;
	return false;
}

static enum clock_kind tc_clock_kind(const char *clock)
{
	if (clock && !strcmp(clock, "x86-tsc"))
		return CLOCK_TSC;
	if (clock && !strcmp(clock, "counter"))
		return CLOCK_COUNTER;
	return CLOCK_NS;
}

/*
 * libtracecmd says what is wrong with a file on standard output (e.g.
 * "File possibly truncated") and through its log. Keep it off our output:
 * its words would not say which input they are about; ours do.
 */
static int tc_mute_stdout(void)
{
	int saved, null;

	fflush(stdout);
	saved = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (saved < 0)
		return -1;
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null < 0 || dup2(null, STDOUT_FILENO) < 0) {
		if (null >= 0)
			close(null);
		close(saved);
		return -1;
	}
	close(null);
	return saved;
}

static void tc_unmute_stdout(int saved)
{
	if (saved < 0)
		return;
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
}

/*
 * What the first bytes say, for a message when libtracecmd gives up; f is
 * what tracedat_file_read() found in the file (its layout was fine).
 */
static void tc_explain(struct source *src, const char *path,
		       const struct tracedat_file *f, struct diag *d)
{
	unsigned char head[TC_HEAD_LEN];
	char version[16];
	struct stat st;
	ssize_t n = -1;
	int fd, err = 0;
	size_t i;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, head, sizeof(head));
		err = errno;
		if (fstat(fd, &st) < 0)
			st.st_size = 0;
		close(fd);
	} else {
		err = errno;
	}
	if (n < 0) {
		diag_set(d, "%s: cannot read: %s", src->name, strerror(err));
		return;
	}
	for (i = 0; i + 1 < sizeof(version) && TC_MAGIC_LEN + i < (size_t)n &&
		    head[TC_MAGIC_LEN + i]; i++)
		version[i] = (char)head[TC_MAGIC_LEN + i];
	version[i] = '\0';
	if (TC_MAGIC_LEN + i >= (size_t)n) {
		diag_set(d, "%s: truncated trace.dat: the file ends within its first %zd bytes",
			 src->name, n);
		return;
	}
	if (strcmp(version, "6") && strcmp(version, "7")) {
		diag_set(d, "%s: trace.dat version '%s' is not one libtracecmd reads (6 and 7)",
			 src->name, version);
		return;
	}
	diag_set(d, "%s: truncated or corrupt trace.dat (version %s, %lld bytes): libtracecmd cannot read its headers or CPU data",
		 src->name, version, (long long)st.st_size);
	if (f->version == 7 && strcmp(f->compression, "none") &&
	    strcmp(f->compression, "zstd"))
		diag_set(d, "%s: trace.dat (version 7) compressed with '%s': this libtracecmd cannot read it (Debian 12's decompresses zstd only)",
			 src->name, f->compression);
}

static void tc_close(struct source *src);

/*
 * libtracecmd 1.3.1 and libtraceevent 1.7.1 crash on some corrupt headers:
 * a NULL dereference in libtraceevent's format parser, allocations of any
 * size a damaged field claims (trace-cmd report crashes on such files
 * too). So a child process reads the headers first, with its output
 * muted, and only a file it read without harm is opened here. Its exit
 * status says how it went; anything else (a signal, a sanitizer's exit)
 * is a crash. The handle stays referenced from here until the child's
 * _exit, so leak checkers do not count it.
 */
enum {
	TC_GUARD_OK = 0,
	TC_GUARD_NO_HEADERS = 70,
	TC_GUARD_NO_DATA = 71,
	TC_GUARD_LATENCY = 72,
};
static struct tracecmd_input *tc_guard_handle;

/* How the child fared: a TC_GUARD_* exit status, or -1 for a crash. */
static int tc_guard_run(const char *path)
{
	int status, null, ret;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return TC_GUARD_OK;	/* no child: read it here, unguarded */
	if (pid == 0) {
		null = open("/dev/null", O_WRONLY);
		if (null >= 0) {
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		tc_guard_handle = tracecmd_open_head(path, 0);
		if (!tc_guard_handle)
			_exit(TC_GUARD_NO_HEADERS);
		ret = tracecmd_init_data(tc_guard_handle);
		_exit(ret < 0 ? TC_GUARD_NO_DATA :
		      ret > 0 ? TC_GUARD_LATENCY : TC_GUARD_OK);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return TC_GUARD_OK;
	/* killed by a signal, or another status (a sanitizer's exit) */
	if (!WIFEXITED(status))
		return -1;
	switch (WEXITSTATUS(status)) {
	case TC_GUARD_OK:
	case TC_GUARD_NO_HEADERS:
	case TC_GUARD_NO_DATA:
	case TC_GUARD_LATENCY:
		return WEXITSTATUS(status);
	}
	return -1;
}

/* The message for what the child met. */
static int tc_guard_diag(struct source *src, const char *path,
			 const struct tracedat_file *f, int verdict,
			 struct diag *d)
{
	switch (verdict) {
	case TC_GUARD_NO_HEADERS:
	case TC_GUARD_NO_DATA:
		tc_explain(src, path, f, d);
		return -EIO;
	case TC_GUARD_LATENCY:
		diag_set(d, "%s: a latency trace (the text of a latency tracer, no event records): `trace-cmd report` prints it; kvmtrace_format reads flyrecord traces",
			 src->name);
		return -ENOTSUP;
	}
	/* one message for a signal and a sanitizer's exit, so builds agree */
	diag_set(d, "%s: corrupt trace.dat: libtracecmd crashes reading its headers (in a child process; `trace-cmd report` fails on it too)",
		 src->name);
	return -EIO;
}

/*
 * A version 7 file compressed with an algorithm this libtracecmd lacks
 * (Debian's decompresses zstd only; trace-cmd can also write zlib): read
 * an uncompressed copy of it instead, made by tracedat_inflate() in
 * $TMPDIR and unlinked as soon as libtracecmd holds it open.
 */
static int tc_inflate_copy(struct source *src, struct tc *tc,
			   const char *path, struct diag *d)
{
	const char *dir = getenv("TMPDIR");
	int fd, ret;

	if (!dir || !*dir)
		dir = "/tmp";
	if (asprintf(&tc->copy, "%s/kvmtrace_format-XXXXXX", dir) < 0) {
		tc->copy = NULL;
		diag_set(d, "%s: out of memory", src->name);
		return -ENOMEM;
	}
	fd = mkstemp(tc->copy);
	if (fd < 0) {
		ret = -errno;
		diag_set(d, "%s: compressed with '%s', which libtracecmd cannot read, and no room for an uncompressed copy in %s: %s",
			 src->name, tc->file.compression, dir, strerror(errno));
		free(tc->copy);
		tc->copy = NULL;
		return ret;
	}
	ret = tracedat_inflate(src->name, path, fd, d);
	if (close(fd) < 0 && !ret) {
		diag_set(d, "%s: cannot write its uncompressed copy: %s",
			 src->name, strerror(errno));
		ret = -EIO;
	}
	return ret;
}

static void tc_drop_copy(struct tc *tc)
{
	if (!tc->copy)
		return;
	unlink(tc->copy);
	free(tc->copy);
	tc->copy = NULL;
}

static int tc_open(struct source *src, const char *path, struct diag *d)
{
	struct tc *tc;
	int saved, err, verdict, ret = -ENOMEM;

	if (!path) {
		diag_set(d, "<stdin>: trace.dat files cannot be read from standard input; name the file");
		return -EINVAL;
	}
	if (access(path, R_OK) < 0) {
		ret = -errno;
		diag_set(d, "%s: cannot open: %s", src->name, strerror(errno));
		return ret;
	}
	tc = calloc(1, sizeof(*tc));
	if (!tc)
		goto nomem;
	src->priv = tc;
	trace_seq_init(&tc->info);

	/* our messages say what is wrong; the libraries' would not say where */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	/*
	 * The clock, and the layout checked before libtracecmd reads it: a
	 * v6 file with truncated CPU data or a v7 file whose options sections
	 * loop would crash it.
	 */
	ret = tracedat_file_read(src->name, path, &tc->file, d);
	if (ret < 0)
		goto error;
	verdict = tc_guard_run(path);
	/* zstd is what Debian's libtracecmd reads: a copy would fail alike */
	if (verdict == TC_GUARD_NO_HEADERS && tc->file.version == 7 &&
	    strcmp(tc->file.compression, "none") &&
	    strcmp(tc->file.compression, "zstd")) {
		ret = tc_inflate_copy(src, tc, path, d);
		if (ret < 0)
			goto error;
		verdict = tc_guard_run(tc->copy);
		if (verdict == TC_GUARD_OK)
			path = tc->copy;
	}
	if (verdict != TC_GUARD_OK) {
		/* what is wrong is said of the user's file, not of our copy */
		ret = tc_guard_diag(src, path, &tc->file, verdict, d);
		goto error;
	}
	saved = tc_mute_stdout();
	tc->handle = tracecmd_open_head(path, 0);
	tc_unmute_stdout(saved);
	tc_drop_copy(tc);	/* libtracecmd holds it open */
	if (!tc->handle) {
		tc_explain(src, path, &tc->file, d);
		ret = -EIO;
		goto error;
	}
	saved = tc_mute_stdout();
	err = tdguard_stderr_begin();	/* "mmap: …": said with our name */
	ret = tracecmd_init_data(tc->handle);
	src->note = tdguard_stderr_end(err, "libtracecmd: ");
	tc_unmute_stdout(saved);
	if (ret < 0) {
		/* leaked: tracecmd_close() crashes on half-made CPU data */
		tc->handle = NULL;
		tc_explain(src, path, &tc->file, d);
		ret = -EIO;
		goto error;
	}
	if (ret > 0) {
		diag_set(d, "%s: a latency trace (the text of a latency tracer, no event records): `trace-cmd report` prints it; kvmtrace_format reads flyrecord traces",
			 src->name);
		ret = -ENOTSUP;
		goto error;
	}
	tc->tep = tracecmd_get_tep(tc->handle);
	tc->clock = tc->file.clock;
	tc->usecs = tc->file.tsc2nsec || tc_clock_usecs(tc->clock);
	ret = tc_load_types(tc);
	if (ret < 0)
		goto nomem;
	tc_layout(tc);

	tc->ncpus = tep_get_cpus(tc->tep);
	if (tc->ncpus < 0)
		tc->ncpus = 0;
	tc->next = calloc(tc->ncpus ? (size_t)tc->ncpus : 1, sizeof(*tc->next));
	tc->heap = calloc(tc->ncpus ? (size_t)tc->ncpus : 1, sizeof(*tc->heap));
	if (!tc->next || !tc->heap)
		goto nomem;

	src->clock = tc->file.tsc2nsec ? CLOCK_NS : tc_clock_kind(tc->clock);
	src->ntypes = tc->ntypes + 1;
	tc->guard = tdguard_create(src->name);
	if (!tc->guard)
		goto nomem;
	return 0;
nomem:
	diag_set(d, "%s: out of memory", src->name);
	ret = -ENOMEM;
error:
	tc_close(src);
	return ret;
}

static void tc_close(struct source *src)
{
	struct tc *tc = src->priv;
	size_t i;
	int cpu;

	if (!tc)
		return;
	if (tc->cur)
		tracecmd_free_record(tc->cur);
	for (cpu = 0; tc->next && cpu < tc->ncpus; cpu++)
		if (tc->next[cpu])
			tracecmd_free_record(tc->next[cpu]);
	if (tc->handle)
		tracecmd_close(tc->handle);
	for (i = 0; i < tc->nslots; i++)
		free(tc->slots[i].hex);
	free(tc->slots);
	free(tc->next);
	free(tc->heap);
	free(tc->by_id);
	free(tc->sparse);
	free(tc->types);
	trace_seq_destroy(&tc->info);
	tdguard_destroy(tc->guard);
	tracedat_file_free(&tc->file);
	tc_drop_copy(tc);
	free(tc);
	src->priv = NULL;
}

/* ---------------------------------------------------------- merge */

static inline bool tc_before(const struct tc *tc, int a, int b)
{
	unsigned long long ta = tc->next[a]->ts, tb = tc->next[b]->ts;

	return ta < tb || (ta == tb && a < b);
}

static void tc_sift_down(struct tc *tc, int i)
{
	int n = tc->nheap;

	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i, tmp;

		if (l < n && tc_before(tc, tc->heap[l], tc->heap[m]))
			m = l;
		if (r < n && tc_before(tc, tc->heap[r], tc->heap[m]))
			m = r;
		if (m == i)
			return;
		tmp = tc->heap[i];
		tc->heap[i] = tc->heap[m];
		tc->heap[m] = tmp;
		i = m;
	}
}

static void tc_sift_up(struct tc *tc, int i)
{
	while (i > 0) {
		int parent = (i - 1) / 2, tmp;

		if (!tc_before(tc, tc->heap[i], tc->heap[parent]))
			return;
		tmp = tc->heap[i];
		tc->heap[i] = tc->heap[parent];
		tc->heap[parent] = tmp;
		i = parent;
	}
}

static void tc_start(struct tc *tc)
{
	int cpu, i;

	tc->started = true;
	tc->refill = -1;
	for (cpu = 0; cpu < tc->ncpus; cpu++) {
		tc->next[cpu] = tracecmd_read_data(tc->handle, cpu);
		if (tc->next[cpu])
			tc->heap[tc->nheap++] = cpu;
	}
	for (i = tc->nheap / 2 - 1; i >= 0; i--)
		tc_sift_down(tc, i);
}

static int tc_next(struct source *src, struct event *ev, struct diag *d)
{
	struct tc *tc = src->priv;
	struct tep_record *rec;
	uint64_t id = 0;
	int cpu;

	/* tracedat-guard: a fault printing the last event ends this input */
	if (tdguard_failed(tc->guard, d))
		return -EIO;
	if (!tc->started)
		tc_start(tc);
	/*
	 * Free the current record before reading past it on its CPU:
	 * libtracecmd 1.3.1 keeps every decompressed chunk of a v7 file
	 * cached, and reading across a page while the last record of the
	 * old one is held makes its lookups linear in the chunks seen so far
	 * (2.5x slower on 23M events). trace-cmd report frees first too.
	 */
	if (tc->cur) {
		tracecmd_free_record(tc->cur);
		tc->cur = NULL;
	}
	if (tc->refill >= 0) {
		cpu = tc->refill;
		tc->refill = -1;
		tc->next[cpu] = tracecmd_read_data(tc->handle, cpu);
		if (tc->next[cpu]) {
			tc->heap[tc->nheap++] = cpu;
			tc_sift_up(tc, tc->nheap - 1);
		}
	}
	if (!tc->nheap)
		return 0;
	cpu = tc->heap[0];
	rec = tc->next[cpu];
	tc->next[cpu] = NULL;
	tc->heap[0] = tc->heap[--tc->nheap];
	tc_sift_down(tc, 0);
	tc->refill = cpu;
	tc->cur = rec;

	ev->ts = rec->ts;
	ev->raw_ts = rec->ts;
	ev->has_ts = true;
	ev->seq = tc->seq++;
	ev->cpu = (uint32_t)rec->cpu;
	ev->pid = 0;
	ev->has_vcpu = false;
	ev->type = &tc->unknown;
	if (tc->type_size && tc->type_off + tc->type_size <= rec->size) {
		id = tc_read(tc, (char *)rec->data + tc->type_off, tc->type_size);
		int32_t ti = tc_type_of(tc, id);

		if (ti >= 0)
			ev->type = &tc->types[ti].t;
	}
	/* tracedat-guard: every field of its format inside the record */
	if (ev->type != &tc->unknown &&
	    tdguard_record(tc->guard, tc->tep, tc->types[ev->type->index].ev,
			   rec, d) < 0)
		return -EIO;
	if (tc->pid_size && tc->pid_off + tc->pid_size <= rec->size)
		ev->pid = tc_sext(tc_read(tc, (char *)rec->data + tc->pid_off,
					  tc->pid_size), tc->pid_size);
	ev->src = src;
	ev->rec = rec;
	return 1;
}

/* ---------------------------------------------------------- fields */

/* Text, or bytes? char arrays are text; u8, unsigned char and the rest hex. */
static bool tc_is_text(const struct tep_format_field *f)
{
	return (f->flags & TEP_FIELD_IS_STRING) && strstr(f->type, "char") &&
	       !strstr(f->type, "unsigned char");
}

static enum tc_kind tc_field_kind(const struct tep_format_field *f)
{
	if (f->flags & TEP_FIELD_IS_DYNAMIC)
		return tc_is_text(f) ? TK_DYN_TEXT : TK_DYN_HEX;
	if (f->flags & TEP_FIELD_IS_ARRAY)
		return tc_is_text(f) ? TK_TEXT : TK_HEX;
	if (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8)
		return (f->flags & TEP_FIELD_IS_SIGNED) ? TK_SINT : TK_UINT;
	return TK_HEX;
}

static int tc_slot(struct tc *tc, enum tc_kind kind,
		   const struct tep_format_field *f)
{
	struct tc_slot *s;
	size_t i, cap;

	for (i = 0; i < tc->nslots; i++)
		if (tc->slots[i].kind == kind && tc->slots[i].f == f)
			return (int)i;
	if (tc->nslots == tc->capslots) {
		cap = tc->capslots ? 2 * tc->capslots : 16;
		s = realloc(tc->slots, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		tc->slots = s;
		tc->capslots = cap;
	}
	s = &tc->slots[tc->nslots];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->f = f;
	if (kind == TK_HEX || kind == TK_DYN_HEX) {
		/* the most a record can hold, so that no read allocates */
		s->hexcap = 2 * (kind == TK_HEX && f->size ? (size_t)f->size
							   : tc->rec_max) + 1;
		s->hex = malloc(s->hexcap);
		if (!s->hex)
			return -ENOMEM;
	}
	return (int)tc->nslots++;
}

/*
 * The fields of the event's format shadow the pseudo-fields comm, id and
 * info, as they shadow cpu, pid and name (sched_wakeup has a comm and a
 * pid of its own, irq_handler_entry a name). common_comm, common_cpu and
 * common_name are never shadowed: the task's comm, the record's CPU, the
 * event's name (common_pid is the format's own).
 */
static int tc_bind(struct source *src, const struct event_type *t,
		   const char *key)
{
	struct tc *tc = src->priv;
	struct tep_format_field *f = NULL;
	struct tep_event *ev = NULL;

	if (t && t != &tc->unknown && t->index < tc->ntypes)
		ev = tc->types[t->index].ev;
	if (ev)
		f = tep_find_field(ev, key);
	if (!f && tc->ntypes)
		f = tep_find_common_field(ev ? ev : tc->types[0].ev, key);
	if (f)
		return tc_slot(tc, tc_field_kind(f), f);
	if (!strcmp(key, "comm") || !strcmp(key, "common_comm"))
		return tc_slot(tc, TK_COMM, NULL);
	if (!strcmp(key, "common_cpu"))
		return tc_slot(tc, TK_CPU, NULL);
	if (!strcmp(key, "common_name"))
		return tc_slot(tc, TK_NAME, NULL);
	if (!strcmp(key, "id"))
		return tc_slot(tc, TK_ID, NULL);
	if (!strcmp(key, "info"))
		return tc_slot(tc, TK_INFO, NULL);
	return -ENOENT;
}

static const char tc_hexdig[] = "0123456789abcdef";

static void tc_hex(struct tc_slot *s, const unsigned char *p, size_t n,
		   struct value *out)
{
	size_t i;

	if (2 * n + 1 > s->hexcap)
		n = (s->hexcap - 1) / 2;
	for (i = 0; i < n; i++) {
		s->hex[2 * i] = tc_hexdig[p[i] >> 4];
		s->hex[2 * i + 1] = tc_hexdig[p[i] & 15];
	}
	value_set_str(out, s->hex, 2 * n);
}

/* The text of a NUL-terminated string in at most n bytes. */
static void tc_text(const char *p, size_t n, struct value *out)
{
	const char *z = memchr(p, '\0', n);

	value_set_str(out, p, z ? (size_t)(z - p) : n);
}

/* libtraceevent's text of rec, without the newline some formats end in. */
static const char *tc_info(struct tc *tc, struct tep_record *rec, size_t *len)
{
	trace_seq_reset(&tc->info);
	tdguard_info(tc->guard, tc->tep, NULL, &tc->info, rec);
	if (tc->info.state != TRACE_SEQ__GOOD || !tc->info.buffer) {
		*len = 0;
		return "";
	}
	*len = tc->info.len;
	if (*len && tc->info.buffer[*len - 1] == '\n')
		(*len)--;
	return tc->info.buffer;
}

static int tc_field(struct source *src, const struct event *ev, int index,
		    struct value *out)
{
	struct tep_record *rec = (struct tep_record *)ev->rec;
	struct tc *tc = src->priv;
	const struct tep_format_field *f;
	const char *data = rec->data, *comm;
	struct tc_slot *s;
	size_t size = rec->size > 0 ? (size_t)rec->size : 0, len;
	uint64_t loc, off, n;

	if (index < 0 || (size_t)index >= tc->nslots)
		return -ENOENT;
	s = &tc->slots[index];
	f = s->f;
	if (f && (size_t)f->offset + (size_t)f->size > size)
		return -ENOENT;
	switch (s->kind) {
	case TK_UINT:
		value_set_u64(out, tc_read(tc, data + f->offset, f->size));
		return 0;
	case TK_SINT:
		value_set_s64(out, tc_sext(tc_read(tc, data + f->offset, f->size),
					   f->size));
		return 0;
	case TK_TEXT:
	case TK_HEX:
		/* size 0: a flexible array (ftrace:print's buf[]) to the end */
		len = f->size ? (size_t)f->size : size - (size_t)f->offset;
		if (s->kind == TK_TEXT)
			tc_text(data + f->offset, len, out);
		else
			tc_hex(s, (const unsigned char *)data + f->offset, len,
			       out);
		return 0;
	case TK_DYN_TEXT:
	case TK_DYN_HEX:
		/* u32: offset in the low half, length in the high half */
		loc = tc_read(tc, data + f->offset, f->size < 4 ? f->size : 4);
		off = loc & 0xffff;
		n = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (uint64_t)f->offset + (uint64_t)f->size;
		if (off > size || n > size - off)
			return -ENOENT;
		if (s->kind == TK_DYN_TEXT)
			tc_text(data + off, (size_t)n, out);
		else
			tc_hex(s, (const unsigned char *)data + off, (size_t)n, out);
		return 0;
	case TK_COMM:
		comm = tep_data_comm_from_pid(tc->tep, (int)ev->pid);
		value_set_str(out, comm, strlen(comm));
		return 0;
	case TK_CPU:
		value_set_u64(out, ev->cpu);
		return 0;
	case TK_NAME:
		comm = ev->type->name ? ev->type->name : "UNKNOWN";
		value_set_str(out, comm, strlen(comm));
		return 0;
	case TK_ID:
		if (ev->type == &tc->unknown && tc->type_size &&
		    tc->type_off + tc->type_size <= rec->size)
			value_set_u64(out, tc_read(tc, data + tc->type_off,
						   tc->type_size));
		else
			value_set_u64(out, ev->type->id);
		return 0;
	case TK_INFO:
		comm = tc_info(tc, rec, &len);
		value_set_str(out, comm, len);
		return 0;
	}
	return -ENOENT;
}

static int tc_each_type(struct source *src,
			int (*fn)(const struct event_type *t, void *arg),
			void *arg)
{
	struct tc *tc = src->priv;
	uint32_t i;
	int ret;

	for (i = 0; i < tc->ntypes; i++) {
		ret = fn(&tc->types[i].t, arg);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static size_t tc_fields(struct source *src, const struct event_type *t,
			const char **names, size_t max)
{
	static const char *const pseudo[] = {
		"comm", "id", "info", "common_comm", "common_cpu", "common_name",
	};
	struct tc *tc = src->priv;
	const struct tep_format_field *f;
	struct tep_event *ev = NULL;
	size_t n = 0, i;

	if (t && t != &tc->unknown && t->index < tc->ntypes)
		ev = tc->types[t->index].ev;
	if (ev)
		for (f = ev->format.fields; f && n < max; f = f->next)
			names[n++] = f->name;
	for (i = 0; i < sizeof(pseudo) / sizeof(pseudo[0]) && n < max; i++)
		if (!ev || !tep_find_field(ev, pseudo[i]))	/* shadowed */
			names[n++] = pseudo[i];
	for (f = ev ? ev->format.common_fields : tc->any; f && n < max;
	     f = f->next)
		names[n++] = f->name;
	return n;
}

/* ---------------------------------------------------------- default */

static size_t tc_dec(char *p, uint64_t v)
{
	char tmp[24];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		p[i] = tmp[n - 1 - i];
	return n;
}

/* v right-aligned in width, zero-padded when zero is set */
static size_t tc_dec_w(char *p, uint64_t v, size_t width, char pad)
{
	char tmp[24];
	size_t n = tc_dec(tmp, v), i = 0;

	for (; i + n < width; i++)
		p[i] = pad;
	memcpy(p + i, tmp, n);
	return i + n;
}

/*
 * As `trace-cmd report` prints it (tracecmd/trace-read.c: "%16s-%-5d
 * [%03d]", then " %6.1000d:" for the clocks it knows as nanoseconds, else
 * "%12d:", then " NAME: " padded to 20, then the info):
 *
 *        guest-8051  [001]  5944.565697: kvm_pio:              pio_write ...
 */
static int tc_render_default(struct source *src, const struct event *ev,
			     struct outbuf *o)
{
	struct tep_record *rec = (struct tep_record *)ev->rec;
	struct tc *tc = src->priv;
	const char *comm = tep_data_comm_from_pid(tc->tep, (int)ev->pid);
	const char *name = ev->type->name ? ev->type->name : "UNKNOWN";
	size_t clen = strlen(comm), nlen = strlen(name), ilen, i;
	const char *info = tc_info(tc, rec, &ilen);
	uint64_t pidmag;
	char *p, *start;

	p = outbuf_reserve(o, 64 + clen + 16 + 80 + nlen + 24 + ilen + 2);
	if (!p)
		return -ENOMEM;
	start = p;
	if (rec->missed_events) {
		memcpy(p, "CPU:", 4);
		p += 4;
		p += tc_dec(p, ev->cpu);
		if (rec->missed_events > 0) {
			memcpy(p, " [", 2);
			p += 2;
			p += tc_dec(p, (uint64_t)rec->missed_events);
			memcpy(p, " EVENTS DROPPED]\n", 17);
			p += 17;
		} else {
			memcpy(p, " [EVENTS DROPPED]\n", 18);
			p += 18;
		}
	}
	for (i = clen; i < 16; i++)
		*p++ = ' ';
	memcpy(p, comm, clen);
	p += clen;
	*p++ = '-';
	/* %-5d */
	i = 0;
	if (ev->pid < 0)
		p[i++] = '-';
	pidmag = ev->pid < 0 ? -(uint64_t)ev->pid : (uint64_t)ev->pid;
	i += tc_dec(p + i, pidmag);
	for (; i < 5; i++)
		p[i] = ' ';
	p += i;
	memcpy(p, " [", 2);
	p += 2;
	p += tc_dec_w(p, ev->cpu, 3, '0');
	*p++ = ']';
	if (tc->usecs) {
		/*
		 * libtraceevent 1.7: microseconds, rounded, always as s.us
		 * ("%5llu.%06llu"; older ones printed "%12llu" below 1 s)
		 */
		uint64_t us = (rec->ts + 500) / 1000;

		*p++ = ' ';
		p += tc_dec_w(p, us / 1000000, 5, ' ');
		*p++ = '.';
		p += tc_dec_w(p, us % 1000000, 6, '0');
	} else {
		p += tc_dec_w(p, rec->ts, 12, ' ');
	}
	memcpy(p, ": ", 2);
	p += 2;
	memcpy(p, name, nlen);
	p += nlen;
	memcpy(p, ": ", 2);
	p += 2;
	for (i = nlen; i < 20; i++)
		*p++ = ' ';
	memcpy(p, info, ilen);
	p += ilen;
	*p++ = '\n';
	outbuf_commit(o, (size_t)(p - start));
	return 0;
}

const struct source_ops source_tracecmd_ops = {
	.kind = "trace.dat",
	.probe = tc_probe,
	.open = tc_open,
	.next = tc_next,
	.close = tc_close,
	.bind = tc_bind,
	.field = tc_field,
	.each_type = tc_each_type,
	.fields = tc_fields,
	.render_default = tc_render_default,
};
