// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uftrace data directories, as `uftrace record`, QEMU's uftrace plugin
 * (contrib/plugins/uftrace.c) and rftrace (hermit-os) write them:
 *
 *   info           "Ftrace!\0", u32 version (3, 4), u16 header size, u8
 *                  endian (1 little, 2 big), u8 ELF class (1, 2), u64
 *                  feature mask, u64 info mask, ...; then "key:value" lines
 *   task.txt       SESS, TASK, FORK and DLOP lines
 *   sid-SID.map    the memory map of a session (/proc/PID/maps lines)
 *   NAME.sym       symbols: "ADDR TYPE NAME" or "ADDR SIZE TYPE NAME"
 *   NAME.dbg       debug info; its "A:" and "R:" lines are auto-args specs
 *   events.txt     names of user events ("EVENT: ID PROVIDER:NAME")
 *   TID.dat        the records of one task, 16 bytes each:
 *                    u64 time
 *                    u64 type:2 more:1 magic:3 (= 5) depth:10 addr:48
 *                  With "more" set a payload follows, padded to 8 bytes:
 *                  event data (u16 size, data) or the arguments or return
 *                  value of the function, laid out by its argument spec
 *                  (libmcount/record.c: no length; a string is u16 length
 *                  then text, every value padded to 4 bytes).
 *
 * The tasks' records merge into one time order on a small heap (ties: tid
 * order, then file order). Depth and duration come from a call stack kept
 * per task, since the depth field of some writers is wrong (QEMU's plugin
 * counts from 1 and stamps exits with the caller's depth; rftrace writes 0).
 * Only the metadata files are read whole; the .dat files stream through a
 * small buffer each.
 *
 * The reader is split by concern: see uftrace-int.h.
 *
 * Problems in the data do not stop the other tasks: each is noted where it
 * was found (file and offset, or file and line), the task concerned stops
 * there, and next() reports them all after the last good event.
 */
#include <errno.h>
#include <inttypes.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "outbuf.h"
#include "pyfmt.h"
#include "uftrace-int.h"
#include "uftrace-walk.h"

/* ------------------------------------------------------------ source ops */

static bool uft_probe(const char *path, const unsigned char *head, size_t len,
		      bool is_dir)
{
	/* source_detect() checked the "Ftrace!" magic of DIR/info */
	return is_dir;
}

static void uft_close(struct source *src);

static int uft_open(struct source *src, const char *path, struct diag *d)
{
	struct uft_tinfo *tinfo = NULL;
	struct uftrace *uf;
	int64_t *tids = NULL;
	size_t ntids = 0, ntinfo = 0, len, i, nkernel;
	char *kfirst = NULL;
	int ret;

	if (!path) {
		diag_set(d, "uftrace data is a directory; it cannot come from standard input");
		return -EINVAL;
	}
	uf = calloc(1, sizeof(*uf));
	if (uf)
		uf->sec_key = UINT64_MAX;
	if (!uf)
		goto nomem;
	src->priv = uf;
	uf->demangle = src->demangle;
	uf->dir = strdup(path);
	if (!uf->dir)
		goto nomem;
	len = strlen(uf->dir);
	while (len > 1 && uf->dir[len - 1] == '/')
		uf->dir[--len] = '\0';
	for (i = 0; i < UFT_NTYPES; i++) {
		uf->types[i].index = (uint32_t)i;
		uf->types[i].system = "uftrace";
		uf->types[i].name = uft_type_names[i].name;
	}
	/* perf events: linux:sched-in and the others, as uftrace names them */
	for (i = 0; i < UFT_NPERF; i++) {
		struct event_type *et = &uf->types[UFT_NTYPES + i];

		et->index = (uint32_t)(UFT_NTYPES + i);
		et->system = "linux";
		et->name = uft_perf_name((unsigned)i) ? uft_perf_name((unsigned)i)
						      : "unknown";
		/* listed by each_type whether perf events were recorded or not */
		et->possible = true;
	}
	uf->types[UFT_TEXT].index = UFT_TEXT;
	uf->types[UFT_TEXT].system = "uftrace";
	uf->types[UFT_TEXT].name = "dump-text";
	src->ntypes = UFT_TEXT + 1;
	uf->lone = src->lone;

	ret = uft_read_info(uf, src->name, &tids, &ntids, d);
	if (ret < 0)
		goto error;
	if (uf->cmdline && !strcmp(uf->cmdline, "fakeuftrace"))
		uf->writer = UFT_WRITER_RFTRACE;
	uft_read_opts(uf);
	ret = uft_read_tasks(uf, &tinfo, &ntinfo);
	if (ret == 0)
		ret = uft_index_sessions(uf);
	if (ret == 0)
		ret = uft_read_events(uf);
	if (ret < 0)
		goto nomem;
	if (!tids) {
		/* no taskinfo in info: the tasks of task.txt, else the files */
		for (i = 0; i < ntinfo; i++) {
			if (uft_grow(&tids, ntids, sizeof(*tids)))
				goto nomem;
			tids[ntids++] = tinfo[i].tid;
		}
		if (!ntids && uft_scan_tids(uf, &tids, &ntids) < 0)
			goto nomem;
	}
	nkernel = uf->writer == UFT_WRITER_UFTRACE ? uft_kernel_count(uf) : 0;
	ret = uft_setup_tasks(uf, tids, ntids, tinfo, ntinfo,
			      uf->writer == UFT_WRITER_UFTRACE ? uft_perf_count(uf)
							       : 0,
			      nkernel);
	if (ret == 0)
		ret = uft_kernel_setup(uf);
	if (ret < 0)
		goto nomem;
	/* rftrace stamps the guest's raw TSC; the others nanoseconds */
	src->clock = uf->writer == UFT_WRITER_RFTRACE ? CLOCK_TSC : CLOCK_NS;
	/* uftrace record -k without libtraceevent: the records left out, said */
	nkernel = uft_kernel_ready(uf) || !(uf->hdr.feat & 4) /* KERNEL */
			  ? 0 : uft_kernel_files(uf, &kfirst);
	if (nkernel && asprintf(&src->note, "%zu kernel-cpuN.dat file%s (%s%s: uftrace record -k) hold%s kernel function records, which kvmtrace_format %s: they are left out (uftrace dump prints them)",
				nkernel, nkernel == 1 ? "" : "s",
				kfirst ? kfirst : "kernel-cpuN.dat",
				nkernel > 1 ? ", ..." : "",
				nkernel == 1 ? "s" : "",
#ifdef HAVE_TRACECMD
				"cannot read: their kernel_header is missing or damaged"
#else
				"reads with libtraceevent only (built without it)"
#endif
				) < 0)
		src->note = NULL;
	free(kfirst);

	/* the first record of every task, then of every perf-cpuN.dat */
	for (i = 0; !uf->lone && i < uf->ntasks + uf->nperf + uf->nkern; i++)
		if (uft_task_advance(uf, &uf->tasks[i]))
			uf->heap[uf->nheap++] = (uint32_t)i;
	for (i = uf->nheap / 2; i-- > 0;)
		uft_sift_down(uf, i);
	uft_top_update(uf);
	free(tids);
	free(tinfo);
	return 0;
nomem:
	diag_set(d, "%s: out of memory", src->name);
	ret = -ENOMEM;
error:
	free(tids);
	free(tinfo);
	uft_close(src);
	return ret;
}

static void uft_close(struct source *src)
{
	struct uftrace *uf = src->priv;
	size_t i;

	if (!uf)
		return;
	uft_kernel_close(uf);	/* before the tasks: its kbuffers are theirs */
	for (i = 0; i < uf->ntasks + uf->nperf + uf->nkern; i++) {
		struct uft_task *t = &uf->tasks[i];

		if (t->fd >= 0)
			close(t->fd);
		free(t->buf);
		free(t->path);
		free(t->stack);
		free(t->pay);
	}
	free(uf->tasks);
	free(uf->heap);
	free(uf->tid_order);
	for (i = 0; i < uf->nperf_names; i++)
		free(uf->perf_names[i]);
	free(uf->perf_names);
	free(uf->lone_text);
	uft_dd_free(uf);
	for (i = 0; i < uf->nspecs; i++) {
		if (uf->specs[i].patt == UFT_PATT_REGEX)
			regfree(&uf->specs[i].re);
		free(uf->specs[i].pattern);
		free(uf->specs[i].args.v);
	}
	free(uf->specs);
	for (i = 0; i < uf->nautos; i++) {
		free(uf->autos[i].name);
		free(uf->autos[i].args);
		free(uf->autos[i].rets);
	}
	free(uf->autos);
	uft_enums_free(&uf->enums);
	for (i = 0; i < uf->nmods; i++)
		uft_free_symtab(uf->mods[i]);
	free(uf->mods);
	free(uf->mod_hash.v);
	free(uf->sid_hash.v);
	free(uf->by_pid);
	for (i = 0; i < uf->nsidmaps; i++) {
		free(uf->sidmaps[i]->v);
		free(uf->sidmaps[i]->sid);
		free(uf->sidmaps[i]);
	}
	free(uf->sidmaps);
	for (i = 0; i < uf->nsess; i++) {
		free(uf->sess[i].exename);
		free(uf->sess[i].dl);
	}
	free(uf->sess);
	for (i = 0; i < uf->nevnames; i++)
		free(uf->evnames[i].name);
	free(uf->evnames);
	for (i = 0; i < uf->nargvs; i++) {
		free(uf->argvs[i]->v);
		free(uf->argvs[i]);
	}
	free(uf->argvs);
	free(uf->cur.pay);
	free(uf->cur.text);
	for (i = 0; uf->bcur && i < UFT_BATCH; i++) {
		free(uf->bcur[i].pay);
		free(uf->bcur[i].text);
	}
	free(uf->bcur);
	for (i = 0; i < uf->ntnames; i++)
		free(uf->tnames[i]);
	free(uf->tnames);
	for (i = 0; i < uf->nproblems; i++)
		free(uf->problems[i]);
	free(uf->problems);
	free(uf->cmdline);
	free(uf->dir);
	free(uf);
	src->priv = NULL;
}

enum uft_field {
	UF_TID = 0,
	UF_TYPE,
	UF_DEPTH,
	UF_ADDR,
	UF_SYMBOL,
	UF_DURATION,
	UF_EVENT,
	UF_COMM,
	UF_RECORD_DEPTH,
	UF_ARGS,
	UF_RETVAL,
	UF_PPID,
	UF_EXEC,
	UF_TIME_FILTER,
	UF_NFIELDS,
	UF_ARG0 = 64,		/* argN: UF_ARG0 + N */
	UF_EV0 = 256,		/* event data: UF_EV0 + enum uft_evkey */
};

static const char *const uft_field_names[UF_NFIELDS] = {
	"tid", "type", "depth", "addr", "symbol", "duration", "event",
	"comm", "record_depth", "args", "retval", "ppid", "exec",
	"time_filter",
};

static int uft_bind(struct source *src, const struct event_type *t,
		    const char *key)
{
	unsigned long n;
	char *end;
	size_t i;

	for (i = 0; i < UF_NFIELDS; i++)
		if (!strcmp(uft_field_names[i], key))
			return (int)i;
	if (uft_evkey(key) >= 0)
		return UF_EV0 + uft_evkey(key);
	/* arg1 ... argN: the N-th value recorded */
	if (!strncmp(key, "arg", 3) && key[3] >= '1' && key[3] <= '9') {
		n = strtoul(key + 3, &end, 10);
		if (!*end && n <= UFT_MAX_VALUES)
			return UF_ARG0 + (int)n;
	}
	return -ENOENT;
}

static int uft_field(struct source *src, const struct event *ev, int index,
		     struct value *out)
{
	struct uftrace *uf = src->priv;
	/* our uf->cur, or one of uf->bcur */
	struct uft_cur *c = (struct uft_cur *)ev->rec;

	if (c->is_text)
		return -ENOENT;
	if (index > UF_ARG0 && index <= UF_ARG0 + UFT_MAX_VALUES)
		return uft_arg_value(uf, c, (size_t)(index - UF_ARG0), out);
	if (index >= UF_EV0 && index < UF_EV0 + UFT_NEVKEYS) {
		/* a kernel event's data: the text of its print fmt */
		if (c->kern && c->rec.type == UFT_EVENT) {
			if (index == UF_EV0 + UFT_EV_DATA)
				value_set_str(out, (const char *)c->pay,
					      c->paylen);
			else
				value_set_str(out, "", 0);
			return 0;
		}
		return uft_event_field(uf, c, index - UF_EV0, out);
	}
	switch (index) {
	case UF_PPID:
		value_set_s64(out, c->perf ? c->prec.ppid : 0);
		return 0;
	case UF_EXEC:
		value_set_u64(out, c->perf && c->prec.exec);
		return 0;
	case UF_TIME_FILTER:
		value_set_u64(out, uf->time_filter);
		return 0;
	case UF_ARGS:
		return uft_args_text(uf, c, false, out);
	case UF_RETVAL:
		return uft_arg_value(uf, c, 0, out);
	case UF_TID:
		value_set_s64(out, c->tid);
		return 0;
	case UF_TYPE:
		value_set_str(out, c->type, c->typelen);
		return 0;
	case UF_DEPTH:
		value_set_u64(out, c->depth);
		return 0;
	case UF_ADDR:
		value_set_u64(out, c->rec.addr);
		return 0;
	case UF_SYMBOL:
		value_set_str(out, c->symbol, c->symlen);
		return 0;
	case UF_DURATION:
		value_set_u64(out, c->duration);
		return 0;
	case UF_EVENT:
		if (c->rec.type == UFT_EVENT)
			value_set_str(out, c->symbol, c->symlen);
		else
			value_set_str(out, "", 0);
		return 0;
	case UF_COMM:
		if (c->comm)
			value_set_str(out, c->comm, strlen(c->comm));
		else
			value_set_str(out, "", 0);
		return 0;
	case UF_RECORD_DEPTH:
		value_set_u64(out, c->rec.depth);
		return 0;
	}
	return -ENOENT;
}

/* The fields render.c reads straight from our uft_cur (source_ops.field_at) */
static int uft_field_at(struct source *src, int index, size_t *offset,
			size_t *len_offset)
{
	switch (index) {
	case UF_TID:
		*offset = offsetof(struct uft_cur, tid);
		return SOURCE_AT_S64;
	case UF_TYPE:
		*offset = offsetof(struct uft_cur, type);
		*len_offset = offsetof(struct uft_cur, typelen);
		return SOURCE_AT_STR;
	case UF_DEPTH:
		*offset = offsetof(struct uft_cur, depth);
		return SOURCE_AT_U64;
	case UF_DURATION:
		*offset = offsetof(struct uft_cur, duration);
		return SOURCE_AT_U64;
	case UF_ADDR:
		*offset = offsetof(struct uft_cur, rec.addr);
		return SOURCE_AT_U64;
	case UF_SYMBOL:
		*offset = offsetof(struct uft_cur, symbol);
		*len_offset = offsetof(struct uft_cur, symlen);
		return SOURCE_AT_STR;
	}
	return SOURCE_AT_NONE;
}

/*
 * %(type)s of an entry, exit, lost or event record: the type's name, the
 * same in each of its events (source_ops.field_const); a perf event's
 * type is not one of these
 */
static int uft_field_const(struct source *src, const struct event_type *t,
			   int index, const char **s, size_t *len)
{
	struct uftrace *uf = src->priv;

	if (index != UF_TYPE || t->index >= UFT_NTYPES ||
	    t != &uf->types[t->index])
		return -ENOENT;
	*s = uft_type_names[t->index].name;
	*len = uft_type_names[t->index].len;
	return 0;
}

static int uft_each_type(struct source *src,
			 int (*fn)(const struct event_type *t, void *arg),
			 void *arg)
{
	struct uftrace *uf = src->priv;
	size_t i;
	int ret;

	for (i = 0; i < UFT_NTYPES + UFT_NPERF; i++) {
		if (i >= UFT_NTYPES && !uft_perf_name((unsigned)(i - UFT_NTYPES)))
			continue;
		ret = fn(&uf->types[i], arg);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static size_t uft_fields(struct source *src, const struct event_type *t,
			 const char **names, size_t max)
{
	size_t i, n = 0;

	unsigned perf = t && t->index >= UFT_NTYPES ? t->index - UFT_NTYPES : 0;

	/* args on entries, retval on exits, ppid and exec on perf events */
	for (i = 0; i < UF_NFIELDS && n < max; i++)
		if ((i != UF_ARGS || (t && t->index == UFT_ENTRY)) &&
		    (i != UF_RETVAL || (t && t->index == UFT_EXIT)) &&
		    (i != UF_PPID || perf == UFT_PERF_TASK ||
		     perf == UFT_PERF_EXIT) &&
		    (i != UF_EXEC || perf == UFT_PERF_COMM) &&
		    i != UF_TIME_FILTER)	/* the recording's, for --stats */
			names[n++] = uft_field_names[i];
	if (n < max && t && t->index == UFT_ENTRY)
		names[n++] = "arg1..argN";
	/* the data of events: data, vmsize, major, … */
	for (i = 0; t && t->index == UFT_EVENT && i < UFT_NEVKEYS && n < max; i++)
		names[n++] = uft_evkey_name((int)i);
	return n;
}

static const char *uft_name_at(struct source *src, int64_t tid, uint64_t ts,
			       uint64_t addr, char *buf, size_t size)
{
	struct uftrace *uf = src->priv;
	struct uft_task *t = uft_task_of(uf, tid);
	struct uft_symtab *mod;
	struct uft_sym *sym;

	if (!t)
		return NULL;
	/*
	 * a thread keeps the session its leader had when it began (its
	 * session ref in uftrace never ends): the one of its own records,
	 * whatever its leader's exec did after them
	 */
	if (t->tid != t->pid && !t->ppid && ts > t->last_ts)
		ts = t->last_ts;
	sym = uft_resolve_in(uf, uft_task_session_find(uf, t, ts), ts, addr,
			     &mod);
	if (sym)
		return sym->name;
	snprintf(buf, size, "<%" PRIx64 ">", addr);
	return buf;
}

const struct source_ops source_uftrace_ops = {
	.kind = "uftrace",
	.probe = uft_probe,
	.open = uft_open,
	.next = uft_next,
	.next_batch = uft_next_batch,
	.close = uft_close,
	.bind = uft_bind,
	.field = uft_field,
	.field_at = uft_field_at,
	.field_const = uft_field_const,
	.each_type = uft_each_type,
	.fields = uft_fields,
	.render_default = uft_render_default,
	.name_at = uft_name_at,
};

