// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's side of --live, through libtracefs: an instance of our own
 * under instances/ (trace-cmd, perf or another --live on the top instance
 * or theirs are not disturbed), the events of --events enabled in it, each
 * CPU's trace_pipe_raw opened without blocking (source-live.c waits on
 * them with poll), the event formats from tracefs with libtraceevent's
 * plugins, as `trace-cmd record` saves them, and the comms of
 * saved_cmdlines. Everything is checked before the instance is made: not
 * root, no tracefs, an event that does not exist leave nothing behind.
 * The instance of a run that was killed (SIGKILL) is removed by the next.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "diag.h"
#include "live-int.h"
#include "rules-names.h"

#define LIVE_PREFIX "kvmtrace_format-"

/* Where tracefs is mounted (/proc/mounts), malloc'd, or NULL. */
static char *live_mount_point(void)
{
	char line[4096], dev[256], dir[2048], type[64];
	char *found = NULL;
	FILE *f = fopen("/proc/mounts", "re");

	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s %2047s %63s", dev, dir, type) == 3 &&
		    !strcmp(type, "tracefs"))
			found = strdup(dir);
	fclose(f);
	return found;
}

/*
 * The tracing directory, or NULL with d saying why and what to do:
 * -EMEDIUMTYPE.
 */
static int live_tracing_dir(const char **dir, struct diag *d)
{
	bool root = geteuid() == 0;
	char *mnt = live_mount_point(), inst[4096];

	if (!mnt && root) {
		/* libtracefs mounts it when it may */
		*dir = tracefs_tracing_dir();
		if (*dir)
			return 0;
		diag_set(d, "--live: tracefs is not mounted and cannot be: mount it with `mount -t tracefs nodev /sys/kernel/tracing`");
		return -EMEDIUMTYPE;
	}
	if (!mnt) {
		diag_set(d, "--live: tracefs is not mounted, and only root may mount it and read the kernel's ring buffers: run as root (sudo), after `mount -t tracefs nodev /sys/kernel/tracing`");
		return -EMEDIUMTYPE;
	}
	snprintf(inst, sizeof(inst), "%s/instances", mnt);
	if (access(inst, W_OK | X_OK) < 0) {
		int err = errno;

		if (!root)
			diag_set(d, "--live: reading the kernel's ring buffers (tracefs at %s) needs root: run it with sudo",
				 mnt);
		else
			diag_set(d, "--live: cannot make a tracefs instance in %s: %s",
				 inst, strerror(err));
		free(mnt);
		return -EMEDIUMTYPE;
	}
	free(mnt);
	*dir = tracefs_tracing_dir();
	if (!*dir) {
		diag_set(d, "--live: libtracefs finds no tracing directory");
		return -EMEDIUMTYPE;
	}
	return 0;
}

/* A list of strings, NULL-ended, grown by one. */
static int live_push(char ***v, size_t *n, char *s)
{
	char **nv;

	if (!s)
		return -ENOMEM;
	nv = realloc(*v, (*n + 2) * sizeof(*nv));
	if (!nv) {
		free(s);
		return -ENOMEM;
	}
	nv[(*n)++] = s;
	nv[*n] = NULL;
	*v = nv;
	return 0;
}

