// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --live as a source: open makes the instance (live-tracefs.c) or opens
 * the trace.dat to replay (live-replay.c); next() hands out the CPUs'
 * records merged by time as their pages come (live-pages.c), and when
 * every buffer is empty flushes the output and blocks in poll(2) on the
 * buffers, a signalfd (SIGINT, SIGTERM, SIGHUP), standard output (a
 * closed pipe ends the run) and the next deadline (--duration, the
 * --interval tick): an idle host costs nothing. A stop drains what the
 * buffers hold, then ends. close() removes the instance.
 *
 * Fields, the `trace-cmd report` line and the event types are the
 * trace.dat reader's (tracecmd-fields.c, tracecmd-text.c,
 * source-tracecmd.c's tc_load_types()).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "live-int.h"
#include "tracedat/tracedat-guard.h"

static uint64_t live_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static uint64_t live_ns(double secs)
{
	return secs > 0 ? (uint64_t)(secs * 1e9 + 0.5) : 0;
}

/* SIGINT, SIGTERM and SIGHUP as a descriptor poll(2) waits on. */
static int live_signals(struct live *l)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, &l->old_mask) < 0)
		return -errno;
	l->mask_set = true;
	l->sig_fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	return l->sig_fd < 0 ? -errno : 0;
}

/* A signal came (or is pending): the run stops. */
static void live_check_signal(struct live *l)
{
	struct signalfd_siginfo si;

	if (l->sig_fd >= 0 && read(l->sig_fd, &si, sizeof(si)) > 0)
		l->stopping = true;
}

/* Start draining: the kernel stops writing, what it wrote is read. */
static void live_stop_now(struct live *l)
{
	int i;

	if (l->ended)
		return;
	live_tracefs_stop(l);
	for (i = 0; i < l->tc.ncpus; i++)
		l->cpus[i].dry = false;
}

/* The deadlines on the monotonic clock: --duration, the next tick. */
static void live_check_clock(struct live *l)
{
	uint64_t now;

	if (l->cfg.replay || (!l->deadline && !l->interval_ns))
		return;
	now = live_now();
	if (l->deadline && now >= l->deadline)
		l->stopping = true;
	if (l->interval_ns && now >= l->next_tick)
		l->tick_due = true;
}

/*
 * Read pages into c until one holds a record: true, or false when its
 * buffer is empty for now (c->dry).
 */
static bool live_read(struct live *l, struct live_cpu *c)
{
	int n;

	while (!c->dry) {
		if (l->cfg.replay) {
			n = live_replay_read(l, c);
		} else {
			/* a tick or a stop is due: what is at hand first */
			if (l->tick_due)
				return false;
			n = tracefs_cpu_read(c->tcpu, c->page, true);
			if (n < 0)
				n = 0;	/* EAGAIN: empty */
		}
		if (n > 0 && live_pages_load(l, c, n) < 0) {
			/* a page whose data runs past its end: the next one */
			l->nbad++;
			if (l->cfg.replay && !l->bad_page) {
				l->bad_page = true;
				diag_set(&l->bad_d, "%s: CPU %d: offset 0x%llx: a ring-buffer page whose data runs past its end (left out)",
					 l->tc.name, c->cpu,
					 (unsigned long long)(c->off -
							      (uint64_t)n));
			}
			continue;
		}
		if (n <= 0) {
			c->dry = true;
			break;
		}
		if (!l->cfg.replay) {
			if (!l->stopping) {
				live_check_signal(l);
				live_check_clock(l);
				if (l->stopping)
					live_stop_now(l);
			}
		}
		if (c->has_rec)
			return true;
	}
	return false;
}

/* Read every CPU that has no record at hand; how many got one. */
static int live_fill(struct live *l)
{
	int i, got = 0;

	for (i = 0; i < l->tc.ncpus; i++) {
		struct live_cpu *c = &l->cpus[i];

		if (c->has_rec || live_read(l, c))
			got++;
	}
	return got;
}

/*
 * Data came after every buffer was found empty: let more come for up to
 * LIVE_GATHER_MS (or to the next deadline) before reading, waking early
 * only for a signal or the output closing. Reading at the first event of a
 * burst costs a wake-up, a read of a page holding a few records and a
 * flush per few events: with a guest making exits in a loop (7 events an
 * exit, nested KVM here) the kernel's side of that was most of the tool's
 * CPU time. A buffer then holds the events of LIVE_GATHER_MS, far below
 * its size (1.4 MiB a CPU by default) at 300 k events a second; an idle
 * host still blocks in poll(2) without a timeout.
 */
