// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Opening every input before the run, and the pass over them that
 * --tsc-offset auto needs (inputs.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "inputs.h"

/* --clock declarations. */
static void inputs_declare_clock(const struct options *o, struct source *src,
				 const char *path)
{
	size_t i;

	for (i = 0; i < o->nclocks; i++) {
		const struct options_clock *c = &o->clocks[i];

		if (strlen(path) == c->len && !strncmp(path, c->path, c->len)) {
			src->clock = c->clock;
			src->clock_base = c->base;
			src->clock_user_set = true;
		}
	}
}

/*
 * What src noted (a library while opening it, or its reader since), each
 * line with its name; then forgotten: a reader may note more as it reads.
 */
static void inputs_note(struct source *src,
			void (*say)(void *arg, const char *msg), void *arg)
{
	const char *p = src->note, *nl;
	struct diag d;

	while (p && *p) {
		nl = strchr(p, '\n');
		diag_set(&d, "%s: %.*s", src->name,
			 (int)(nl ? nl - p : (ptrdiff_t)strlen(p)), p);
		say(arg, d.msg);
		p = nl ? nl + 1 : NULL;
	}
	free(src->note);
	src->note = NULL;
}

/*
 * A directory that is no uftrace data directory (source_probe() said
 * -EISDIR): what is wrong with its info file, in d.
 */
static void inputs_dir_problem(const char *name, const char *path,
			       struct diag *d)
{
	char info[4096], head[8];
	struct stat st;
	ssize_t n = -1;
	int fd;

	if ((size_t)snprintf(info, sizeof(info), "%s/info", path) >=
	    sizeof(info))
		return;
	if (stat(info, &st) < 0) {
		diag_set(d, "%s: a directory without a uftrace 'info' file (%s: %s): not a uftrace data directory",
			 name, info, strerror(errno));
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		diag_set(d, "%s/info: not a regular file (%s): not a uftrace data directory",
			 name, S_ISFIFO(st.st_mode) ? "a FIFO" :
			 S_ISDIR(st.st_mode) ? "a directory" : "a device or socket");
		return;
	}
	/* a regular file: opening it cannot block */
	fd = open(info, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		diag_set(d, "%s/info: cannot open: %s", name, strerror(errno));
		return;
	}
	n = pread(fd, head, sizeof(head), 0);
	if (n < 0)
		diag_set(d, "%s/info: cannot read: %s", name, strerror(errno));
	else if ((size_t)n < sizeof(head))
		diag_set(d, "%s/info: %zd bytes, shorter than uftrace's magic \"Ftrace!\" and its NUL: damaged (cut?)",
			 name, n);
	else
		diag_set(d, "%s/info: offset 0x0: does not start with uftrace's magic \"Ftrace!\": damaged, or not uftrace's",
			 name);
	close(fd);
}

/*
 * Descriptors open now below the limit (a new one takes the lowest free
 * number, which must be below it): /proc/self/fd, else the standard three.
 */
static size_t inputs_fds_open(rlim_t limit)
{
	struct dirent *e;
	size_t n = 0;
	DIR *dp;

	dp = opendir("/proc/self/fd");
	if (!dp)
		return 3;
	while ((e = readdir(dp)))
		n += e->d_name[0] != '.' &&
		     strtoull(e->d_name, NULL, 10) < (unsigned long long)limit;
	closedir(dp);
	/* less the directory's own */
	return n ? n - 1 : 0;
}

/* The NUMBER.dat files of a directory: each may hold a descriptor. */
static size_t inputs_dir_files(const char *path)
{
	struct dirent *e;
	size_t n = 0, len;
	DIR *dp;

	dp = opendir(path);
	if (!dp)
		return 1;
	while ((e = readdir(dp))) {
		len = strlen(e->d_name);
		n += len > 4 && !strcmp(e->d_name + len - 4, ".dat");
	}
	closedir(dp);
	return n + 1;
}

/* The descriptors a run of o holds at once, at least: the estimate. */
static size_t inputs_fds_needed(const struct options *o, size_t open_now)
{
	size_t need = open_now + 2, i;	/* -o, and a file read at open */
	struct stat st;

	for (i = 0; i < o->ninputs; i++) {
		const char *p = o->inputs[i].path;

		if (strcmp(p, "-") && stat(p, &st) == 0 && S_ISDIR(st.st_mode))
			need += inputs_dir_files(p);
		else
			need++;
	}
	return need;
}

static void inputs_fds_say(struct diag *d, const struct options *o,
			   size_t need, const struct rlimit *rl)
{
	diag_set(d, "%zu input%s need about %zu open files at once, more than the limit of %llu (ulimit -n",
		 inputs_count(o), inputs_count(o) == 1 ? "" : "s", need,
		 (unsigned long long)rl->rlim_cur);
	if (rl->rlim_max == RLIM_INFINITY)
		diag_add(d, ")");
	else
		diag_add(d, "; the hard limit is %llu)",
			 (unsigned long long)rl->rlim_max);
	diag_add(d, ": raise the limit, or give fewer inputs");
}

int inputs_check_files(const struct options *o, struct diag *d)
{
	struct rlimit rl;
	size_t need;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
		return 0;
	need = inputs_fds_needed(o, inputs_fds_open(rl.rlim_cur));
	if (need <= rl.rlim_cur)
		return 0;
	inputs_fds_say(d, o, need, &rl);
	return -EMFILE;
}

/*
 * Did opening fail for want of descriptors? Then d says how many the run
 * needs, from those the i inputs opened so far hold.
 */
static bool inputs_out_of_fds(const struct options *o, size_t i,
			      struct diag *d)
{
	struct rlimit rl;
	size_t open_now, need;
	int fd = dup(STDERR_FILENO);

	if (fd >= 0) {
		close(fd);
		return false;
	}
	if (errno != EMFILE || getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return false;
	open_now = inputs_fds_open(rl.rlim_cur);
	/* the inputs still to open, each as those before */
	need = open_now + (inputs_count(o) - i) *
				  (i ? (open_now > 3 ? open_now - 3 : 1) / i + 1
				     : 1);
	inputs_fds_say(d, o, need, &rl);
	return true;
}

int inputs_open(const struct options *o, struct symtab *syms,
		struct source **srcs, size_t *nsrcs,
		void (*say)(void *arg, const char *msg), void *arg,
		struct diag *d)
{
	static const struct options_input stdin_input = { .path = "-" };
	const struct options_input *in = o->ninputs ? o->inputs : &stdin_input;
	size_t n = inputs_count(o), i;
	int ret;

	for (i = 0; i < n; i++) {
		struct source *src = source_create(in[i].qemu_log ?
							   &source_qemu_log_ops : NULL,
						   in[i].path, (unsigned)i);

		if (!src)
			return -ENOMEM;
		srcs[(*nsrcs)++] = src;
		src->domain = in[i].domain;
		src->demangle = o->demangle;
		src->lone = n == 1 && !o->rules_path && !o->chrome &&
			    !o->stats && !o->filter;
		src->say = say;
		src->say_arg = arg;
		src->qemu_events = o->qemu_events;
		src->kallsyms = o->kallsyms;
		/* a terminal: say why nothing happens */
		if (!strcmp(in[i].path, "-") && isatty(STDIN_FILENO))
			say(arg, "reading a kvmtrace stream from standard input, which is a terminal: end it with Ctrl-D, or give a trace (kvmtrace_format --help)");
		/* the exits of host inputs name guest functions */
		if (in[i].domain == DOMAIN_HOST)
			src->guest_syms = syms;
		ret = in[i].qemu_log ? 0 : source_probe(src, d);
		if (ret == -ENOMEM)
			return ret;
		if (ret == -EISDIR)
			inputs_dir_problem(src->name, in[i].path, d);
		if (ret < 0) {
			inputs_out_of_fds(o, i, d);
			return -EINVAL;
		}
	}
	for (i = 0; i < n; i++) {
		ret = source_open(srcs[i], d);
		if (ret == -ENOMEM)
			return ret;
		/* a reader's -EMEDIUMTYPE: the user's to set right (source.h) */
		if (ret == -EMEDIUMTYPE)
			return -EINVAL;
		if (ret < 0)
			return inputs_out_of_fds(o, i, d) ? -EINVAL : -EIO;
		inputs_declare_clock(o, srcs[i], in[i].path);
		inputs_note(srcs[i], say, arg);
	}
	return 0;
}

void inputs_notes_end(struct source **srcs, size_t n,
		      void (*say)(void *arg, const char *msg), void *arg)
{
	size_t i;

	for (i = 0; i < n; i++)
		inputs_note(srcs[i], say, arg);
}

/*
 * The guest TSC offsets of --tsc-offset auto: every kvm_write_tsc_offset
 * in the host inputs, read in a pass of their own before the merge.
 */
int inputs_collect_offsets(struct source **srcs, size_t nsrcs,
			   struct render *render, struct clock *clock,
			   struct diag *d)
{
	size_t i, found = 0;
	int ret = 0;

	for (i = 0; i < nsrcs; i++) {
		const struct event_type *last = NULL;
		int32_t s_off = 0, s_vcpu = 0;
		bool have_vcpu = false;
		struct source *src;
		struct event ev;

		if (srcs[i]->domain != DOMAIN_HOST ||
		    !srcs[i]->ops->each_type)
			continue;
		src = source_reopen(srcs[i]);
		if (!src)
			return -ENOMEM;
		ret = source_open(src, d);
		while (ret >= 0 && (ret = src->ops->next(src, &ev, d)) > 0) {
			struct value off, vcpu;

			if (!ev.type->name ||
			    strcmp(ev.type->name, "kvm_write_tsc_offset"))
				continue;
			if (ev.type != last) {
				last = ev.type;
				if (render_field_slot(src, ev.type, "next_tsc_offset",
						      &s_off) < 0)
					continue;
				have_vcpu = render_field_slot(src, ev.type, "vcpu_id",
							      &s_vcpu) == 0;
			}
			if (render_value(render, NULL, &ev, s_off, &off) < 0 ||
			    off.kind != VALUE_INT)
				continue;
			if (have_vcpu && (render_value(render, NULL, &ev, s_vcpu,
						       &vcpu) < 0 ||
					  vcpu.kind != VALUE_INT))
				have_vcpu = false;
			/* next_tsc_offset is a u64 holding a signed offset */
			ret = clock_add_offset(clock, ev.ts,
					       (int64_t)(off.neg ? -off.u : off.u),
					       have_vcpu ? (uint32_t)vcpu.u : 0,
					       !have_vcpu);
			if (ret < 0)
				break;
			found++;
			ret = 1;
		}
		source_destroy(src);
		if (ret < 0)
			return ret;
	}
	if (!found) {
		diag_set(d, "--tsc-offset auto: no kvm:kvm_write_tsc_offset events in the host trace.dat inputs");
		for (i = 0; i < nsrcs; i++)
			if (srcs[i]->domain == DOMAIN_HOST)
				diag_add(d, " %s", srcs[i]->name);
		diag_add(d, "; record them (events/kvm/kvm_write_tsc_offset) or give --tsc-offset=N");
		return -ENOENT;
	}
	clock_finish(clock);
	return 0;
}
