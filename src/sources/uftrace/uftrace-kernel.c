// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uftrace: the kernel function records of `uftrace record -k`
 * (utils/kernel.c of uftrace 0.13), read through libtraceevent:
 *
 *   kernel_header     "PAGE_SIZE: N", "LONG_SIZE: N", "ENDIAN: LE|BE"
 *                     lines, then "TRACEFS: NAME: LEN" and LEN bytes of
 *                     events/header_page and the formats of
 *                     events/ftrace/funcgraph_entry, funcgraph_exit (and
 *                     of other events recorded with -E)
 *   kernel-cpuN.dat   ftrace ring-buffer pages of PAGE_SIZE bytes, read
 *                     with kbuffer (u64 time stamp, commit, events)
 *   kallsyms          /proc/kallsyms when recorded: the functions' names
 *
 * As uftrace does, the files are every "kernel-cpu*" name sorted by the
 * number after "kernel-cpu", and numbered by their place in that list
 * (kernel-cpu92.dat is cpu 91 when another is missing). A record's time
 * is the ring buffer's; its function address is kept in 48 bits, as in
 * uftrace's records, and named (as "<ADDR>" without a symbol) after the
 * kernel base address of the first session's map ([stack] line) is put
 * back. Each file streams like a task (struct uft_task with kern set) in
 * the reader's heap; a record belongs to the task of its common_pid. The
 * dump (a lone input) prints the records of every pid; merged with others,
 * or through rules, as uftrace report counts them, those of tasks that
 * the recording does not list (tid 0) are left out.
 *
 * Records of other kernel events (record -k -E) are events of their task
 * (common_pid, else a next_pid or pid field that names a task, as
 * read_kernel_cpu_data() finds it) whose text is the info of their print
 * fmt; it travels as the record's payload (t->pay).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>
#include <sys/stat.h>

#include "uftrace-int.h"
#include "uftrace-walk.h"

#ifdef HAVE_TRACECMD
#include <event-parse.h>
#include <kbuffer.h>
#endif

#define UFT_KMAX_CPUS		4096
#define UFT_KPAGE_MAX		(1u << 16)	/* Linux pages: 64 KiB at most */
#define UFT_KSLACK		64	/* zeros after a page: fields read past its end */
/*
 * An event printed through its print fmt is copied first into zeros that
 * any offset it can hold stays within: fields end by 64 KiB, and a
 * __data_loc or __rel_loc adds a 16-bit offset and a 16-bit length.
 */
#define UFT_KFIELD_END		65536
#define UFT_KSCRATCH		(4 * 65536 + UFT_KSLACK)

struct uft_kfield {
	int off;
	int size;		/* 0: absent */
};

struct uft_kernel {
	char **names;		/* owned, each owned: kernel-cpu*.dat, in order */
	size_t n;
	bool ready;		/* kernel_header read: dump prints the files */
#ifdef HAVE_TRACECMD
	struct tep_handle *tep;
#endif
	uint32_t pagesize;
	int long_size;
	bool big;
	int entry_id, exit_id;
	struct uft_kfield e_func, e_depth, x_func, x_depth, x_call, x_ret;
	uint64_t kbase;		/* kernel base of the first session's map */
	struct uft_symtab *ksyms;	/* owned: kallsyms */
#ifdef HAVE_TRACECMD
	struct trace_seq seq;	/* the text of an event */
	bool seq_init;
	unsigned char *scratch;	/* owned: an event's copy, for its print fmt */
	size_t scratch_used;
#endif
};

static long uft_kcpu_num(const char *name)
{
	return strtol(name + sizeof("kernel-cpu") - 1, NULL, 0);
}

