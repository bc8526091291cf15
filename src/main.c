// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kvmtrace_format: the top-level wiring, and the only place that exits.
 * The command line is read by options.c, checked against the output by
 * clobber.c, and the inputs are opened by inputs.c; here: rules, clock,
 * render, sink, the merge loop and the exit status.
 *
 *   kvmtrace_format [OPTIONS] [FORMATS] [INPUT...]
 *   kvmtrace_format formats < trace.bin
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "clobber.h"
#include "clock.h"
#include "counters.h"
#include "diag.h"
#include "filter.h"
#include "formats-path.h"
#include "inputs.h"
#include "live/live.h"
#include "merge.h"
#include "options.h"
#include "outbuf.h"
#include "outfile.h"
#include "render.h"
#include "rules.h"
#include "rules-names.h"
#include "run.h"
#include "signature.h"
#include "sink.h"
#include "sink-util.h"
#include "source.h"
#include "symtab.h"

/*
 * Every message goes out here, with control bytes other than new lines
 * and tabs escaped: file names and option values come from the user, and
 * an escape sequence in one must not reach the terminal.
 */
void run_say(const char *fmt, ...)
{
	struct diag d;
	va_list ap;

	diag_init(&d);
	va_start(ap, fmt);
	vsnprintf(d.msg, sizeof(d.msg), fmt, ap);
	va_end(ap);
	diag_print(stderr, "kvmtrace_format: ", d.msg);
}

static void error(const char *msg)
{
	run_say("%s", msg);
}

static void warn(void *arg, const char *msg)
{
	run_say("%s", msg);
}

/*
 * The command line (options.h), then what it asks for: --help, --version
 * and --list-formats are done here (-1), a run goes on (0), or an exit
 * status.
 */
static int parse(struct options *o, int argc, char **argv)
{
	struct diag d;
	int ret;

	diag_init(&d);
	ret = options_parse(o, argc, argv, &d);
	if (ret == -ENOMEM) {
		error("out of memory");
		return EXIT_DATA;
	}
	if (ret < 0) {
		error(d.msg);
		return EXIT_USAGE;
	}
	switch (ret) {
	case OPTIONS_HELP:
		options_usage(stdout);
		return -1;
	case OPTIONS_VERSION:
		printf("kvmtrace_format %s\n", PACKAGE_VERSION);
		return -1;
	case OPTIONS_LIST_FORMATS:
		return formats_path_list(stdout) < 0 ? EXIT_DATA : -1;
	}
	return 0;
}

/*
 * --counters: each file read, its time 0 placed on the timeline (an
 * "rdtsc N" first line, TSC ticks; --counters-start; or, left to the
 * sink, the first event). Returns 0 or an exit status.
 */
static int load_counters(struct run *r)
{
	struct diag d;
	size_t i;
	int ret;

	if (!r->opt.ncounters)
		return 0;
	if (!r->opt.chrome && !r->opt.stats) {
		error("--counters: give --chrome or --perfetto (counter tracks) or --stats (a table)");
		return EXIT_USAGE;
	}
	r->counters = calloc(r->opt.ncounters, sizeof(*r->counters));
	if (!r->counters) {
		error("out of memory");
		return EXIT_DATA;
	}
	diag_init(&d);
	for (i = 0; i < r->opt.ncounters; i++) {
		struct counters *c = &r->counters[i];

		r->ncounters++;
		ret = counters_load(c, r->opt.counters[i], &d);
		if (ret < 0) {
			error(ret == -ENOMEM ? "out of memory" : d.msg);
			return ret == -ENOENT ? EXIT_USAGE : EXIT_DATA;
		}
		if (counters_overflows(c, &d))
			run_say("warning: %s", d.msg);
		if (r->opt.have_counters_start || !r->nsrcs) {
			c->start = r->opt.counters_start;
			c->has_start = true;
		} else if (c->has_rdtsc) {
			if (r->clock->timeline == CLOCK_TSC) {
				c->start = c->rdtsc;
			} else if (r->opt.tsc_mhz > 0) {
				c->start = (uint64_t)((double)c->rdtsc * 1000.0 /
						      r->opt.tsc_mhz);
			} else {
				run_say("%s: its 'rdtsc %" PRIu64 "' line is in TSC ticks and the timeline in nanoseconds: give --tsc-mhz=MHZ or --counters-start=TS",
				    c->path, c->rdtsc);
				return EXIT_USAGE;
			}
			c->has_start = true;
		}
	}
	return 0;
}

