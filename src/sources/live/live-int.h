/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live reader's own state, shared by its files: source-live.c (the
 * source: open, next, the wait on the buffers), live-pages.c (ring-buffer
 * pages into records, the CPUs merged), live-tracefs.c (the instance, its
 * events, what the kernel dropped) and live-replay.c (a trace.dat's pages
 * fed through the same path).
 *
 * Its events are the trace.dat reader's: struct live embeds a struct tc
 * first, src->priv points at both, and the trace.dat reader's fields and
 * text (tracecmd-fields.c, tracecmd-text.c) serve them unchanged.
 */
#ifndef KTF_LIVE_INT_H
#define KTF_LIVE_INT_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <kbuffer.h>

#include "diag.h"
#include "live.h"
#include "tracedat/tracecmd.h"

struct tracefs_instance;
struct tracefs_cpu;

/* One CPU's buffer: the page at hand and its next record. */
struct live_cpu {
	int cpu;
	int fd;			/* trace_pipe_raw (O_NONBLOCK), or -1 */
	struct tracefs_cpu *tcpu;	/* owned: reads fd */
	struct kbuffer *kbuf;	/* owned */
	void *page;		/* owned: one sub-buffer */
	struct tep_record rec;	/* the record at hand; data in page */
	bool has_rec;
	size_t len;		/* of the page at hand */
	bool bad;		/* a record ran past it: the rest left out */
	bool dry;		/* nothing more to read this round */
	bool done;		/* replay: no page left */
	uint64_t off, end;	/* replay: the pages' place in the file */
	/*
	 * The page at hand as kbuffer_load_subbuffer() and
	 * kbuffer_next_event() walk it, made here (live-pages.c) when the
	 * pages are in the host's byte order (kbuf otherwise): its calls
	 * were a fifth of --live's time
	 */
	struct tc_kwalk k;		/* its data in page, tc_kwalk_next() */
	unsigned int kstart;		/* the data's offset in page */
	long long klost;		/* kbuffer's lost_events */
};

struct live {
	struct tc tc;		/* first: the trace.dat reader's state */
	struct live_config cfg;
	struct tracefs_instance *inst;	/* owned; NULL: replay */
	char *inst_name;	/* owned */
	bool inst_made;		/* we created it: we remove it */
	struct tep_plugin_list *plugins;	/* owned: libtraceevent's */
	char **enabled;		/* owned: "sys/event" we enabled, NULL-ended */
	struct tracecmd_input *handle;	/* owned: replay's trace.dat */
	int replay_fd;		/* replay: the file, or -1 */
	struct live_cpu *cpus;	/* owned: tc.ncpus */
	int page_size;		/* a sub-buffer */
	bool own_pages;		/* pages walked here, not by kbuffer */
	int long_size;		/* kbuffer's: tep's long size, 4 or 8 */
	int last;		/* the CPU of the event handed out, or -1 */
	int sig_fd;		/* signalfd of SIGINT, SIGTERM, SIGHUP */
	sigset_t old_mask;	/* the mask before open */
	bool mask_set;
	bool stopping;		/* a signal, the duration, the output */
	bool ended;
	bool started;		/* the first event was seen */
	char *cmdlines;		/* owned: saved_cmdlines as read since
				 * the last wait, or NULL */
	uint64_t start_mono;	/* CLOCK_MONOTONIC ns at the start */
	uint64_t deadline;	/* CLOCK_MONOTONIC ns; 0: none */
	uint64_t next_tick;	/* live: CLOCK_MONOTONIC ns; replay: ts */
	uint64_t interval_ns;
	uint64_t last_ts;	/* of the latest event handed out */
	bool tick_due;		/* hand out what is at hand, then tick */
	bool finished;		/* the last tick was given */
	uint64_t nbad;		/* pages refused or cut short */
	struct diag bad_d;	/* replay: the first page refused */
	bool bad_page;
	struct pollfd *pfd;	/* owned: CPUs, signals, output */
#define LIVE_KNOWN 256
	uint64_t known[LIVE_KNOWN];	/* pid + 1 with a comm */
};

static inline struct live *live_of(struct source *src)
{
	return (struct live *)src->priv;
}

/* live-tracefs.c */
/*
 * Make the instance, enable the events of cfg->events, open each CPU's
 * trace_pipe_raw; tep from tracefs, its plugins loaded. 0, or
 * -EMEDIUMTYPE with d saying what to do, or -ENOMEM.
 */
int live_tracefs_open(struct live *l, const char *name, struct diag *d);
/* Stop tracing and disable the events; idempotent. */
void live_tracefs_stop(struct live *l);
/* What the kernel dropped per CPU, as lines (malloc'd), or NULL. */
char *live_tracefs_dropped(struct live *l);
/* Remove the instance (and free what live_tracefs_open() made). */
void live_tracefs_close(struct live *l);
/*
 * pid's comm from saved_cmdlines (read into l->cmdlines if not yet)
 * registered in the tep: 0, or -ENOENT.
 */
int live_tracefs_cmdline(struct live *l, int pid);

/* live-replay.c */
int live_replay_open(struct live *l, const char *name, struct diag *d);
/* The next page of c from the file into c->page: 1, 0 (no more), -errno. */
int live_replay_read(struct live *l, struct live_cpu *c);
void live_replay_close(struct live *l);

/* live-pages.c */
/* Per-CPU buffers and kbuffers, once tc.tep and tc.ncpus are set. */
int live_pages_init(struct live *l);
void live_pages_fini(struct live *l);
/*
 * Load the page just read into c (len bytes): c->has_rec when it holds a
 * record. Returns 0 or -EIO (a page the kbuffer refuses).
 */
int live_pages_load(struct live *l, struct live_cpu *c, int len);
/* Move c past its record at hand (loading nothing). */
void live_pages_advance(struct live *l, struct live_cpu *c);
/* The CPU whose record at hand comes first, or -1. */
int live_pages_first(const struct live *l);
/* Fill ev from c's record at hand (as tc_next() fills a trace.dat's). */
void live_pages_event(struct source *src, struct live_cpu *c,
		      struct event *ev);

#endif