static void live_free_list(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

static bool live_has(char **v, const char *s)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

/* The closest "sys:event" to want, for "did you mean". */
struct live_near {
	const char *want;
	size_t best;
	char name[256];
};

static void live_near_try(struct live_near *n, const char *sys,
			  const char *ev)
{
	char full[256];
	const char *colon = strchr(n->want, ':');
	size_t dist;

	snprintf(full, sizeof(full), "%s:%s", sys, ev);
	dist = rules_names_dist(n->want, colon ? full : ev, n->best);
	if (dist < n->best) {
		n->best = dist;
		snprintf(n->name, sizeof(n->name), "%s", colon ? full : ev);
	}
}

/*
 * One item of --events ("sys:event", "sys:*", "event", "sys", globs;
 * "sys/event" as trace-cmd writes it) against the events tracefs has:
 * each match "sys/event" into *on once, its system into *systems once.
 * Returns how many it matched, or -ENOMEM. With near (when nothing
 * matched): every event's name is tried for near, nothing is matched.
 */
static int live_match(const char *dir, char **systems_all, const char *item,
		      char ***on, size_t *non, char ***systems, size_t *nsys,
		      struct live_near *near)
{
	char sys_pat[256], ev_pat[256];
	const char *sep = strpbrk(item, ":/");
	bool whole = false;
	int matched = 0;
	size_t i, j;

	if (sep) {
		snprintf(sys_pat, sizeof(sys_pat), "%.*s", (int)(sep - item),
			 item);
		snprintf(ev_pat, sizeof(ev_pat), "%s", sep + 1);
		if (!*ev_pat)
			snprintf(ev_pat, sizeof(ev_pat), "*");
	} else {
		/* a system's name (kvm) is all its events; else an event */
		snprintf(sys_pat, sizeof(sys_pat), "*");
		snprintf(ev_pat, sizeof(ev_pat), "%s", item);
		for (i = 0; systems_all[i]; i++)
			whole |= !fnmatch(item, systems_all[i], 0);
		if (whole) {
			snprintf(sys_pat, sizeof(sys_pat), "%s", item);
			snprintf(ev_pat, sizeof(ev_pat), "*");
		}
	}
	for (i = 0; systems_all[i]; i++) {
		const char *sys = systems_all[i];
		char **evs;

		/* ftrace's own events cannot be enabled */
		if (!strcmp(sys, "ftrace") ||
		    (!near && fnmatch(sys_pat, sys, 0)))
			continue;
		evs = tracefs_system_events(dir, sys);
		for (j = 0; evs && evs[j]; j++) {
			char *full;

			if (near) {	/* the second pass: names only */
				live_near_try(near, sys, evs[j]);
				continue;
			}
			if (fnmatch(sys_pat, sys, 0) ||
			    fnmatch(ev_pat, evs[j], 0))
				continue;
			matched++;
			if (asprintf(&full, "%s/%s", sys, evs[j]) < 0) {
				tracefs_list_free(evs);
				return -ENOMEM;
			}
			if (live_has(*on, full)) {
				free(full);
				continue;
			}
			if (live_push(on, non, full) < 0 ||
			    (!live_has(*systems, sys) &&
			     live_push(systems, nsys, strdup(sys)) < 0)) {
				tracefs_list_free(evs);
				return -ENOMEM;
			}
		}
		tracefs_list_free(evs);
	}
	return matched;
}

/* The events of cfg->events: l->enabled, and the systems to parse. */
static int live_resolve(struct live *l, const char *dir, char ***systems,
			struct diag *d)
{
	const char *list = l->cfg.events ? l->cfg.events : "kvm:*";
	char **all = tracefs_event_systems(dir);
	size_t non = 0, nsys = 0;
	char *copy = strdup(list), *item, *save = NULL;
	int ret = 0;

	if (!all || !copy) {
		free(copy);
		tracefs_list_free(all);
		diag_set(d, "--live: cannot list the events in %s/events", dir);
		return all ? -ENOMEM : -EMEDIUMTYPE;
	}
	for (item = strtok_r(copy, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		struct live_near near = { .want = item };

		near.best = rules_names_cap(item);
		if (!*item)
			continue;
		ret = live_match(dir, all, item, &l->enabled, &non, systems,
				 &nsys, NULL);
		if (ret == 0)
			ret = live_match(dir, all, item, &l->enabled, &non,
					 systems, &nsys, &near);
		if (ret < 0)
			break;
		if (ret == 0) {
			if (near.name[0])
				diag_set(d, "--live: no event '%s' in %s/events: did you mean '%s'?",
					 item, dir, near.name);
			else
				diag_set(d, "--live: no event '%s' in %s/events (its systems: ls %s/events; write system:event, globs allowed)",
					 item, dir, dir);
			ret = -EMEDIUMTYPE;
			break;
		}
		ret = 0;
	}
	if (!ret && !non) {
		diag_set(d, "--live: --events names no event");
		ret = -EMEDIUMTYPE;
	}
	free(copy);
	tracefs_list_free(all);
	return ret;
}

/* Is a process of this pid alive? */
static bool live_pid_alive(long pid)
{
	return kill((pid_t)pid, 0) == 0 || errno != ESRCH;
}

/*
 * Remove the instances of our runs that were killed (SIGKILL). A
 * directory read of our own: libtracefs 1.6.4's tracefs_instances()
 * leaks the regex it compiles.
 */
static void live_sweep(const char *dir)
{
	char path[4096];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/instances", dir);
	d = opendir(path);
	while (d && (e = readdir(d))) {
		const char *num = e->d_name + strlen(LIVE_PREFIX);
		struct tracefs_instance *old;
		char *end;
		long pid;

		if (strncmp(e->d_name, LIVE_PREFIX, strlen(LIVE_PREFIX)))
			continue;
		pid = strtol(num, &end, 10);
		if (end == num || *end || pid <= 0 || live_pid_alive(pid))
			continue;
		old = tracefs_instance_alloc(NULL, e->d_name);
		if (old) {
			tracefs_instance_destroy(old);
			tracefs_instance_free(old);
		}
	}
	if (d)
		closedir(d);
}

/* The CPUs the instance has buffers for (per_cpu/cpuN). */
static int live_count_cpus(struct live *l)
{
	char *dir = tracefs_instance_get_dir(l->inst), path[4096];
	struct stat st;
	int n = 0;

	if (!dir)
		return 0;
	for (;;) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d", dir, n);
		if (stat(path, &st) < 0)
			break;
		n++;
	}
	tracefs_put_tracing_file(dir);
	return n;
}

static int live_open_cpus(struct live *l, struct diag *d)
{
	char *dir = tracefs_instance_get_dir(l->inst), path[4096];
	int i;

	if (!dir)
		return -ENOMEM;
	for (i = 0; i < l->tc.ncpus; i++) {
		struct live_cpu *c = &l->cpus[i];

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw",
			 dir, i);
		c->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (c->fd < 0) {
			diag_set(d, "--live: cannot open %s: %s", path,
				 strerror(errno));
			tracefs_put_tracing_file(dir);
			return -EMEDIUMTYPE;
		}
		c->tcpu = tracefs_cpu_alloc_fd(c->fd, l->page_size, true);
		if (!c->tcpu) {
			tracefs_put_tracing_file(dir);
			return -ENOMEM;
		}
	}
	tracefs_put_tracing_file(dir);
	return 0;
}

