// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uftrace: the perf events that `uftrace record` keeps in perf-cpuN.dat
 * (utils/perf.c): records of the kernel's perf ring buffer, each a
 * struct perf_event_header (u32 type, u16 misc, u16 size) and its body:
 *
 *   PERF_RECORD_SWITCH (14)  sample_id {u32 pid, u32 tid, u64 time};
 *                            misc SWITCH_OUT (0x2000), OUT_PREEMPT (0x4000)
 *   PERF_RECORD_FORK (7),    u32 pid, ppid, tid, ptid; u64 time
 *   PERF_RECORD_EXIT (4)
 *   PERF_RECORD_COMM (3)     u32 pid, tid; comm (NUL-padded to 8); then
 *                            sample_id, whose time is the record's last
 *                            8 bytes; misc COMM_EXEC (0x2000)
 *
 * Each file streams like a task (struct uft_task with perf set, in the
 * same heap). As uftrace does, events of tasks without a TID.dat are left
 * out, and records of other types are skipped.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fnmatch.h>
#include <sys/stat.h>

#include "uftrace-int.h"
#include "uftrace-walk.h"

#define UFT_PERF_HDR		8
#define UFT_PERF_MAX_CPUS	4096

enum {
	UFT_PR_COMM = 3,
	UFT_PR_EXIT = 4,
	UFT_PR_FORK = 7,
	UFT_PR_SWITCH = 14,
};

/* As `uftrace dump` names them, without "linux:" (uftrace.h order). */
const char *uft_perf_name(unsigned id)
{
	static const char *const names[UFT_NPERF] = {
		NULL, "sched-in", "sched-out", "schedule", "task-new",
		"task-exit", "task-name", "sched-out (pre-empted)",
	};

	return id < UFT_NPERF ? names[id] : NULL;
}

static int uft_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The perf-cpu*.dat files, as utils/perf.c's setup_perf_data() finds them
 * (glob(), in name order): the i-th is uftrace's perf-cpu<i> whatever its
 * name, so a missing perf-cpu0.dat leaves perf-cpu1.dat the first.
 * Their names go to uf->perf_names; returns how many, at most
 * UFT_PERF_MAX_CPUS (0 without memory: the events are left out).
 */
size_t uft_perf_count(struct uftrace *uf)
{
	DIR *dir = opendir(uf->dir);
	struct dirent *de;
	size_t n = 0;

	while (dir && (de = readdir(dir)) && n < UFT_PERF_MAX_CPUS) {
		if (fnmatch("perf-cpu*.dat", de->d_name, FNM_PERIOD))
			continue;
		if (uft_grow(&uf->perf_names, n, sizeof(*uf->perf_names)))
			break;
		uf->perf_names[n] = strdup(de->d_name);
		if (!uf->perf_names[n])
			break;
		n++;
	}
	if (dir)
		closedir(dir);
	uf->nperf_names = n;
	if (n)
		qsort(uf->perf_names, n, sizeof(*uf->perf_names), uft_name_cmp);
	return n;
}

/*
 * The kernel-cpuN.dat files of `uftrace record -k` that hold records
 * (ftrace ring-buffer pages of funcgraph_entry/exit events), which this
 * reader does not read: how many, and in *first the first one's name
 * (malloc'd; NULL when there are none).
 */
size_t uft_kernel_files(struct uftrace *uf, char **first)
{
	DIR *dir = opendir(uf->dir);
	struct dirent *de;
	struct stat st;
	size_t n = 0;
	char *path;

	*first = NULL;
	while (dir && (de = readdir(dir))) {
		if (fnmatch("kernel-cpu*.dat", de->d_name, FNM_PERIOD))
			continue;
		path = uft_path(uf, de->d_name);
		if (path && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_size > 0) {
			if (!n++)
				*first = strdup(de->d_name);
			else if (*first && strcmp(de->d_name, *first) < 0) {
				free(*first);
				*first = strdup(de->d_name);
			}
		}
		free(path);
	}
	if (dir)
		closedir(dir);
	return n;
}

int uft_perf_setup(struct uftrace *uf, struct uft_task *t, uint32_t cpu)
{
	t->path = uft_path(uf, uf->perf_names[cpu]);
	if (!t->path)
		return -ENOMEM;
	t->perf = true;
	t->fd = -1;
	t->cpu = cpu;
	t->tid = -1;
	return 0;
}