static int uft_kname_cmp(const void *a, const void *b)
{
	long x = uft_kcpu_num(*(char *const *)a);
	long y = uft_kcpu_num(*(char *const *)b);

	if (x != y)
		return x < y ? -1 : 1;
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The kernel-cpu* files of a directory whose info has the KERNEL
 * feature, as setup_kernel_data() lists them. Returns how many.
 */
size_t uft_kernel_count(struct uftrace *uf)
{
	struct uft_kernel *k;
	struct dirent *de;
	DIR *dir;

	if (!(uf->hdr.feat & 4))	/* the KERNEL feature */
		return 0;
	k = calloc(1, sizeof(*k));
	if (!k)
		return 0;
	uf->kernel = k;
	dir = opendir(uf->dir);
	while (dir && (de = readdir(dir)) && k->n < UFT_KMAX_CPUS) {
		if (strncmp(de->d_name, "kernel-cpu", 10))
			continue;
		if (uft_grow(&k->names, k->n, sizeof(*k->names)))
			break;
		k->names[k->n] = strdup(de->d_name);
		if (!k->names[k->n])
			break;
		k->n++;
	}
	if (dir)
		closedir(dir);
	if (k->n)
		qsort(k->names, k->n, sizeof(*k->names), uft_kname_cmp);
	return k->n;
}

const char *uft_kernel_name(const struct uftrace *uf, size_t i)
{
	return uf->kernel && i < uf->kernel->n ? uf->kernel->names[i] : NULL;
}

bool uft_kernel_ready(const struct uftrace *uf)
{
	return uf->kernel && uf->kernel->ready;
}

/* The kernel base address from the first session's [stack] mapping. */
static uint64_t uft_kernel_base(struct uftrace *uf)
{
	uint64_t base = 0, a;
	struct uft_lines it;
	char *path, *buf, *line;

	if (!uf->nsess || !uf->sess[0].map)
		return 0;
	path = uft_pathf(uf, "sid-%s.map", uf->sess[0].map->sid);
	if (!path || uft_read_file(path, &buf, NULL) < 0) {
		free(path);
		return 0;
	}
	it = (struct uft_lines){ buf, buf + strlen(buf), 0 };
	while ((line = uft_line(&it))) {
		char *name = strchr(line, '[');

		if (!name || strncmp(name, "[stack", 6))
			continue;
		/* utils/symbol.c: guess_kernel_base() */
		a = strtoull(line, NULL, 16);
		base = a < 0x40000000u ? 0x40000000u :
		       a < 0x80000000u ? 0x80000000u :
		       a < 0xB0000000u ? 0xB0000000u :
		       a < 0xC0000000u ? 0xC0000000u :
		       a < UINT64_C(0x8000000000) ? UINT64_C(0xFFFFFF8000000000) :
		       a < UINT64_C(0x40000000000) ? UINT64_C(0xFFFFFC0000000000) :
		       a < UINT64_C(0x800000000000) ? UINT64_C(0xFFFF800000000000) :
						      UINT64_C(0xFFFF000000000000);
		break;
	}
	free(buf);
	free(path);
	return base;
}

/* The symbol of a kernel record's (48-bit) address; *full: its address. */
struct uft_sym *uft_kernel_sym(struct uftrace *uf, uint64_t addr,
			       uint64_t *full)
{
	struct uft_kernel *k = uf->kernel;

	*full = (addr & UFT_ADDR_MASK) | (k ? k->kbase : 0);
	if (!k || !k->ksyms)
		return NULL;
	return uft_find_sym(uf, k->ksyms, *full);
}

void uft_kernel_close(struct uftrace *uf)
{
	struct uft_kernel *k = uf->kernel;
	size_t i;

	if (!k)
		return;
	for (i = 0; uf->tasks && i < k->n; i++) {
		struct uft_task *t = &uf->tasks[uf->ntasks + uf->nperf + i];

#ifdef HAVE_TRACECMD
		if (t->kbuf)
			kbuffer_free(t->kbuf);
#endif
		t->kbuf = NULL;
		free(t->kpage);
		t->kpage = NULL;
		free(t->path);
		t->path = NULL;
		if (t->kern && t->fd >= 0)
			close(t->fd);
		if (t->kern)
			t->fd = -1;
	}
	for (i = 0; i < k->n; i++)
		free(k->names[i]);
	free(k->names);
	if (k->ksyms)
		uft_free_symtab(k->ksyms);
#ifdef HAVE_TRACECMD
	if (k->seq_init)
		trace_seq_destroy(&k->seq);
	free(k->scratch);
	if (k->tep)
		tep_free(k->tep);
#endif
	free(k);
	uf->kernel = NULL;
}

#ifdef HAVE_TRACECMD

static uint64_t uft_kread(bool big, const unsigned char *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
	return v;
}

static void uft_kfield(struct tep_event *ev, const char *name,
		       struct uft_kfield *f)
{
	struct tep_format_field *fl = ev ? tep_find_field(ev, name) : NULL;

	f->size = 0;
	if (fl && fl->offset >= 0 && fl->size > 0 && fl->size <= 8 &&
	    fl->offset <= 0xffff) {
		f->off = fl->offset;
		f->size = fl->size;
	}
}

/* The common fields libtraceevent reads of every event: in its header. */
static bool uft_kcommon_ok(struct tep_event *e)
{
	static const char *const names[] = { "common_type", "common_pid" };
	size_t i;

	for (i = 0; i < 2; i++) {
		struct tep_format_field *f = tep_find_common_field(e, names[i]);

		if (!f || f->offset < 0 || f->size <= 0 || f->offset + f->size > 8)
			return false;
	}
	return true;
}

/*
 * kernel_header, as load_kernel_files() reads it. Returns 0, or -1 with
 * a problem noted.
 */
static int uft_kernel_header(struct uftrace *uf, struct uft_kernel *k)
{
	char *path = uft_path(uf, "kernel_header"), *buf = NULL, *p, *end;
	struct tep_event *ev;
	size_t len = 0;
	int ret;

	if (!path)
		return -1;
	ret = uft_read_file(path, &buf, &len);
	if (ret < 0) {
		uft_problem(uf, "%s: cannot read: %s; the kernel records of uftrace record -k are left out",
			    path, strerror(-ret));
		goto fail;
	}
	k->pagesize = 4096;
	k->long_size = 8;
	tep_set_long_size(k->tep, 8);
	tep_set_page_size(k->tep, 4096);
	tep_set_local_bigendian(k->tep, TEP_LITTLE_ENDIAN);
	tep_set_file_bigendian(k->tep, TEP_LITTLE_ENDIAN);
	p = buf;
	end = buf + len;
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p)), *colon, *val;
		unsigned long long n;

		if (!nl)
			nl = end;
		*nl = '\0';
		colon = strchr(p, ':');
		if (strncmp(p, "TRACEFS: ", 9)) {
			val = colon ? colon + 1 + strspn(colon + 1, " ") : NULL;
			if (!strncmp(p, "PAGE_SIZE:", 10) && val) {
				n = strtoull(val, NULL, 0);
				if (n < 64 || n > UFT_KPAGE_MAX) {
					uft_problem(uf, "%s: offset 0x%zx: PAGE_SIZE %llu (64 to %u); the kernel records are left out",
						    path, (size_t)(p - buf), n, UFT_KPAGE_MAX);
					goto fail;
				}
				k->pagesize = (uint32_t)n;
				tep_set_page_size(k->tep, (int)n);
			} else if (!strncmp(p, "LONG_SIZE:", 10) && val) {
				k->long_size = strtol(val, NULL, 0) == 4 ? 4 : 8;
				tep_set_long_size(k->tep, k->long_size);
			} else if (!strncmp(p, "ENDIAN:", 7) && val) {
				k->big = !strcmp(val, "BE");
				tep_set_file_bigendian(k->tep, k->big ? TEP_BIG_ENDIAN
								      : TEP_LITTLE_ENDIAN);
			}
			p = nl + 1;
			continue;
		}
		/* "TRACEFS: NAME: LEN", then LEN bytes */
		colon = strrchr(p + 9, ':');
		n = colon ? strtoull(colon + 1, NULL, 10) : ULLONG_MAX;
		if (!colon || n > (unsigned long long)(end - nl - 1)) {
			uft_problem(uf, "%s: offset 0x%zx: not a \"TRACEFS: NAME: LEN\" line with LEN bytes after it; the kernel records are left out",
				    path, (size_t)(p - buf));
			goto fail;
		}
		*colon = '\0';
		val = nl + 1;
		if (!strcmp(p + 9, "events/header_page")) {
			tep_parse_header_page(k->tep, val, (unsigned long)n,
					      k->long_size);
		} else if (!strncmp(p + 9, "events/", 7)) {
			char sys[64];
			const char *s = p + 16, *slash = strchr(s, '/');

			if (slash && (size_t)(slash - s) < sizeof(sys)) {
				struct tep_event *e = NULL;

				memcpy(sys, s, (size_t)(slash - s));
				sys[slash - s] = '\0';
				if (tep_parse_format(k->tep, &e, val, (unsigned long)n,
						     sys) == 0 && e &&
				    !uft_kcommon_ok(e)) {
					uft_problem(uf, "%s: offset 0x%zx: the common_type or common_pid field of %s lies past the 8-byte event header; the kernel records are left out",
						    path, (size_t)(val - buf), p + 9);
					goto fail;
				}
			}
		}
		p = val + n;
	}
	ev = tep_find_event_by_name(k->tep, "ftrace", "funcgraph_entry");
	k->entry_id = ev ? ev->id : -1;
	uft_kfield(ev, "func", &k->e_func);
	uft_kfield(ev, "depth", &k->e_depth);
	ev = tep_find_event_by_name(k->tep, "ftrace", "funcgraph_exit");
	k->exit_id = ev ? ev->id : -1;
	uft_kfield(ev, "func", &k->x_func);
	uft_kfield(ev, "depth", &k->x_depth);
	uft_kfield(ev, "calltime", &k->x_call);
	uft_kfield(ev, "rettime", &k->x_ret);
	free(buf);
	free(path);
	return 0;