/*
 * A guest input with a TSC offset is on the TSC. One on nanoseconds (a
 * uftrace guest on CLOCK_MONOTONIC) is not silently taken for the TSC:
 * only --clock or --tsc-mhz (the offset in ns) says how. Returns 0 or an
 * exit status.
 */
static int guest_clocks(struct run *r)
{
	size_t i;

	if (!r->opt.have_offset && !r->opt.auto_offset)
		return 0;
	for (i = 0; i < r->nsrcs; i++) {
		struct source *src = r->srcs[i];

		if (src->domain != DOMAIN_GUEST || src->clock_user_set ||
		    src->align.self_shifted)
			continue;
		if (src->clock == CLOCK_NS && r->opt.tsc_mhz <= 0) {
			fprintf(stderr, "kvmtrace_format: %s: a guest on a nanosecond clock given a TSC offset: say how to convert with --tsc-mhz=MHZ (the offset in TSC ticks becomes ns) or declare its clock with --clock=%s=tsc\n",
				src->name, src->path);
			return EXIT_USAGE;
		}
		if (src->clock != CLOCK_NS)
			src->clock = CLOCK_TSC;
	}
	return 0;
}

/* Each line of d on stderr after "kvmtrace_format: " and what. */
static void print_lines(const struct diag *d, const char *what)
{
	const char *line, *nl;

	for (line = d->msg; d->len && line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		fprintf(stderr, "kvmtrace_format: %s%.*s\n", what,
			(int)(nl ? (size_t)(nl - line) : strlen(line)), line);
	}
}

/* Where each guest's offset came from and how well it fits its host. */
static void report_alignment(struct run *r)
{
	struct diag d;
	bool warn;
	size_t i;

	for (i = 0; r->spans && i < r->nsrcs; i++) {
		diag_init(&d);
		if (clock_report(r->clock, r->srcs, r->spans, r->nsrcs, i, &d,
				 &warn))
			print_lines(&d, "");
	}
	diag_init(&d);
	if (r->spans && clock_overlap_report(r->srcs, r->spans, r->nsrcs, &d))
		print_lines(&d, "");
}

/*
 * trace-cmd's own host/guest pairs (source_pair()): a note for each guest
 * whose host is missing; a TSC offset must not apply to a file that
 * carries its own shift. Returns 0 or an exit status.
 */
