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
 * Fields: tracecmd-fields.c; the line trace-cmd report prints:
 * tracecmd-text.c; host and guest: tracecmd-vm.c.
 *
 * Only functions the installed headers declare. None of them tells the
 * trace clock, so tracedat-file.c reads it from the file's options. Around
 * libtracecmd 1.3.1's rough edges: its words on standard output are muted
 * while a file opens, the layout is checked before libtracecmd reads it
 * (a v6 file with truncated CPU data makes tracecmd_close() crash after
 * tracecmd_init_data(); see tracedat-file.c), and the current record is
 * freed before its CPU is read again (see tc_next() in tracecmd-read.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-cmd.h>
#include <trace-seq.h>

#include "diag.h"
#include "outbuf.h"
#include "source.h"
#include "tracecmd.h"
#include "symtab.h"
#include "tracedat-file.h"
#include "tracedat-guard.h"
#include "tracedat-shrink.h"

static bool tc_probe(const char *path, const unsigned char *head, size_t len,
		     bool is_dir)
{
	static const unsigned char magic[TC_MAGIC_LEN] = {
		0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'
	};

	return !is_dir && head && len >= TC_MAGIC_LEN &&
	       !memcmp(head, magic, TC_MAGIC_LEN);
}

/* The file's byte order, the largest record, where the common fields are. */
void tc_layout(struct tc *tc)
{
	struct tep_format_field *f;
	int page, sub;

	tc->swap = tep_is_file_bigendian(tc->tep) !=
		   tep_is_local_bigendian(tc->tep);
	page = tep_get_page_size(tc->tep);
	sub = tep_get_sub_buffer_size(tc->tep);
	tc->slots.rec_max = (size_t)(page > sub ? page : sub);
	if (tc->slots.rec_max < 4096)
		tc->slots.rec_max = 4096;
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

/* The events libtraceevent's sched_switch plugin learns comms from. */
static enum tc_learn tc_learn_kind(const struct tep_event *ev)
{
	if (!ev->system || !ev->name || strcmp(ev->system, "sched"))
		return TC_LEARN_NONE;
	if (!strcmp(ev->name, "sched_switch"))
		return TC_LEARN_SWITCH;
	if (!strcmp(ev->name, "sched_wakeup") ||
	    !strcmp(ev->name, "sched_wakeup_new"))
		return TC_LEARN_WAKEUP;
	return TC_LEARN_NONE;
}

int tc_load_types(struct tc *tc)
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
		t->learn = tc_learn_kind(ev);
		tc_learn_fields(t);
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

/* The message for what the child met. */
static int tc_guard_diag(struct source *src, const char *path,
			 const struct tracedat_file *f, int verdict,
			 struct diag *d)
{
	switch (verdict) {
	case TC_OPEN_NO_HEADERS:
	case TC_OPEN_NO_DATA:
		tc_explain(src, path, f, d);
		return -EIO;
	case TC_OPEN_LATENCY:
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
 * An empty file for an uncompressed copy, with no name anyone sees: an
 * O_TMPFILE in $TMPDIR (or /tmp), else a mkstemp() file unlinked at once.
 * So the copy goes away with the process however it ends, signals
 * included. libtracecmd opens it as "/proc/self/fd/N" (its public API
 * takes a path or a descriptor it then owns), in the child that opens it.
 */
static int tc_copy_file(struct tc *tc, const char **dir)
{
	char *name = NULL;
	int fd;

	*dir = getenv("TMPDIR");
	if (!*dir || !**dir)
		*dir = "/tmp";
#ifdef O_TMPFILE
	fd = open(*dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		goto named;
#endif
	if (asprintf(&name, "%s/kvmtrace_format-XXXXXX", *dir) < 0)
		return -ENOMEM;
	fd = mkostemp(name, O_CLOEXEC);
	if (fd < 0) {
		fd = -errno;
		free(name);
		return fd;
	}
	unlink(name);
	free(name);
#ifdef O_TMPFILE
named:
#endif
	if (asprintf(&tc->copy, "/proc/self/fd/%d", fd) < 0) {
		tc->copy = NULL;
		close(fd);
		return -ENOMEM;
	}
	tc->copy_fd = fd;
	return 0;
}

/*
 * A copy holds no kallsyms (tracedat_inflate_lean()): inflating and
 * parsing them is most of what opening a small file costs, and only
 * libtraceevent's text of an event (info) and the guest symbols look
 * symbols up. libtracecmd's public API cannot defer them
 * (tracecmd_open_head() reads every header, and trace-cmd.h has no flag
 * to skip one), so the copy leaves them out and they are read from the
 * file and parsed here, with the call libtracecmd makes, before the first
 * lookup. A table that turns out damaged ends this input at its next
 * event, with what is wrong and where (tc_late_failed()); the lookup that
 * needed it finds no symbol, as in a file without kallsyms.
 */
void tc_need_kallsyms(struct tc *tc)
{
	char *text;

	if (tc->proc_kallsyms) {
		tc->proc_kallsyms = false;
		text = tc_proc_kallsyms();
		if (text)
			tc_parse_kallsyms(tc->tep, &tc->funcs, text);
		return;
	}

	if (tc->kallsyms.fd < 0)
		return;
	diag_init(&tc->late_d);
	if (tracedat_kallsyms_read(tc->name, &tc->file, &tc->kallsyms, &text,
				   &tc->late_d) < 0) {
		tc->late = true;
		return;
	}
	if (text)
		tc_parse_kallsyms(tc->tep, &tc->funcs, text);	/* takes text */
}

bool tc_late_failed(const struct tc *tc, struct diag *d)
{
	if (!tc->late)
		return false;
	*d = tc->late_d;
	return true;
}

static void tc_drop_copy(struct tc *tc)
{
	if (tc->copy_fd >= 0)
		close(tc->copy_fd);
	tc->copy_fd = -1;
	free(tc->copy);
	tc->copy = NULL;
}

static void tc_drop_kallsyms(struct tc *tc)
{
	tracedat_kallsyms_drop(&tc->kallsyms);
}

/* A line more in src->note, for main.c to print. */
static int tc_add_note(struct source *src, const char *line)
{
	char *note;

	if (asprintf(&note, "%s%s%s", src->note ? src->note : "",
		     src->note ? "\n" : "", line) < 0)
		return -ENOMEM;
	free(src->note);
	src->note = note;
	return 0;
}

/*
 * A compressed version 7 file is read through an uncompressed copy made
 * by tracedat_inflate(), for two reasons: an algorithm this libtracecmd
 * lacks (Debian's decompresses zstd only; trace-cmd can also write zlib),
 * and zstd itself: libtracecmd 1.3.1 keeps every chunk it decompressed
 * (its free_zpage() never frees them), so its memory grows with the file
 * and its chunk lookups turn quadratic; from a copy it reads plain pages.
 * A zstd copy leaves kallsyms out (tc_need_kallsyms()).
 *
 * *path becomes the copy's. What is wrong with the file (damage, a
 * compression bomb, no room for the copy) stops the input with our
 * message: never a silent fall back to libtracecmd reading the file
 * itself, which would inflate what the file claims in memory. Only when
 * no copy file can be made at all is a zstd file left to libtracecmd,
 * after the same checks, and note says so (else it stays empty). Returns
 * 0, 1: no copy, or a negative errno with d filled.
 */
static int tc_copy_compressed(struct source *src, struct tc *tc,
			      const char **path, struct diag *note,
			      struct diag *d)
{
	bool zstd = !strcmp(tc->file.compression, "zstd");
	const char *dir;
	int ret, err;

	if (tc->file.version != 7 || !strcmp(tc->file.compression, "none"))
		return 1;
	err = tc_copy_file(tc, &dir);
	if (err < 0) {
		ret = tracedat_inflate(src->name, *path, -1, d); /* checks */
		if (ret < 0)
			return ret;
	}
	if (err < 0 && !zstd) {
		diag_set(d, "%s: compressed with '%s', which libtracecmd cannot read, and no room for an uncompressed copy in %s: %s",
			 src->name, tc->file.compression, dir, strerror(-err));
		return err;
	}
	if (err < 0) {
		diag_set(note, "no room for an uncompressed copy in %s (%s): libtracecmd reads the zstd file itself, holding every chunk it inflates in memory",
			 dir, strerror(-err));
		return 1;
	}
	if (zstd)
		ret = tracedat_inflate_lean(src->name, *path, tc->copy_fd,
					    &tc->kallsyms, d);
	else
		ret = tracedat_inflate(src->name, *path, tc->copy_fd, d);
	if (ret < 0)
		return ret;
	*path = tc->copy;
	return 0;
}

/*
 * Where each CPU's pages lie in the file libtracecmd reads, for going on
 * past a page it cannot read (tracecmd-read.c): the file's own table, or
 * for a copy the copy's; none for a compressed file read as it is.
 */
static void tc_page_ranges(struct source *src, struct tc *tc, bool copied)
{
	struct tracedat_file cf;
	struct diag scratch;

	if (copied) {
		memset(&cf, 0, sizeof(cf));
		diag_init(&scratch);
		free(tc->file.cpus);
		tc->file.cpus = NULL;
		tc->file.ncpus = 0;
		if (tracedat_file_read(src->name, tc->copy, &cf, &scratch) == 0) {
			tc->file.cpus = cf.cpus;
			tc->file.ncpus = cf.ncpus;
			cf.cpus = NULL;
		}
		tracedat_file_free(&cf);
	} else if (tc->file.version == 7 &&
		   strcmp(tc->file.compression, "none")) {
		free(tc->file.cpus);
		tc->file.cpus = NULL;
		tc->file.ncpus = 0;
	}
}

/*
 * The buffers of the file: the top one, then each instance libtracecmd
 * opened (inst, names: taken, freed here), their CPUs as merge slots.
 * -ENOMEM or 0.
 */
static int tc_buffers(struct tc *tc, struct tracecmd_input **inst,
		      const char **names, int ninst)
{
	int i, n = 1, slot, c;

	tc->bufs = calloc((size_t)ninst + 1, sizeof(*tc->bufs));
	if (!tc->bufs) {
		for (i = 0; i < ninst; i++)
			if (inst[i])
				tracecmd_close(inst[i]);
		free(inst);
		free(names);
		return -ENOMEM;
	}
	tc->bufs[0].handle = tc->handle;
	tc->bufs[0].ncpus = tc->ncpus;
	tc->nslots = tc->ncpus;
	for (i = 0; i < ninst; i++) {
		if (!inst[i]) {
			/* said at the end (tc_end()), as bad data */
			if (!tc->nbadbufs++)
				tc->badbuf = names[i];
			continue;
		}
		/*
		 * the CPUs of the file (libtracecmd's public header has no
		 * tracecmd_cpus(); it returns no record past an instance's
		 * own CPUs)
		 */
		tc->bufs[n].handle = inst[i];
		tc->bufs[n].name = names[i];
		tc->bufs[n].start = tc->nslots;
		tc->bufs[n].ncpus = tc->ncpus;
		tc->nslots += tc->bufs[n].ncpus;
		n++;
	}
	tc->nbufs = n;
	free(inst);
	free(names);
	tc->slot = calloc(tc->nslots ? (size_t)tc->nslots : 1,
			  sizeof(*tc->slot));
	if (!tc->slot)
		return -ENOMEM;
	for (i = 0, slot = 0; i < n; i++)
		for (c = 0; c < tc->bufs[i].ncpus; c++, slot++) {
			tc->slot[slot].handle = tc->bufs[i].handle;
			tc->slot[slot].cpu = c;
			tc->slot[slot].buf = i;
		}
	return 0;
}

static int tc_open(struct source *src, const char *path, struct diag *d)
{
	struct tracecmd_input **inst = NULL;
	const char *user_path = path;
	const char **names = NULL;
	struct diag note;
	struct tc *tc;
	int verdict, ret = -ENOMEM, ninst = 0, i;
	struct stat st;
	bool copied;

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
	tc->name = src->name;
	tc->copy_fd = -1;
	tc->comm_gen = 1;	/* "<...>" cached too (tc_comm()) */
	tracedat_kallsyms_init(&tc->kallsyms);
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
	if (tc->file.hostname && !(src->hostname = strdup(tc->file.hostname)))
		goto nomem;
	diag_init(&note);
	ret = tc_copy_compressed(src, tc, &path, &note, d);
	if (ret < 0)
		goto error;
	/* opened once, in a child that goes on when it went well */
	verdict = tc_guarded_open_all(path, &tc->handle, &inst, &names,
				      &ninst, &src->note);
	if (verdict != TC_OPEN_OK) {
		/* what is wrong is said of the user's file, not of our copy */
		ret = tc_guard_diag(src, user_path, &tc->file, verdict, d);
		goto error;
	}
	if (note.len && tc_add_note(src, note.msg) < 0)
		goto nomem;
	if (stat(path, &st) == 0) {
		/* which mappings are the file's (tc_pageout(), tdshrink) */
		tc->map_dev = (uint64_t)st.st_dev;
		tc->map_ino = (uint64_t)st.st_ino;
		tdshrink_hold();	/* released in tc_close() */
		tc->shrink_hits = tdshrink_hits();
	}
	copied = tc->copy != NULL;
	tc_page_ranges(src, tc, copied);
	tc_drop_copy(tc);	/* libtracecmd holds it open */
	tc->tep = tracecmd_get_tep(tc->handle);
	tc->clock = tc->file.clock;
	/* trace-cmd split drops TRACECLOCK: libtracecmd then prints seconds */
	tc->usecs = tc->file.tsc2nsec || !tc->file.clock_option ||
		    tc_clock_usecs(tc->clock);
	ret = tc_load_types(tc);
	if (ret < 0)
		goto nomem;
	tc_layout(tc);

	tc->ncpus = tep_get_cpus(tc->tep);
	if (tc->ncpus < 0)
		tc->ncpus = 0;
	ret = tc_buffers(tc, inst, names, ninst);
	inst = NULL;
	names = NULL;
	if (ret < 0)
		goto nomem;
	tc->next = calloc(tc->nslots ? (size_t)tc->nslots : 1, sizeof(*tc->next));
	tc->heap = calloc(tc->nslots ? (size_t)tc->nslots : 1, sizeof(*tc->heap));
	tc->last_off = calloc(tc->nslots ? (size_t)tc->nslots : 1,
			      sizeof(*tc->last_off));
	if (!tc->next || !tc->heap || !tc->last_off)
		goto nomem;
	if (tc->file.version == 6 || !strcmp(tc->file.compression, "none") ||
	    copied) {
		long ps = sysconf(_SC_PAGESIZE);

		tc->sys_page = ps > 0 ? (uintptr_t)ps : 4096;
		tc->behind = calloc(tc->nslots ? (size_t)tc->nslots : 1,
				    sizeof(*tc->behind));
		if (!tc->behind)
			goto nomem;
		tc_pages_init(tc, tc->map_ino && st.st_size > 0
					  ? (uint64_t)st.st_size
					  : 0);
	}

	src->clock = tc->file.tsc2nsec ? CLOCK_NS : tc_clock_kind(tc->clock);
	src->ntypes = tc->ntypes + 1;
	tc->guard = tdguard_create(src->name, "trace.dat");
	if (!tc->guard)
		goto nomem;
	return 0;
nomem:
	diag_set(d, "%s: out of memory", src->name);
	ret = -ENOMEM;
error:
	for (i = 0; inst && i < ninst; i++)
		if (inst[i])
			tracecmd_close(inst[i]);
	free(inst);
	free(names);
	tc_close(src);
	return ret;
}

static void tc_close(struct source *src)
{
	struct tc *tc = src->priv;
	int cpu;

	if (!tc)
		return;
	if (tc->cur && !tc_pages_own(tc, tc->cur, tc->refill))
		tracecmd_free_record(tc->cur);
	for (cpu = 0; tc->next && cpu < tc->nslots; cpu++)
		if (tc->next[cpu] && !tc_pages_own(tc, tc->next[cpu], cpu))
			tracecmd_free_record(tc->next[cpu]);
	tc_pages_free(tc);	/* before the handles */
	tc_vm_close(tc);
	/* the instances hold a reference to the top handle: first */
	for (cpu = 1; cpu < tc->nbufs; cpu++)
		tracecmd_close(tc->bufs[cpu].handle);
	free(tc->bufs);
	free(tc->slot);
	if (tc->handle)
		tracecmd_close(tc->handle);
	tepf_slots_free(&tc->slots);
	free(tc->next);
	free(tc->heap);
	free(tc->last_off);
	free(tc->behind);
	free(tc->by_id);
	free(tc->sparse);
	tc_types_free(tc);
	free(tc->types);
	trace_seq_destroy(&tc->info);
	tdguard_destroy(tc->guard);
	if (tc->map_ino)
		tdshrink_release();
	tracedat_file_free(&tc->file);
	tc_drop_copy(tc);
	tc_drop_kallsyms(tc);
	tc_funcs_free(&tc->funcs);	/* after the handle: tep's resolver */
	free(tc);
	src->priv = NULL;
}

/* A guest's kallsyms names the functions its exits interrupt (sinks). */
static const char *tc_func_at(struct source *src, uint64_t addr)
{
	struct tc *tc = src->priv;

	if (tc)
		tc_need_kallsyms(tc);
	return tc && tc->tep && tep_find_function_address(tc->tep, addr)
		       ? tep_find_function(tc->tep, addr)
		       : NULL;
}

const struct source_ops source_tracecmd_ops = {
	.kind = "trace.dat",
	.probe = tc_probe,
	.open = tc_open,
	.next = tc_next,
	.close = tc_close,
	.bind = tc_bind,
	.field = tc_field,
	.field_at = tc_field_at,
	.field_symbol = tc_field_symbol,
	.each_type = tc_each_type,
	.fields = tc_fields,
	.render_default = tc_render_default,
	.render_header = tc_render_header,
	.func_at = tc_func_at,
};