fail:
	free(buf);
	free(path);
	return -1;
}

/* Set up the kernel-cpu files (after uft_setup_tasks() made room). */
int uft_kernel_setup(struct uftrace *uf)
{
	struct uft_kernel *k = uf->kernel;
	size_t i;

	if (!k || !k->n)
		return 0;
	k->tep = tep_alloc();
	if (!k->tep)
		return -ENOMEM;
	trace_seq_init(&k->seq);
	k->seq_init = true;
	if (uft_kernel_header(uf, k) < 0)
		return 0;	/* noted: the records are left out */
	k->ready = true;
	k->kbase = uft_kernel_base(uf);
	k->ksyms = calloc(1, sizeof(*k->ksyms));
	if (!k->ksyms)
		return -ENOMEM;
	k->ksyms->name = strdup("kallsyms");
	if (!k->ksyms->name)
		return -ENOMEM;
	k->ksyms->bare = true;
	for (i = 0; i < k->n; i++) {
		struct uft_task *t = &uf->tasks[uf->ntasks + uf->nperf + i];
		struct stat st;

		t->path = uft_path(uf, k->names[i]);
		if (!t->path)
			return -ENOMEM;
		t->kern = true;
		t->fd = -1;
		t->tid = -1;
		t->cpu = (uint32_t)uft_kcpu_num(k->names[i]);
		t->order = (uint32_t)(uf->ntasks + uf->nperf + i);
		t->tid_len = (uint8_t)snprintf(t->tid_text, sizeof(t->tid_text),
					       "%5d", -1);
		if (stat(t->path, &st) == 0 && S_ISREG(st.st_mode))
			t->fsize = (uint64_t)st.st_size;
		t->kbuf = kbuffer_alloc(k->long_size == 4 ? KBUFFER_LSIZE_4
							  : KBUFFER_LSIZE_8,
					k->big ? KBUFFER_ENDIAN_BIG
					       : KBUFFER_ENDIAN_LITTLE);
		if (!t->kbuf)
			return -ENOMEM;
		if (tep_is_old_format(k->tep))
			kbuffer_set_old_format(t->kbuf);
	}
	uf->nkern = k->n;
	return 0;
}