/* The text of a tracefs or /proc file (malloc'd, NUL-ended), or NULL. */
static char *live_slurp(const char *path, size_t *len)
{
	/* no file here is bigger than 256 MiB */
	return tc_slurp(path, (size_t)256 << 20, len);
}

/*
 * A tep of the event formats of systems, as tracefs_local_events_system()
 * makes one (the header page, each event's format, saved_cmdlines,
 * printk_formats, the long size) but for /proc/kallsyms: libtracefs
 * parses all of it (120 k lines here, about 0.07 s of CPU at each start,
 * most of the start), where only the text of an event that names a
 * kernel function needs it: tc_need_kallsyms() reads it then
 * (tc.proc_kallsyms).
 */
static struct tep_handle *live_local_tep(const char *dir, char **systems)
{
	struct tep_handle *tep = tep_alloc();
	char path[4096], **events, *buf;
	size_t len;
	int i, j;

	if (!tep)
		return NULL;
	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	buf = live_slurp(path, &len);
	if (!buf || !len) {
		free(buf);
		tep_free(tep);
		return NULL;
	}
	tep_parse_header_page(tep, buf, (unsigned long)len, sizeof(long));
	free(buf);
	for (i = 0; systems && systems[i]; i++) {
		events = tracefs_system_events(dir, systems[i]);
		for (j = 0; events && events[j]; j++) {
			snprintf(path, sizeof(path), "%s/events/%s/%s/format",
				 dir, systems[i], events[j]);
			buf = live_slurp(path, &len);
			if (buf && len)
				tep_parse_event(tep, buf, len, systems[i]);
			free(buf);
		}
		tracefs_list_free(events);
	}
	snprintf(path, sizeof(path), "%s/saved_cmdlines", dir);
	buf = live_slurp(path, &len);
	if (buf && len)
		tep_parse_saved_cmdlines(tep, buf);
	free(buf);
	snprintf(path, sizeof(path), "%s/printk_formats", dir);
	buf = live_slurp(path, &len);
	if (buf && len)
		tep_parse_printk_formats(tep, buf);
	free(buf);
	tep_set_long_size(tep, tep_get_header_page_size(tep));
	return tep;
}

