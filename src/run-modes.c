// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The runs that do not read traces through the merge alone (run.h): the
 * hooks --live's reader calls, and its opening; --stats over statistics
 * saved by --stats=json.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "filter.h"
#include "live/live.h"
#include "outbuf.h"
#include "run.h"
#include "signature.h"
#include "sink.h"
#include "source.h"

/* --live: before the reader blocks, what is printed goes out. */
static bool live_idle(void *arg)
{
	struct run *r = arg;

	outbuf_flush(r->out);
	return r->out->closed;
}

/* --live: --time-range counts from the first event. */
static void live_start(void *arg, uint64_t ts)
{
	struct run *r = arg;

	filter_time_origin(r->opt.filter, ts);
}

/* --live --stats: an interval ended. */
static int live_tick(void *arg, uint64_t end, bool last, struct diag *d)
{
	struct run *r = arg;

	(void)end;
	return r->opt.stats ? sink_live_stats_tick(r->sink, last, d) : 0;
}

int run_open_live(struct run *r, struct diag *d)
{
	struct live_config cfg = {
		.events = r->opt.events_list,
		.duration = r->opt.duration,
		.interval = r->opt.stats ? (r->opt.interval > 0 ? r->opt.interval
								: 1.0)
					 : 0,
		.replay = r->opt.live_replay,
		.out_fd = r->opt.output ? -1 : STDOUT_FILENO,
		.idle = live_idle,
		.tick = live_tick,
		.start = live_start,
		.arg = r,
	};
	int ret;

	r->srcs = calloc(1, sizeof(*r->srcs));
	if (!r->srcs)
		return -ENOMEM;
	r->srcs[0] = live_source_create(&cfg);
	if (!r->srcs[0]) {
#ifndef HAVE_TRACEFS
		run_say("--live: this kvmtrace_format was built without libtracefs (apt-get install libtracefs-dev, then configure again)");
		return EXIT_USAGE;
#endif
		return -ENOMEM;
	}
	r->nsrcs = 1;
	ret = source_open(r->srcs[0], d);
	if (ret == -ENOMEM)
		return ret;
	if (ret < 0) {
		run_say("%s", d->msg);
		return ret == -EMEDIUMTYPE ? EXIT_USAGE : EXIT_DATA;
	}
	return 0;
}

/* Does path hold statistics saved by --stats=json? */
static bool saved_stats(const char *path)
{
	unsigned char head[64];
	struct stat st;
	ssize_t n;
	int fd;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, head, sizeof(head));
	close(fd);
	return n > 0 && signature_saved_stats(head, (size_t)n);
}

int run_saved(struct run *r)
{
	const char **paths;
	size_t i, saved = 0;
	struct diag d;
	int ret, fd = STDOUT_FILENO;

	for (i = 0; i < r->opt.ninputs; i++)
		saved += saved_stats(r->opt.inputs[i].path);
	if (!saved)
		return -1;
	for (i = 0; i < r->opt.ninputs; i++) {
		if (saved_stats(r->opt.inputs[i].path) && r->opt.stats &&
		    saved == r->opt.ninputs && !r->opt.rules_path)
			continue;
		run_say("%s: statistics saved by --stats=json: they merge with --stats, all inputs saved statistics (kvmtrace_format --stats A.json B.json ...)",
		    r->opt.inputs[i].path);
		return EXIT_USAGE;
	}
	paths = malloc(r->opt.ninputs * sizeof(*paths));
	r->out = outbuf_create(-1);
	if (!paths || !r->out) {
		free(paths);
		run_say("out of memory");
		return EXIT_DATA;
	}
	for (i = 0; i < r->opt.ninputs; i++)
		paths[i] = r->opt.inputs[i].path;
	diag_init(&d);
	ret = stats_merge(r->out, r->opt.stats_format, r->opt.stats_top,
			  r->opt.stats_sort, paths, r->opt.ninputs, &d);
	free(paths);
	if (ret < 0) {
		run_say("%s", d.msg);
		r->out->len = 0;
		return ret == -ENOMEM ? EXIT_DATA : EXIT_USAGE;
	}
	if (r->opt.output) {
		if (outfile_open(&r->outf, r->opt.output, &d) < 0) {
			run_say("%s", d.msg);
			return EXIT_USAGE;
		}
		fd = r->outf.fd;
	}
	r->out->fd = fd;
	if (outbuf_flush(r->out) < 0 && !r->out->closed) {
		run_say("%s: cannot write: %s",
		    r->opt.output ? r->opt.output : "standard output",
		    strerror(-r->out->error));
		return EXIT_DATA;
	}
	if (r->opt.output && outfile_commit(&r->outf, r->opt.output, &d) < 0) {
		run_say("%s", d.msg);
		return EXIT_DATA;
	}
	return 0;
}