/* Read and load the page at t->koff. Returns 1, 0 at the end. */
static int uft_kernel_page(struct uftrace *uf, struct uft_task *t)
{
	const struct uft_kernel *k = uf->kernel;
	uint32_t hdr = k->long_size == 4 ? 12 : 16, ps = k->pagesize;
	uint64_t commit;
	size_t got = 0;

	if (t->koff >= t->fsize)
		return 0;
	/* a page per file that holds bytes, while it is read */
	if (!t->kpage) {
		t->kpage = malloc(ps + UFT_KSLACK);
		if (!t->kpage) {
			uf->nomem = true;
			return -1;
		}
	}
	if (t->fd < 0) {
		t->fd = open(t->path, O_RDONLY | O_CLOEXEC);
		if (t->fd < 0) {
			uft_problem(uf, "%s: cannot open: %s", t->path,
				    strerror(errno));
			return -1;
		}
	}
	memset(t->kpage, 0, ps + UFT_KSLACK);
	while (got < ps) {
		ssize_t n = pread(t->fd, t->kpage + got, ps - got,
				  (off_t)(t->koff + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			uft_problem(uf, "%s: offset 0x%" PRIx64 ": cannot read: %s",
				    t->path, t->koff + got, strerror(errno));
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	commit = k->long_size == 4 ? uft_kread(k->big, t->kpage + 8, 4)
				   : uft_kread(k->big, t->kpage + 8, 8);
	/* the low 27 bits: bytes of events (the others: missed-events flags) */
	if ((commit & ((1u << 27) - 1)) > ps - hdr) {
		uft_problem(uf, "%s: offset 0x%" PRIx64 ": ring-buffer page commits %" PRIu64 " bytes, more than its %u; the rest of the file is skipped",
			    t->path, t->koff + 8, commit & ((1u << 27) - 1),
			    ps - hdr);
		return -1;
	}
	kbuffer_load_subbuffer(t->kbuf, t->kpage);
	t->prec.klost = kbuffer_missed_events(t->kbuf);
	if (t->koff == 0)
		t->kfirst = kbuffer_curr_offset(t->kbuf) == 0x18 ?
				    kbuffer_read_event(t->kbuf, NULL) : NULL;
	t->koff += ps;
	return 1;
}

static uint64_t uft_kval(const struct uft_kernel *k, const unsigned char *d,
			 const struct uft_kfield *f)
{
	return tep_read_number(k->tep, d + f->off, f->size);
}

/* Whether every field of ev ends within UFT_KFIELD_END bytes. */
static bool uft_kfields_ok(struct tep_event *ev)
{
	struct tep_format_field *f;

	for (f = ev->format.common_fields; f; f = f->next)
		if (f->offset < 0 || f->size < 0 ||
		    f->offset > UFT_KFIELD_END - f->size)
			return false;
	for (f = ev->format.fields; f; f = f->next)
		if (f->offset < 0 || f->size < 0 ||
		    f->offset > UFT_KFIELD_END - f->size)
			return false;
	return true;
}

/* The tid of an event, as read_kernel_cpu_data() finds it. */
static int64_t uft_kevent_tid(struct uftrace *uf, struct tep_event *ev,
			      struct tep_record *rec)
{
	static const char *const alt[] = { "next_pid", "pid" };
	int64_t tid = tep_data_pid(uf->kernel->tep, rec);
	unsigned long long v;
	size_t i;

	for (i = 0; i < 2 && !uft_task_of(uf, tid); i++) {
		struct tep_format_field *f = tep_find_field(ev, alt[i]);

		if (f && f->offset >= 0 && f->size > 0 &&
		    f->offset + f->size <= rec->size &&
		    tep_read_number_field(f, rec->data, &v) == 0 &&
		    uft_task_of(uf, (int32_t)v))
			return (int32_t)v;
	}
	return tid;
}

/*
 * A record of another kernel event into t: 1, 0 to skip it (merged: no
 * task of its), -1 without memory.
 */
static int uft_kernel_event(struct uftrace *uf, struct uft_task *t,
			    struct tep_record *rec, int type)
{
	struct uft_kernel *k = uf->kernel;
	struct tep_event *ev = tep_find_event(k->tep, type);
	size_t len;

	t->prec.tid = uft_kevent_tid(uf, ev, rec);
	if (!uf->lone && !uft_task_of(uf, t->prec.tid))
		return 0;
	if (!uft_kfields_ok(ev)) {
		uft_problem(uf, "%s: offset 0x%" PRIx64 ": a field of %s:%s ends past 64 KiB; the rest of the file is skipped",
			    t->path,
			    t->koff - k->pagesize +
				    (uint64_t)kbuffer_curr_offset(t->kbuf),
			    ev->system, ev->name);
		return -1;
	}
	if (!k->scratch) {
		k->scratch = calloc(1, UFT_KSCRATCH);
		if (!k->scratch) {
			uf->nomem = true;
			return -1;
		}
	}
	memset(k->scratch, 0, k->scratch_used);
	k->scratch_used = (size_t)rec->size;
	memcpy(k->scratch, rec->data, (size_t)rec->size);
	rec->data = k->scratch;
	trace_seq_reset(&k->seq);
	tep_print_event(k->tep, &k->seq, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&k->seq);
	len = k->seq.len > 0 ? (size_t)k->seq.len : 0;
	if (len > t->paycap) {
		unsigned char *p = realloc(t->pay, len);

		if (!p) {
			uf->nomem = true;
			return -1;
		}
		t->pay = p;
		t->paycap = len;
	}
	if (len)
		memcpy(t->pay, k->seq.buffer, len);
	t->paylen = t->arglen = (uint32_t)len;
	t->pay_av = NULL;
	t->prec.kdur = 0;
	t->rec = (struct uft_rec){ .ts = rec->ts, .raw_ts = rec->ts,
				   .addr = (uint64_t)type, .type = UFT_EVENT };
	return 1;
}

/* "system:name" of a kernel event id, in buf. */
const char *uft_kernel_event_name(const struct uftrace *uf, uint64_t id,
				  char *buf, size_t len)
{
	struct tep_event *ev = uf->kernel && uf->kernel->tep ?
		tep_find_event(uf->kernel->tep, (int)id) : NULL;

	if (ev)
		snprintf(buf, len, "%s:%s", ev->system, ev->name);
	else
		snprintf(buf, len, "kernel_event:%" PRIu64, id);
	return buf;
}

int uft_kernel_advance(struct uftrace *uf, struct uft_task *t)
{
	struct uft_kernel *k = uf->kernel;
	unsigned long long ts;
	int32_t lost = 0;
	int ret;

	if (!t->kstarted) {
		t->prec.klost = 0;
		ret = uft_kernel_page(uf, t);
		if (ret <= 0)
			goto done;
		lost = t->prec.klost;
	}
	for (;;) {
		const struct uft_kfield *ff, *fd;
		struct tep_record rec;
		unsigned char *data = kbuffer_read_event(t->kbuf, &ts);
		int size, type;
		bool entry;

		if (!data) {
			ret = uft_kernel_page(uf, t);
			if (ret <= 0)
				goto done;
			lost = t->prec.klost;
			continue;
		}
		size = kbuffer_event_size(t->kbuf);
		/* what the page holds of it (a type_len 0 event states its length) */
		if (data >= t->kpage + k->pagesize)
			size = 0;
		else if (size > t->kpage + k->pagesize - data)
			size = (int)(t->kpage + k->pagesize - data);
		memset(&rec, 0, sizeof(rec));
		rec.ts = ts;
		rec.data = data;
		rec.size = size;
		rec.cpu = (int)t->cpu;
		type = size >= 8 ? tep_data_type(k->tep, &rec) : -1;
		entry = type == k->entry_id;
		if (type <= 0 || !tep_find_event(k->tep, type)) {
			/* read_kernel_cpu_data() stops there too */
			uft_problem(uf, "%s: offset 0x%" PRIx64 ": kernel event of type %d%s; the rest of the file is skipped",
				    t->path,
				    t->koff - k->pagesize +
					    (uint64_t)kbuffer_curr_offset(t->kbuf),
				    type, type <= 0 ? " (padding or no type)"
						    : " that kernel_header does not define");
			goto done;
		}
		if (!entry && type != k->exit_id) {
			ret = uft_kernel_event(uf, t, &rec, type);
			kbuffer_next_event(t->kbuf, NULL);
			if (ret < 0)
				goto done;
			if (!ret)
				continue;
			t->prec.klost = lost;
			t->prec.has_kext = false;
			t->kstarted = true;
			return 1;
		}
		t->paylen = t->arglen = 0;
		ff = entry ? &k->e_func : &k->x_func;
		fd = entry ? &k->e_depth : &k->x_depth;
		if (!ff->size || !fd->size || ff->off + ff->size > size ||
		    fd->off + fd->size > size) {
			uft_problem(uf, "%s: offset 0x%" PRIx64 ": %s record of %d bytes lacks the func or depth field of its format; the rest of the file is skipped",
				    t->path,
				    t->koff - k->pagesize +
					    (uint64_t)kbuffer_curr_offset(t->kbuf),
				    entry ? "funcgraph_entry" : "funcgraph_exit",
				    size);
			goto done;
		}
		t->prec.tid = tep_data_pid(k->tep, &rec);
		/* merged, as uftrace report: only the records of known tasks */
		if (!uf->lone && !uft_task_of(uf, t->prec.tid)) {
			kbuffer_next_event(t->kbuf, NULL);
			continue;
		}
		t->prec.pid = t->prec.ppid = 0;
		t->prec.klost = lost;
		t->prec.kdur = 0;
		if (!entry && k->x_call.size && k->x_ret.size &&
		    k->x_call.off + k->x_call.size <= size &&
		    k->x_ret.off + k->x_ret.size <= size) {
			uint64_t c = uft_kval(k, data, &k->x_call);
			uint64_t r = uft_kval(k, data, &k->x_ret);

			t->prec.kdur = r >= c ? r - c : 0;
		}
		/* dump_raw_kernel_rstack(): the time extend before the first */
		t->prec.has_kext = false;
		if (!t->kstarted && t->kfirst && t->koff == k->pagesize &&
		    (const unsigned char *)t->kfirst - 12 >= t->kpage) {
			const unsigned char *x = (const unsigned char *)t->kfirst - 12;
			uint32_t lower, upper;

			if ((x[0] & 0x1f) == 30) {
				memcpy(&lower, x, 4);
				memcpy(&upper, x + 4, 4);
				t->prec.kext = ((uint64_t)upper << 27) + (lower >> 5);
				t->prec.has_kext = true;
			}
		}
		t->kstarted = true;
		t->rec = (struct uft_rec){
			.ts = ts, .raw_ts = ts,
			.addr = uft_kval(k, data, ff) & UFT_ADDR_MASK,
			.depth = (uint32_t)uft_kval(k, data, fd),
			.type = entry ? UFT_ENTRY : UFT_EXIT,
		};
		kbuffer_next_event(t->kbuf, NULL);
		return 1;
	}
done:
	t->kstarted = true;
	free(t->kpage);
	t->kpage = NULL;
	uft_task_finish(t);
	return 0;
}

#else /* !HAVE_TRACECMD: the kernel records are left out, as the note says */

const char *uft_kernel_event_name(const struct uftrace *uf, uint64_t id,
				  char *buf, size_t len)
{
	snprintf(buf, len, "kernel_event:%" PRIu64, id);
	return buf;
}

int uft_kernel_setup(struct uftrace *uf)
{
	return 0;
}

int uft_kernel_advance(struct uftrace *uf, struct uft_task *t)
{
	uft_task_finish(t);
	return 0;
}

#endif