/* Write "sys/event" enable as on says; 0 or -errno. */
static int live_enable(struct live *l, const char *sysev, bool on)
{
	char file[512];

	snprintf(file, sizeof(file), "events/%s/enable", sysev);
	return tracefs_instance_file_write(l->inst, file, on ? "1" : "0") < 0
		       ? -EIO
		       : 0;
}

int live_tracefs_open(struct live *l, const char *name, struct diag *d)
{
	char **systems = NULL, *sub;
	const char *dir;
	int ret, i;

	ret = live_tracing_dir(&dir, d);
	if (ret < 0)
		return ret;
	ret = live_resolve(l, dir, &systems, d);
	if (ret < 0)
		goto out;
	l->tc.tep = live_local_tep(dir, systems);
	l->tc.proc_kallsyms = true;
	if (!l->tc.tep) {
		diag_set(d, "--live: cannot read the event formats in %s/events",
			 dir);
		ret = -EMEDIUMTYPE;
		goto out;
	}
	tep_set_loglevel(TEP_LOG_NONE);
	l->plugins = tep_load_plugins(l->tc.tep);
	live_sweep(dir);
	if (asprintf(&l->inst_name, LIVE_PREFIX "%ld", (long)getpid()) < 0) {
		l->inst_name = NULL;
		ret = -ENOMEM;
		goto out;
	}
	if (tracefs_instance_exists(l->inst_name)) {
		diag_set(d, "--live: the instance %s/instances/%s exists already",
			 dir, l->inst_name);
		ret = -EMEDIUMTYPE;
		goto out;
	}
	l->inst = tracefs_instance_create(l->inst_name);
	if (!l->inst) {
		diag_set(d, "--live: cannot make the instance %s/instances/%s: %s",
			 dir, l->inst_name, strerror(errno));
		ret = -EMEDIUMTYPE;
		goto out;
	}
	l->inst_made = true;
	/* a sub-buffer: the page unless the kernel says otherwise */
	l->page_size = (int)sysconf(_SC_PAGESIZE);
	sub = tracefs_instance_file_read(l->inst, "buffer_subbuf_size_kb", NULL);
	if (sub && atoi(sub) > 0)
		l->page_size = atoi(sub) * 1024;
	free(sub);
	/* wake the reader at any data, not at half a buffer */
	tracefs_instance_file_write(l->inst, "buffer_percent", "0");
	l->tc.ncpus = live_count_cpus(l);
	if (l->tc.ncpus > 0)
		tep_set_cpus(l->tc.tep, l->tc.ncpus);
	if (l->tc.ncpus <= 0) {
		diag_set(d, "--live: the instance %s has no per-CPU buffers",
			 l->inst_name);
		ret = -EMEDIUMTYPE;
		goto out;
	}
	ret = live_pages_init(l);
	if (ret == 0)
		ret = live_open_cpus(l, d);
	if (ret < 0)
		goto out;
	for (i = 0; l->enabled && l->enabled[i]; i++) {
		if (live_enable(l, l->enabled[i], true) < 0) {
			diag_set(d, "--live: cannot enable %s in the instance %s: %s",
				 l->enabled[i], l->inst_name, strerror(errno));
			ret = -EMEDIUMTYPE;
			goto out;
		}
	}
	tracefs_instance_file_write(l->inst, "tracing_on", "1");
out:
	live_free_list(systems);
	if (ret == -ENOMEM)
		diag_set(d, "--live: out of memory");
	return ret;
}