#define LIVE_GATHER_MS 10

static void live_gather(struct live *l, struct pollfd *p, int n,
			uint64_t until)
{
	uint64_t now = live_now();
	int timeout = LIVE_GATHER_MS;

	if (l->stopping || l->cfg.replay)
		return;
	if (until) {
		if (until <= now)
			return;
		if ((until - now) / 1000000 < (uint64_t)timeout)
			timeout = (int)((until - now) / 1000000);
	}
	if (poll(p, (nfds_t)n, timeout) > 0 && l->cfg.out_fd >= 0 &&
	    (p[n - 1].revents & (POLLERR | POLLHUP)))
		l->stopping = true;
}

/* Every buffer is empty: flush, then wait for data, a signal, a deadline. */
static void live_wait(struct live *l)
{
	struct pollfd *p = l->pfd;
	uint64_t now, until = 0;
	int i, n = 0, timeout = -1;

	if (l->cfg.idle && l->cfg.idle(l->cfg.arg)) {
		l->stopping = true;
		return;
	}
	for (i = 0; i < l->tc.ncpus; i++)
		p[n++] = (struct pollfd){ .fd = l->cpus[i].fd,
					  .events = POLLIN };
	p[n++] = (struct pollfd){ .fd = l->sig_fd, .events = POLLIN };
	if (l->cfg.out_fd >= 0)
		p[n++] = (struct pollfd){ .fd = l->cfg.out_fd, .events = 0 };
	if (l->deadline)
		until = l->deadline;
	if (l->interval_ns && (!until || l->next_tick < until))
		until = l->next_tick;
	if (until) {
		now = live_now();
		timeout = until <= now
				  ? 0
				  : (int)((until - now + 999999) / 1000000);
	}
	if (poll(p, (nfds_t)n, timeout) > 0 && l->cfg.out_fd >= 0 &&
	    (p[n - 1].revents & (POLLERR | POLLHUP)))
		l->stopping = true;
	live_gather(l, p + l->tc.ncpus, n - l->tc.ncpus, until);
	live_check_signal(l);
	live_check_clock(l);
	free(l->cmdlines);
	l->cmdlines = NULL;
	for (i = 0; i < l->tc.ncpus; i++)
		l->cpus[i].dry = false;
}

/*
 * A pid the tep has no comm for, at its first event: the task's own name
 * (/proc/PID/comm, a thread's too) while it runs, which is what the kernel
 * records for it; else, for a task gone meanwhile, the kernel's
 * saved_cmdlines (read once per wait: trace-cmd record saves it too). Not
 * saved_cmdlines first: on a busy host pids are reused (pid_max is often
 * 32768), and its entry may still be an older task's until the kernel
 * saves the new one's at a later switch. Only that pid is registered.
 */
static void live_comm(struct live *l, int64_t pid)
{
	uint64_t *known = &l->known[(uint64_t)pid % LIVE_KNOWN];
	char path[64], comm[64];
	ssize_t n = -1;
	int fd;

	if (*known == (uint64_t)pid + 1 || pid <= 0 || pid > INT32_MAX ||
	    l->cfg.replay)
		return;
	if (!tep_is_pid_registered(l->tc.tep, (int)pid)) {
		snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			n = read(fd, comm, sizeof(comm) - 1);
			close(fd);
		}
		if (n > 0) {
			comm[n] = '\0';
			comm[strcspn(comm, "\n")] = '\0';
			tep_register_comm(l->tc.tep, comm, (int)pid);
		} else {
			live_tracefs_cmdline(l, (int)pid);
		}
	}
	if (tep_is_pid_registered(l->tc.tep, (int)pid))
		*known = (uint64_t)pid + 1;
}

/*
 * The name a sched_switch or sched_wakeup gives a pid (prev_comm of
 * prev_pid, next_comm of next_pid; comm of pid) is the task's name at that
 * event: live, it replaces what was registered for the pid (a name from
 * before an exec, or of an older task of that pid), before the event is
 * printed. trace-cmd report, reading a recording, keeps the names saved at
 * its end instead; the trace.dat reader does as it does.
 */