static int pair_inputs(struct run *r)
{
	bool offset = r->opt.have_offset || r->opt.auto_offset, other = false;
	const struct source *shifted = NULL;
	struct diag note;
	size_t i;

	diag_init(&note);
	r->spans = calloc(r->nsrcs ? r->nsrcs : 1, sizeof(*r->spans));
	if (!r->spans || source_pair(r->srcs, r->nsrcs, &note) < 0) {
		error("out of memory");
		return EXIT_DATA;
	}
	print_lines(&note, "note: ");
	for (i = 0; offset && i < r->opt.ninputs && i < r->nsrcs; i++) {
		if (!r->srcs[i]->align.self_shifted)
			other |= r->opt.inputs[i].domain == DOMAIN_GUEST;
		else if (!shifted || r->opt.inputs[i].domain == DOMAIN_GUEST)
			shifted = r->srcs[i];
	}
	if (shifted && (!other || r->opt.inputs[shifted->index].domain ==
					  DOMAIN_GUEST)) {
		fprintf(stderr, "kvmtrace_format: %s: carries its own shift onto its host's clock (TIME_SHIFT, host trace id 0x%016" PRIx64 "); libtracecmd applies it, so --tsc-offset would apply a second one\n",
			shifted->name, shifted->align.host_traceid);
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * KTF_EVENT_AT_A_TIME set (not empty, not "0"): every run goes through
 * run_events()'s loop, an event at a time through merge_next(), as a run
 * the batched paths do not take (--live, a trace.dat alone) goes; they
 * promise the same output, messages and exit status, and the test suite
 * holds them to it by running its CLI cases both ways
 * (tests/cli-unbatched.sh). For comparing, not for use.
 */
static bool run_event_at_a_time(void)
{
	const char *e = getenv("KTF_EVENT_AT_A_TIME");

	return e && *e && strcmp(e, "0") != 0;
}

static int run_events(struct run *r, bool *bad_data)
{
	struct run_progress progress = { 0 };
	uint64_t last_ts = 0;
	bool spans = false, rendered = false, batch;
	struct diag d;
	struct event *ev;
	size_t i;
	int ret;

	/* the spans are for the alignment report (guests, and inputs that
	 * overlap no other: clock_overlap_report()) */
	spans = r->nsrcs > 1;
	for (i = 0; i < r->nsrcs; i++)
		spans |= r->srcs[i]->domain == DOMAIN_GUEST;
	progress.on = !r->opt.live && isatty(STDERR_FILENO) &&
		      !(r->opt.output == NULL && isatty(STDOUT_FILENO));
	clock_gettime(CLOCK_MONOTONIC, &progress.start);
	batch = !run_event_at_a_time();
	if (batch && run_batched(r)) {
		ret = run_batches(r, &progress, bad_data, spans);
		if (ret >= 0)
			return ret;
		goto end;
	}
	if (batch && !r->opt.live && merge_batched(r->merge)) {
		ret = run_merged(r, &progress, bad_data, spans);
		if (ret >= 0)
			return ret;
		goto end;
	}
	for (;;) {
		diag_init(&d);
		ret = merge_next(r->merge, &ev, &d);
		if (ret == MERGE_END)
			break;
		if (ret < 0) {
			/* that input is finished; the others go on */
			run_progress_end(&progress);
			error(d.msg);
			*bad_data = true;
			continue;
		}
		/* live: CPUs read by turns may step back a little */
		if (ret == MERGE_WARN && !r->opt.live) {
			run_progress_end(&progress);
			error(d.msg);
		}
		/* a damaged record: only the reference tool's line shows it */
		if (__builtin_expect(ev->damaged, 0) &&
		    (r->rules_file || r->opt.chrome || r->opt.stats ||
		     r->opt.exits))
			continue;
		if (spans && ev->has_ts)
			clock_span_add(&r->spans[ev->src->index], ev->ts);
		if (r->opt.filter && !filter_match(r->opt.filter, ev))
			continue;
		run_set_relts(ev, &last_ts);
		ret = r->sink->ops->event(r->sink, ev, &d);
		if (ret < 0) {
			run_progress_end(&progress);
			error(d.msg);
			/*
			 * before any line (the glob rules are checked at the
			 * first event): a rule-file error; after: bad data
			 */
			if (!rendered && ret == -EINVAL) {
				r->out->len = 0;
				return EXIT_USAGE;
			}
			return EXIT_DATA;
		}
		rendered = true;
		if (r->out->closed)
			return 0;
		run_progress_tick(&progress);
	}
end:
	run_progress_end(&progress);
	/* live: --events are the events enabled; an idle host is no typo */
	if (options_events_filter(&r->opt))
		filter_report(r->opt.filter, warn, NULL);
	diag_init(&d);
	ret = r->sink->ops->end(r->sink, &d);
	if (ret < 0) {
		error(d.msg);
		return EXIT_DATA;
	}
	return 0;
}

static int run(struct run *r)
{
	bool bad_data = false;
	struct diag d;
	int fd = STDOUT_FILENO, ret, status;

	diag_init(&d);
	/* binary on a terminal: the user meant a file */
	if (r->opt.perfetto && !r->opt.output && isatty(STDOUT_FILENO)) {
		error("--perfetto writes a binary protobuf trace, not for a terminal: give -o FILE (then open FILE at https://ui.perfetto.dev, \"Open trace file\")");
		return EXIT_USAGE;
	}
	if (r->opt.rules_path &&
	    formats_path_find(r->opt.rules_path, &r->rules_file) < 0)
		goto nomem;
	/* -o against the files as they will be opened (-f NAME found) */
	if (clobber_check(&r->opt, r->rules_file, &d) < 0) {
		error(d.msg);
		return EXIT_USAGE;
	}
	status = run_saved(r);
	if (status >= 0)
		return status;
	if (r->rules_file)
		ret = rules_load(r->rules_file, &r->rules, &d);
	else
		ret = rules_load_default(&r->rules, &d);
	if (ret < 0) {
		error(d.msg);
		return EXIT_USAGE;
	}
	r->clock = clock_create();
	if (!r->clock)
		goto nomem;
	r->clock->have_offset = r->opt.have_offset;
	r->clock->offset = r->opt.offset;
	r->clock->auto_offset = r->opt.auto_offset;
	if (r->opt.guest_syms) {
		r->syms = symtab_load(r->opt.guest_syms, &d);
		if (!r->syms) {
			error(d.msg);
			return EXIT_USAGE;
		}
	}
	if (r->opt.live) {
		status = run_open_live(r, &d);
		if (status == -ENOMEM)
			goto nomem;
		if (status)
			return status;
	} else if (inputs_check_files(&r->opt, &d) < 0) {
		error(d.msg);
		return EXIT_USAGE;
	}
	if (!r->opt.live) {
		r->srcs = calloc(inputs_count(&r->opt), sizeof(*r->srcs));
		if (!r->srcs)
			goto nomem;
		/* --counters without a trace: the counters alone, not stdin */
		ret = r->opt.ncounters && !r->opt.ninputs ? 0 :
			inputs_open(&r->opt, r->syms, r->srcs, &r->nsrcs, warn,
				    NULL, &d);
		if (ret == -ENOMEM)
			goto nomem;
		if (ret < 0) {
			error(d.msg);
			return ret == -EINVAL ? EXIT_USAGE : EXIT_DATA;
		}
	}
	status = pair_inputs(r);
	if (!status)
		status = guest_clocks(r);
	if (status)
		return status;
	r->clock->tsc_mhz = r->opt.tsc_mhz;
	ret = source_qemu_clocks(r->srcs, r->nsrcs, &d);
	if (ret == 0)
		ret = clock_timeline(r->clock, r->srcs, r->nsrcs, &d);
	if (!r->nsrcs)
		r->clock->timeline = CLOCK_NS;	/* perf stat's own seconds */
	if (ret < 0) {
		error(d.msg);
		return EXIT_USAGE;
	}
	if (r->opt.mhz > 0 && r->clock->timeline != CLOCK_TSC)
		run_say("warning: -c converts TSC ticks, and the timeline is %s: ts stays as it is (the key secs is in seconds)",
		    clock_name(r->clock->timeline));
	if (r->opt.filter) {
		if (filter_set_clock(r->opt.filter, r->clock->timeline,
				     r->opt.mhz, &d) < 0) {
			error(d.msg);
			return EXIT_USAGE;
		}
		filter_set_rules(r->opt.filter, r->rules);
		filter_set_sources(r->opt.filter, r->srcs, r->nsrcs);
	}
	status = load_counters(r);
	if (status)
		return status;
	r->render = render_create(r->rules, r->opt.mhz, r->nsrcs);
	if (!r->render)
		goto nomem;
	r->render->timeline = r->clock->timeline;
	if (r->opt.auto_offset) {
		ret = inputs_collect_offsets(r->srcs, r->nsrcs, r->render,
					     r->clock, &d);
		if (ret == -ENOMEM)
			goto nomem;
		if (ret < 0) {
			error(d.msg);
			return ret == -ENOENT ? EXIT_USAGE : EXIT_DATA;
		}
	}
	ret = render_check(r->render, r->srcs, r->nsrcs, &d);
	if (ret < 0) {
		error(d.msg);
		return ret == -ENOMEM ? EXIT_DATA : EXIT_USAGE;
	}
	if (rules_check_names(r->rules, r->srcs, r->nsrcs, warn, NULL) < 0)
		goto nomem;
	/* no file yet: the sink's begin may still refuse the run */
	r->out = outbuf_create(-1);
	if (!r->out)
		goto nomem;
	if (r->opt.chrome)
		r->sink = sink_chrome_create(r->out, r->render, r->opt.mhz,
					     r->opt.perfetto);
	else if (r->opt.stats && r->opt.live)
		r->sink = sink_live_stats_create(
			r->out, r->render, r->opt.stats_format, r->opt.mhz,
			r->syms, r->opt.stats_top, r->opt.stats_sort,
			r->opt.interval > 0 ? r->opt.interval : 1.0,
			!r->opt.output && isatty(STDOUT_FILENO));
	else if (r->opt.stats)
		r->sink = sink_stats_create(r->out, r->render,
					    r->opt.stats_format, r->opt.mhz,
					    r->syms, r->opt.stats_top,
					    r->opt.stats_sort);
	else if (r->opt.exits)
		r->sink = sink_exits_create(r->out, r->render, r->opt.exits,
					    r->opt.mhz, r->syms, r->opt.host);
	else
		r->sink = sink_text_create(r->out, r->render);
	r->merge = merge_create(r->srcs, r->nsrcs, r->clock);
	if (!r->sink || !r->merge)
		goto nomem;
	r->sink->counters = r->counters;
	r->sink->ncounters = r->ncounters;
	r->sink->warn = warn;
	ret = r->sink->ops->begin(r->sink, r->srcs, r->nsrcs, &d);
	if (ret < 0) {
		error(d.msg);
		return EXIT_USAGE;
	}
	/* everything that can be refused was: now the output */
	if (r->opt.output) {
		if (outfile_open(&r->outf, r->opt.output, &d) < 0) {
			error(d.msg);
			return EXIT_USAGE;
		}
		fd = r->outf.fd;
	}
	r->out->fd = fd;
	status = run_events(r, &bad_data);
	if (r->opt.live)
		live_source_stop(r->srcs[0]);
	inputs_notes_end(r->srcs, r->nsrcs, warn, NULL);
	if (outbuf_flush(r->out) < 0 && !r->out->closed) {
		/* the old file, if any, stays as it was */
		run_say("%s: cannot write: %s",
		    r->opt.output ? r->opt.output : "standard output",
		    strerror(-r->out->error));
		return EXIT_DATA;
	}
	/* a usage error leaves the old file; bad data keeps what was printed */
	if (r->opt.output && status != EXIT_USAGE &&
	    outfile_commit(&r->outf, r->opt.output, &d) < 0) {
		error(d.msg);
		return EXIT_DATA;
	}
	if (!r->out->closed)
		report_alignment(r);
	render_missing_report(r->render, warn, NULL);
	if (r->rules_file)
		render_unmatched_report(r->render, sink_kvmtrace_name, warn,
					NULL);
	for (size_t i = 0; i < r->ncounters; i++)
		if (r->counters[i].start_defaulted)
			run_say("%s: its times start at the first event of the timeline (ts %" PRIu64 "): give an 'rdtsc N' first line or --counters-start=TS to align them",
			    r->counters[i].path, r->counters[i].start);
	if (status)
		return status;
	return bad_data ? EXIT_DATA : 0;
nomem:
	error("out of memory");
	return EXIT_DATA;
}

static void run_fini(struct run *r)
{
	size_t i;

	merge_destroy(r->merge);
	sink_destroy(r->sink);
	outbuf_destroy(r->out);
	outfile_close(&r->outf);
	render_destroy(r->render);
	symtab_destroy(r->syms);
	for (i = 0; i < r->ncounters; i++)
		counters_fini(&r->counters[i]);
	free(r->counters);
	for (i = 0; i < r->nsrcs; i++)
		source_destroy(r->srcs[i]);
	free(r->srcs);
	free(r->spans);
	clock_destroy(r->clock);
	rules_destroy(r->rules);
	free(r->rules_file);
	options_fini(&r->opt);
}

/*
 * 0, 1 and 2 open, on /dev/null if they were closed: else the first file
 * a library opens becomes "standard output". Returns whether 1 was closed.
 */
static bool std_fds(void)
{
	bool out_closed = false;
	int fd;

	for (fd = 0; fd <= 2; fd++) {
		int null;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		out_closed |= fd == STDOUT_FILENO;
		/* the lowest free descriptor: this one */
		null = open("/dev/null", fd ? O_WRONLY : O_RDONLY);
		if (null >= 0 && null != fd) {
			dup2(null, fd);
			close(null);
		}
	}
	return out_closed;
}

/* As many open files as we may: one per input, many inputs. */
static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int main(int argc, char **argv)
{
	struct run r = { .outf.fd = -1 };
	int status;

	raise_nofile();
	r.opt.stdout_closed = std_fds();

	/* a closed pipe shows up as EPIPE from write(2): end quietly */
	signal(SIGPIPE, SIG_IGN);
	status = parse(&r.opt, argc, argv);
	if (status == 0)
		status = run(&r);
	else if (status < 0)
		status = 0;
	run_fini(&r);
	return status;
}