void live_tracefs_stop(struct live *l)
{
	size_t i;

	if (!l->inst || l->ended)
		return;
	l->ended = true;
	tracefs_instance_file_write(l->inst, "tracing_on", "0");
	for (i = 0; l->enabled && l->enabled[i]; i++)
		live_enable(l, l->enabled[i], false);
}

/* A number after "key: " in per_cpu/cpuN/stats. */
static uint64_t live_stat(const char *text, const char *key)
{
	const char *p = text ? strstr(text, key) : NULL;

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

char *live_tracefs_dropped(struct live *l)
{
	char *out = NULL, *n, file[64];
	size_t len = 0;
	int i;

	for (i = 0; l->inst && i < l->tc.ncpus; i++) {
		char *text;
		uint64_t over, dropped;

		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", i);
		text = tracefs_instance_file_read(l->inst, file, NULL);
		over = live_stat(text, "overrun: ");
		dropped = live_stat(text, "dropped events: ");
		free(text);
		if (!over && !dropped)
			continue;
		if (asprintf(&n, "%s%sCPU %d: the kernel dropped %" PRIu64 " events (the buffer filled faster than it was read): the view is partial",
			     out ? out : "", out ? "\n" : "", i,
			     over + dropped) < 0)
			break;
		free(out);
		out = n;
		len++;
	}
	return out;
}

int live_tracefs_cmdline(struct live *l, int pid)
{
	const char *line;
	char comm[64];

	if (!l->cmdlines)
		l->cmdlines = tracefs_instance_file_read(NULL, "saved_cmdlines",
							 NULL);
	for (line = l->cmdlines; line && *line;) {
		const char *nl = strchr(line, '\n');
		char *end;
		long p = strtol(line, &end, 10);
		size_t len;

		if (!nl)
			nl = line + strlen(line);
		if (p == pid && end < nl && *end == ' ') {
			len = (size_t)(nl - end - 1);
			if (len >= sizeof(comm))
				len = sizeof(comm) - 1;
			memcpy(comm, end + 1, len);
			comm[len] = '\0';
			tep_register_comm(l->tc.tep, comm, pid);
			return 0;
		}
		line = *nl ? nl + 1 : nl;
	}
	return -ENOENT;
}

void live_tracefs_close(struct live *l)
{
	int i;

	live_tracefs_stop(l);
	for (i = 0; l->cpus && i < l->tc.ncpus; i++) {
		struct live_cpu *c = &l->cpus[i];

		if (c->tcpu)
			tracefs_cpu_free_fd(c->tcpu);
		if (c->fd >= 0)
			close(c->fd);
		c->tcpu = NULL;
		c->fd = -1;
	}
	if (l->inst && l->inst_made)
		tracefs_instance_destroy(l->inst);
	tracefs_instance_free(l->inst);
	l->inst = NULL;
	live_free_list(l->enabled);
	l->enabled = NULL;
	free(l->inst_name);
	l->inst_name = NULL;
	if (l->plugins)
		tep_unload_plugins(l->plugins, l->tc.tep);
	l->plugins = NULL;
	if (l->tc.tep)
		tep_free(l->tc.tep);
	l->tc.tep = NULL;
}