static void live_learn_one(struct live *l, const struct tep_format_field *cf,
			   const struct tep_format_field *pf,
			   const struct tep_record *rec)
{
	struct tc *tc = &l->tc;
	size_t have;
	struct tc_comm *cached;
	const char *old;
	char comm[TC_LEARN_TEXT];
	int64_t pid;

	if (!tc_learn_pid(tc, cf, pf, rec, &pid) || pid <= 0 ||
	    pid > INT32_MAX)
		return;
	tc_learn_text(cf, rec, comm);
	if (!comm[0])
		return;
	old = tc_comm(tc, pid, &have);
	if (have == strlen(comm) && !memcmp(old, comm, have))
		return;
	/* the cache points into the string tep_override_comm() frees */
	cached = &tc->comms[(uint64_t)pid % TC_COMM_CACHE];
	if (cached->pid == pid)
		cached->comm = NULL;
	if (tep_is_pid_registered(tc->tep, (int)pid))
		tep_override_comm(tc->tep, comm, (int)pid);
	else
		tep_register_comm(tc->tep, comm, (int)pid);
	l->known[(uint64_t)pid % LIVE_KNOWN] = (uint64_t)pid + 1;
}

static void live_learn(struct live *l, const struct tc_type *t,
		       const struct tep_record *rec)
{
	if (l->cfg.replay)
		return;
	live_learn_one(l, t->learn_f[0], t->learn_f[1], rec);
	if (t->learn == TC_LEARN_SWITCH)
		live_learn_one(l, t->learn_f[2], t->learn_f[3], rec);
}

static int live_tick(struct live *l, bool last, struct diag *d)
{
	int ret = 0;

	if (l->cfg.tick && l->interval_ns)
		ret = l->cfg.tick(l->cfg.arg, l->last_ts, last, d);
	l->next_tick += l->interval_ns;
	l->tick_due = false;
	return ret;
}

static int live_next(struct source *src, struct event *ev, struct diag *d)
{
	struct live *l = live_of(src);
	struct tc *tc = &l->tc;
	struct live_cpu *c;
	int cpu, ret;

	if (l->last >= 0) {
		c = &l->cpus[l->last];
		/* what trace-cmd's printing of it would have learned */
		if (tc->cur_learn && !tc->cur_info)
			tc_learn_comms(tc, tc->cur_learn, &c->rec);
		tc->cur = NULL;
		l->last = -1;
		live_pages_advance(l, c);
		if (!c->has_rec)
			live_read(l, c);
	}
	for (;;) {
		cpu = live_pages_first(l);
		if (cpu >= 0 && l->cfg.replay && l->interval_ns) {
			uint64_t ts = l->cpus[cpu].rec.ts;

			if (!l->started)
				l->next_tick = ts + l->interval_ns;
			if (ts >= l->next_tick) {
				l->last_ts = l->next_tick;
				ret = live_tick(l, false, d);
				if (ret < 0)
					return ret;
				continue;
			}
		}
		if (cpu >= 0)
			break;
		if (l->tick_due) {
			ret = live_tick(l, false, d);
			if (ret < 0)
				return ret;
		}
		if (live_fill(l))
			continue;
		if (l->cfg.replay || l->ended) {
			if (l->finished)
				return 0;
			l->finished = true;
			ret = live_tick(l, true, d);
			if (ret == 0 && l->nbad && l->cfg.replay) {
				/* bad data, said at the end: exit 1 */
				if (l->bad_page)
					*d = l->bad_d;
				else
					diag_set(d, "%s: %llu ring-buffer pages hold a record that runs past their end (their rest left out)",
						 l->tc.name,
						 (unsigned long long)l->nbad);
				return -EIO;
			}
			return ret < 0 ? ret : 0;
		}
		if (l->stopping) {
			live_stop_now(l);
			continue;
		}
		live_wait(l);
		if (l->stopping)
			live_stop_now(l);
	}
	c = &l->cpus[cpu];
	live_pages_event(src, c, ev);
	if (!l->started) {
		l->started = true;
		if (l->cfg.start)
			l->cfg.start(l->cfg.arg, ev->ts);
	}
	l->last_ts = ev->ts;
	l->last = cpu;
	if (tc->cur_learn)
		live_learn(l, tc->cur_learn, &c->rec);
	live_comm(l, ev->pid);
	return 1;
}