/* The task of tid (uf->tasks is in tid order), or NULL. */
struct uft_task *uft_task_of(struct uftrace *uf, int64_t tid)
{
	size_t lo = 0, hi = uf->ntasks;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (uf->tasks[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < uf->ntasks && uf->tasks[lo].tid == tid ? &uf->tasks[lo]
							   : NULL;
}

/*
 * Read the next perf event of t into t->rec and t->prec. Returns 1, or 0
 * at the end (or after a noted problem).
 */
int uft_perf_advance(struct uftrace *uf, struct uft_task *t)
{
	for (;;) {
		const unsigned char *p;
		struct uft_task *owner;
		uint32_t type, size, id;
		uint16_t misc;
		uint64_t off = uft_offset(t), ts;
		ssize_t have = uft_fill(uf, t, UFT_PERF_HDR);

		if (have < 0)
			goto fail;
		if (have == 0) {
			uft_task_finish(t);
			return 0;
		}
		if (have < UFT_PERF_HDR)
			goto truncated;
		p = t->buf + t->pos;
		type = uft_u32(uf, p);
		misc = uft_u16(uf, p + 4);
		size = uft_u16(uf, p + 6);
		if (size < UFT_PERF_HDR) {
			uft_problem(uf, "%s: offset 0x%" PRIx64 ": perf record of %" PRIu32 " bytes (8 at least); the rest of the file is skipped",
				    t->path, off, size);
			goto fail;
		}
		have = uft_fill(uf, t, size);
		if (have < 0)
			goto fail;
		if ((size_t)have < size)
			goto truncated;
		p = t->buf + t->pos;
		t->pos += size;
		memset(&t->prec, 0, sizeof(t->prec));
		switch (type) {
		case UFT_PR_SWITCH:
			if (size < UFT_PERF_HDR + 16)
				goto short_rec;
			t->prec.tid = (int32_t)uft_u32(uf, p + 12);
			ts = uft_u64(uf, p + 16);
			id = !(misc & 0x2000) ? UFT_PERF_SCHED_IN :
			     misc & 0x4000 ? UFT_PERF_SCHED_OUT_PREEMPT
					   : UFT_PERF_SCHED_OUT;
			break;
		case UFT_PR_FORK:
		case UFT_PR_EXIT:
			if (size < UFT_PERF_HDR + 24)
				goto short_rec;
			t->prec.pid = (int32_t)uft_u32(uf, p + 8);
			t->prec.ppid = (int32_t)uft_u32(uf, p + 12);
			t->prec.tid = (int32_t)uft_u32(uf, p + 16);
			ts = uft_u64(uf, p + 24);
			id = type == UFT_PR_FORK ? UFT_PERF_TASK : UFT_PERF_EXIT;
			break;
		case UFT_PR_COMM:
			if (size < UFT_PERF_HDR + 8 + 16)	/* no comm at all */
				goto short_rec;
			t->prec.pid = (int32_t)uft_u32(uf, p + 8);
			t->prec.tid = (int32_t)uft_u32(uf, p + 12);
			memcpy(t->prec.comm, p + 16,
			       size - 32 < 16 ? size - 32 : 16);
			t->prec.exec = misc & 0x2000;
			ts = uft_u64(uf, p + size - 8);
			id = UFT_PERF_COMM;
			break;
		default:
			continue;	/* other kinds of records */
		}
		owner = uft_task_of(uf, t->prec.tid);
		if (!owner || owner->nofile)
			continue;
		t->rec = (struct uft_rec){ .ts = ts, .addr = UFT_EVENT_PERF + id,
					   .type = UFT_EVENT };
		return 1;
short_rec:
		uft_problem(uf, "%s: offset 0x%" PRIx64 ": perf record type %" PRIu32 " of %" PRIu32 " bytes is too short; skipped",
			    t->path, off, type, size);
	}
truncated:
	uft_problem(uf, "%s: offset 0x%" PRIx64 ": truncated perf record",
		    t->path, uft_offset(t));
fail:
	uft_task_finish(t);
	return 0;
}