static void live_close(struct source *src)
{
	struct live *l = live_of(src);

	if (!l)
		return;
	if (l->cfg.replay) {
		live_pages_fini(l);
		live_replay_close(l);
	} else {
		live_tracefs_close(l);
		live_pages_fini(l);
	}
	tc_funcs_free(&l->tc.funcs);	/* after the tep: its resolver */
	if (l->sig_fd >= 0) {
		struct signalfd_siginfo si;

		/* a second Ctrl-C while draining ends nothing more */
		while (read(l->sig_fd, &si, sizeof(si)) > 0)
			;
		close(l->sig_fd);
	}
	if (l->mask_set)
		sigprocmask(SIG_SETMASK, &l->old_mask, NULL);
	tepf_slots_free(&l->tc.slots);
	free(l->tc.by_id);
	free(l->tc.sparse);
	tc_types_free(&l->tc);
	free(l->tc.types);
	trace_seq_destroy(&l->tc.info);
	tdguard_destroy(l->tc.guard);
	free(l->pfd);
	free(l->cmdlines);
	free(l);
	src->priv = NULL;
}

static int live_open(struct source *src, const char *path, struct diag *d)
{
	struct live *l = live_of(src);
	int ret;

	(void)path;
	ret = live_signals(l);
	if (ret < 0) {
		diag_set(d, "--live: cannot take SIGINT and SIGTERM: %s",
			 strerror(-ret));
		return ret;
	}
	if (l->cfg.replay)
		ret = live_replay_open(l, src->name, d);
	else
		ret = live_tracefs_open(l, src->name, d);
	if (ret < 0)
		return ret;
	ret = tc_load_types(&l->tc);
	if (ret < 0)
		goto nomem;
	tc_layout(&l->tc);
	/* the clocks trace-cmd report prints as seconds: not x86-tsc */
	l->tc.usecs = !l->tc.file.clock ||
		      (strcmp(l->tc.file.clock, "x86-tsc") &&
		       strcmp(l->tc.file.clock, "counter"));
	src->clock = l->tc.usecs ? CLOCK_NS
				 : !strcmp(l->tc.file.clock, "x86-tsc")
					   ? CLOCK_TSC
					   : CLOCK_COUNTER;
	src->ntypes = l->tc.ntypes + 1;
	l->tc.guard = tdguard_create(src->name, "ring-buffer event");
	l->pfd = calloc((size_t)l->tc.ncpus + 2, sizeof(*l->pfd));
	if (!l->tc.guard || !l->pfd)
		goto nomem;
	l->start_mono = live_now();
	l->deadline = l->cfg.duration > 0
			      ? l->start_mono + live_ns(l->cfg.duration)
			      : 0;
	l->interval_ns = live_ns(l->cfg.interval);
	l->next_tick = l->start_mono + l->interval_ns;
	return 0;
nomem:
	diag_set(d, "%s: out of memory", src->name);
	return -ENOMEM;
}

struct source *live_source_create(const struct live_config *cfg)
{
	struct source *src = source_create(&source_live_ops,
					   cfg->replay ? cfg->replay : "live",
					   0);
	struct live *l;

	if (!src)
		return NULL;
	l = calloc(1, sizeof(*l));
	if (!l) {
		source_destroy(src);
		return NULL;
	}
	l->cfg = *cfg;
	l->last = -1;
	l->sig_fd = -1;
	l->replay_fd = -1;
	l->tc.name = src->name;
	l->tc.copy_fd = -1;
	tracedat_kallsyms_init(&l->tc.kallsyms);
	trace_seq_init(&l->tc.info);
	src->priv = l;
	return src;
}

void live_source_stop(struct source *src)
{
	struct live *l = src ? live_of(src) : NULL;
	char *note;

	if (!l || l->cfg.replay)
		return;
	live_tracefs_stop(l);
	note = live_tracefs_dropped(l);
	if (l->nbad) {
		char *more;

		if (asprintf(&more, "%s%s%llu ring-buffer pages refused (their data runs past their end)",
			     note ? note : "", note ? "\n" : "",
			     (unsigned long long)l->nbad) >= 0) {
			free(note);
			note = more;
		}
	}
	if (note) {
		free(src->note);
		src->note = note;
	}
}

const struct source_ops source_live_ops = {
	.kind = "live",
	.open = live_open,
	.next = live_next,
	.close = live_close,
	.bind = tc_bind,
	.field = tc_field,
	.field_symbol = tc_field_symbol,
	.each_type = tc_each_type,
	.fields = tc_fields,
	.render_default = tc_render_default,
};
