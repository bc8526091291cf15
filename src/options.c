// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command line into a struct options (options.h).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "filter.h"
#include "formats-path.h"
#include "options-names.h"
#include "options.h"
#include "signature.h"
#include "source.h"

/* the second line of a message about an unknown or incomplete option */
static const char try_help[] = "Try 'kvmtrace_format --help'.";

void options_usage(FILE *f)
{
	fputs("Usage: kvmtrace_format [OPTIONS] [FORMATS] [INPUT...]\n"
	      "       kvmtrace_format FORMATS < trace.bin\n"
	      "\n"
	      "Render kvmtrace streams, trace-cmd trace.dat files, uftrace data\n"
	      "directories, perf.data files and QEMU traces (simple backend, logs) as\n"
	      "text through the templates of a rule file, on one host timeline;\n"
	      "without one, as the reference tool prints each (the 2008 script,\n"
	      "trace-cmd report, uftrace dump, perf script, simpletrace.py).\n"
	      "\n"
	      "  FORMATS            a classic rule file ('ID TEMPLATE' lines) or YAML\n"
	      "                     (.yaml/.yml); omitted: the built-in kvmtrace rules\n"
	      "  INPUT              kvmtrace streams (NAME.kvmtrace.N: CPU N), trace.dat\n"
	      "                     files, uftrace data directories, perf.data files,\n"
	      "                     QEMU simple traces and stamped logs; none: standard\n"
	      "                     input\n"
	      "\n"
	      "  -f, --formats=FILE     the rule file (then every positional is an input);\n"
	      "                         a bare NAME also finds NAME or NAME.yaml in\n"
	      "                         $KVMTRACE_FORMAT_PATH and the shipped formats\n"
	      "      --list-formats     the shipped formats, each with its summary\n"
	      "  -c, --mhz=MHZ          TSC time stamps in seconds: ts / (MHZ * 1e6)\n"
	      "      --guest=INPUT      an input recorded on the guest's clock\n"
	      "      --tsc-offset=N|auto  guest_tsc = host_tsc + N; auto: from\n"
	      "                         kvm:kvm_write_tsc_offset in the host trace.dat\n"
	      "      --clock=INPUT=tsc|ns|mono|wall  declare the clock of an input\n"
	      "      --tsc-mhz=MHZ      put TSC inputs on a nanosecond timeline\n"
	      "      --chrome           Chrome trace-event JSON (Perfetto, chrome://tracing)\n"
	      "      --perfetto         the same timeline as Perfetto's protobuf trace\n"
	      "                         (smaller; needs -o FILE on a terminal)\n"
	      "      --stats[=FORMAT]   a summary: events, exits by reason, VM, vCPU,\n"
	      "                         kind, guest function, the longest of each\n"
	      "                         reason and when; inputs. FORMAT: table,\n"
	      "                         hist (and log2 histograms), csv, json\n"
	      "      --stats-top=N      the first N rows of each exit table (the N\n"
	      "                         longest exits of each reason)\n"
	      "      --stats-sort=KEY   exit rows by time (total, the default), count,\n"
	      "                         max or p99\n"
	      "      --exits[=FORMAT]   one row per exit: host, input, vm, vcpu, reason,\n"
	      "                         reason_name, start_ns, duration_ns, guest_rip,\n"
	      "                         guest_sym, domain. FORMAT: csv (default), jsonl\n"
	      "      --host=NAME        the host column of --exits (default: the host\n"
	      "                         name the input records, else its file name)\n"
	      "      --guest-syms=FILE  guest symbols (System.map, kallsyms, ELF) for\n"
	      "                         --stats' exits by guest function\n"
	      "      --counters=FILE    perf stat -I output (any -x, or human) as Chrome\n"
	      "                         counter tracks and a --stats table (repeatable)\n"
	      "      --counters-start=TS  where its time 0 lies on the timeline (default:\n"
	      "                         an 'rdtsc N' first line, else the first event)\n"
	      "      --events=LIST      only these events (ids, names, system:name, globs)\n"
	      "      --demangle=simple|full|no  uftrace C++/Rust names (simple)\n"
	      "      --kallsyms=FILE    kernel symbols (/proc/kallsyms of the kernel that\n"
	      "                         recorded a perf.data) for its %pS/%ps fields\n"
	      "      --qemu-events=FILE QEMU's trace-events dictionary for QEMU traces\n"
	      "                         (default /usr/share/qemu/trace-events-all)\n"
	      "      --qemu-log=FILE    an input read as QEMU's log trace backend (a log\n"
	      "                         with -msg timestamp=on is recognised without it)\n"
	      "      --vcpu=LIST        only these vCPUs (numbers and ranges: 0,2-3)\n"
	      "      --pid=LIST         only these processes\n"
	      "      --time-range=A~B   only events with A <= ts <= B (ts as printed,\n"
	      "                         or seconds with an s: 1.5s~2s)\n"
	      "      --live             read the kernel's ring buffers as they fill (root):\n"
	      "                         --events (default kvm:*) are enabled in an\n"
	      "                         instance of its own; each event printed as it\n"
	      "                         comes (or --stats, --exits, --chrome,\n"
	      "                         --perfetto at the end); --time-range from\n"
	      "                         the start\n"
	      "      --duration=SECONDS --live: stop after SECONDS (else at a signal)\n"
	      "      --interval=SECONDS --live --stats: a table every SECONDS (1)\n"
	      "      --live-replay=FILE --live on the ring-buffer pages of a trace.dat\n"
	      "  -o, --output=FILE      write to FILE instead of standard output\n"
	      "  -h, --help             this help\n"
	      "  -V, --version          the version\n"
	      "\n"
	      "Exit status: 0 done, 1 bad data (after every good event before it),\n"
	      "2 bad usage or rule file (before any output).\n"
	      "See kvmtrace_format(1), kvmtrace_format-formats(5), trace-cmd(1),\n"
	      "uftrace(1), perf-script(1).\n",
	      f);
}

/* A directory is never a rule file: as the first argument, an input. */
static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int add_input(struct options *o, const char *path, enum domain dom)
{
	struct options_input *n;

	n = realloc(o->inputs, (o->ninputs + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	o->inputs = n;
	o->inputs[o->ninputs].path = path;
	o->inputs[o->ninputs].domain = dom;
	o->inputs[o->ninputs].qemu_log = false;
	o->ninputs++;
	return 0;
}

static int add_clock(struct options *o, const char *arg)
{
	const char *eq = strrchr(arg, '=');
	struct options_clock *n;
	enum clock_kind k;

	if (!eq || eq == arg)
		return -EINVAL;
	if (!strcmp(eq + 1, "tsc"))
		k = CLOCK_TSC;
	else if (!strcmp(eq + 1, "ns") || !strcmp(eq + 1, "mono") ||
		 !strcmp(eq + 1, "wall"))
		k = CLOCK_NS;
	else
		return -EINVAL;
	n = realloc(o->clocks, (o->nclocks + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	o->clocks = n;
	n[o->nclocks].path = arg;
	n[o->nclocks].len = (size_t)(eq - arg);
	n[o->nclocks].clock = k;
	n[o->nclocks].base = !strcmp(eq + 1, "mono") ? "mono" :
			     !strcmp(eq + 1, "wall") ? "wall" : NULL;
	o->nclocks++;
	return 0;
}

/*
 * The frequencies a clock can have: 1 kHz to 1 THz. Outside them a scaled
 * time is all zeros or overflows, and a tick rate of 0 divides by zero.
 */
#define MHZ_MIN 0.001
#define MHZ_MAX 1000000.0

static int parse_mhz(const char *s, double *out)
{
	char *end;
	double v;

	/* a decimal number, as Python's float() reads one; no hex floats */
	if (strpbrk(s, "xX"))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v <= 0)
		return -EINVAL;
	if (v < MHZ_MIN || v > MHZ_MAX)
		return -ERANGE;
	*out = v;
	return 0;
}

/* decimal, or hexadecimal with 0x: never octal (010 is ten) */
static int parse_s64(const char *s, int64_t *out)
{
	const char *digits = s + (*s == '-' || *s == '+');
	bool hex = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
	char *end;
	long long v;

	if (!*digits || *digits == ' ' || (hex && !digits[2]))
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, hex ? 16 : 10);
	if (errno || end == s || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

static int mhz_option(const char *opt, const char *arg, double *out,
		      struct diag *d)
{
	int ret = parse_mhz(arg, out);

	if (ret == -ERANGE)
		diag_set(d, "%s: %s MHz is no clock's frequency (%g to %g MHz)", opt,
			 arg, MHZ_MIN, MHZ_MAX);
	else if (ret < 0)
		diag_set(d, "%s: '%s' is not a frequency in MHz (a positive number such as 2400 or 2394.5)",
			 opt, arg);
	return ret;
}

/*
 * A first positional that names nothing (no file, no shipped format): it
 * might have been a rule file or an input, so say only that it is not there.
 */
static int missing_positional(const char *name, struct diag *d)
{
	struct stat st;
	char *found;
	int ret;

	if (stat(name, &st) == 0 || errno != ENOENT)
		return 0;
	if (formats_path_find(name, &found) < 0)
		return -ENOMEM;
	ret = strcmp(found, name) ? 0 : -ENOENT;
	free(found);
	if (ret)
		diag_set(d, "%s: no such file (nor a shipped format of that name: see --list-formats)",
			 name);
	return ret;
}

/* --duration, --interval: a positive number of seconds (1.5, 2s). */
static int seconds_option(const char *opt, const char *arg, double *out,
			  struct diag *d)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end != arg && *end == 's')
		end++;
	if (end == arg || *end || errno || !(v > 0) || v > 1e9) {
		diag_set(d, "%s: '%s' is not a number of seconds (a positive number such as 10 or 0.5)",
			 opt, arg);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* --events, every one, joined by commas: what --live enables. */
static int add_events(struct options *o, const char *arg)
{
	const char **v;
	char *n;

	v = realloc(o->events_args, (o->nevents_args + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	o->events_args = v;
	v[o->nevents_args++] = arg;
	if (asprintf(&n, "%s%s%s", o->events_list ? o->events_list : "",
		     o->events_list ? "," : "", arg) < 0)
		return -ENOMEM;
	free(o->events_list);
	o->events_list = n;
	return 0;
}

/*
 * --events as a filter, each in the order given; not with --live, where
 * they are what the kernel is asked for (live-tracefs.c reads them: a
 * system's name alone, sys/event as trace-cmd writes it), but for
 * --live-replay, whose pages hold every event recorded: the filter shows
 * what --live would have read.
 */
static int events_filter(struct options *o, struct diag *d)
{
	size_t i;

	for (i = 0; i < o->nevents_args; i++) {
		if (!o->filter)
			o->filter = filter_create();
		if (!o->filter) {
			diag_set(d, "out of memory");
			return -ENOMEM;
		}
		diag_init(d);
		if (filter_option(o->filter, "events", o->events_args[i], d) < 0)
			return -EINVAL;
	}
	return 0;
}

/* --live: what goes with it. */
static int check_live(struct options *o, struct diag *d)
{
	if (!o->live) {
		if (o->duration > 0 || o->interval > 0) {
			diag_set(d, "%s goes with --live",
				 o->duration > 0 ? "--duration" : "--interval");
			return -EINVAL;
		}
		return 0;
	}
	if (o->ninputs) {
		diag_set(d, "--live reads the kernel's buffers, not '%s': give a rule file with -f, or no input",
			 o->inputs[0].path);
		return -EINVAL;
	}
	if (o->ncounters || o->have_offset || o->auto_offset) {
		diag_set(d, "--live reads the host's own kernel; %s is for recordings",
			 o->ncounters ? "--counters" : "--tsc-offset");
		return -EINVAL;
	}
	if (o->interval > 0 && !o->stats) {
		diag_set(d, "--interval goes with --live --stats");
		return -EINVAL;
	}
	return 0;
}

/* What options_parse() cannot check one option at a time. */
static int check_args(struct options *o, bool have_f, struct diag *d)
{
	const struct signature *sig;
	const char *kind;
	size_t i, j, nstdin = 0;

	if (check_live(o, d) < 0)
		return -EINVAL;

	for (i = 0; i < o->ninputs; i++)
		nstdin += !strcmp(o->inputs[i].path, "-");
	if (nstdin > 1) {
		diag_set(d, "'-' (standard input) is given %zu times; it can be read once",
			 nstdin);
		return -EINVAL;
	}
	for (i = 0; i < o->nclocks; i++) {
		const struct options_clock *c = &o->clocks[i];
		bool found = false;

		for (j = 0; j < o->ninputs && !found; j++)
			found = strlen(o->inputs[j].path) == c->len &&
				!strncmp(o->inputs[j].path, c->path, c->len);
		if (!found && !o->ninputs && c->len == 1 && *c->path == '-')
			found = true;
		if (!found) {
			diag_set(d, "--clock=%s: '%.*s' is not an input of this run",
				 c->path, (int)c->len, c->path);
			return -EINVAL;
		}
	}
	/* -f <(cat formats): a pipe given as the rule file is one */
	if (o->rules_path &&
	    (kind = source_input_kind(o->rules_path, false)) &&
	    !(have_f && !strcmp(kind, "a stream"))) {
		diag_set(d, "%s: this looks like %s, not a rule file; give the rule file with -f and the inputs after it",
			 o->rules_path, kind);
		return -EINVAL;
	}
	if (o->rules_path && (sig = signature_file(o->rules_path))) {
		if (sig->unpack)
			diag_set(d, "%s: this is %s, not a rule file; decompress it first: kvmtrace_format -f <(%s FILE) ...",
				 o->rules_path, sig->what, sig->unpack);
		else
			diag_set(d, "%s: this is %s, not a rule file", o->rules_path,
				 sig->what);
		return -EINVAL;
	}
	if (!o->output && o->stdout_closed) {
		diag_set(d, "standard output is closed; give -o FILE");
		return -EINVAL;
	}
	return OPTIONS_RUN;
}

enum {
	OPT_GUEST = 256,
	OPT_TSC_OFFSET,
	OPT_CLOCK,
	OPT_TSC_MHZ,
	OPT_FILTER_EVENTS,
	OPT_FILTER_VCPU,
	OPT_FILTER_PID,
	OPT_FILTER_TIME,
	OPT_CHROME,
	OPT_PERFETTO,
	OPT_STATS,
	OPT_DEMANGLE,
	OPT_GUEST_SYMS,
	OPT_LIST_FORMATS,
	OPT_QEMU_EVENTS,
	OPT_KALLSYMS,
	OPT_QEMU_LOG,
	OPT_STATS_TOP,
	OPT_STATS_SORT,
	OPT_COUNTERS,
	OPT_COUNTERS_START,
	OPT_LIVE,
	OPT_LIVE_REPLAY,
	OPT_DURATION,
	OPT_INTERVAL,
	OPT_EXITS,
	OPT_HOST,
};

static const struct option long_options[] = {
	{ "formats", required_argument, NULL, 'f' },
	{ "mhz", required_argument, NULL, 'c' },
	{ "output", required_argument, NULL, 'o' },
	{ "guest", required_argument, NULL, OPT_GUEST },
	{ "tsc-offset", required_argument, NULL, OPT_TSC_OFFSET },
	{ "clock", required_argument, NULL, OPT_CLOCK },
	{ "tsc-mhz", required_argument, NULL, OPT_TSC_MHZ },
	{ "chrome", no_argument, NULL, OPT_CHROME },
	{ "perfetto", no_argument, NULL, OPT_PERFETTO },
	{ "stats", optional_argument, NULL, OPT_STATS },
	{ "stats-top", required_argument, NULL, OPT_STATS_TOP },
	{ "stats-sort", required_argument, NULL, OPT_STATS_SORT },
	{ "demangle", required_argument, NULL, OPT_DEMANGLE },
	{ "guest-syms", required_argument, NULL, OPT_GUEST_SYMS },
	{ "events", required_argument, NULL, OPT_FILTER_EVENTS },
	{ "vcpu", required_argument, NULL, OPT_FILTER_VCPU },
	{ "pid", required_argument, NULL, OPT_FILTER_PID },
	{ "time-range", required_argument, NULL, OPT_FILTER_TIME },
	{ "list-formats", no_argument, NULL, OPT_LIST_FORMATS },
	{ "qemu-events", required_argument, NULL, OPT_QEMU_EVENTS },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "qemu-log", required_argument, NULL, OPT_QEMU_LOG },
	{ "counters", required_argument, NULL, OPT_COUNTERS },
	{ "counters-start", required_argument, NULL, OPT_COUNTERS_START },
	{ "live", no_argument, NULL, OPT_LIVE },
	{ "live-replay", required_argument, NULL, OPT_LIVE_REPLAY },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "exits", optional_argument, NULL, OPT_EXITS },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

int options_parse(struct options *o, int argc, char **argv, struct diag *d)
{
	static const char shorts[] = "-:f:c:o:hV";
	bool have_f = false, first = true, json = false;
	int c;

	if (options_names_canon(long_options, shorts, argc, argv, &o->names) < 0)
		goto nomem;
	opterr = 0;
	/* "-": positionals come back in order (c == 1), mixed with options */
	while ((c = getopt_long(argc, argv, shorts, long_options, NULL)) != -1) {
		switch (c) {
		case 1:
			/* the first positional is FORMATS unless it is an input */
			/* a compressed trace's first bytes can be text */
			if (first && !have_f && !is_dir(optarg) &&
			    !source_input_kind(optarg, true) &&
			    !signature_file(optarg))
				o->rules_path = optarg;
			else if (add_input(o, optarg, DOMAIN_HOST) < 0)
				goto nomem;
			first = false;
			break;
		case 'f':
			if (!have_f && !first && o->rules_path) {
				/* an earlier positional was taken for FORMATS */
				if (add_input(o, o->rules_path, DOMAIN_HOST) < 0)
					goto nomem;
			}
			o->rules_path = optarg;
			have_f = true;
			break;
		case 'c':
			if (mhz_option("-c", optarg, &o->mhz, d) < 0)
				return -EINVAL;
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_GUEST:
			if (add_input(o, optarg, DOMAIN_GUEST) < 0)
				goto nomem;
			break;
		case OPT_TSC_OFFSET:
			if (!strcmp(optarg, "auto")) {
				o->auto_offset = true;
			} else if (parse_s64(optarg, &o->offset) < 0) {
				diag_set(d, "--tsc-offset: '%s' is neither a signed 64-bit number (decimal, or hexadecimal with 0x) nor 'auto'",
					 optarg);
				return -EINVAL;
			} else {
				o->have_offset = true;
			}
			break;
		case OPT_CLOCK:
			if (add_clock(o, optarg) < 0) {
				diag_set(d, "--clock: '%s' is not INPUT=tsc, INPUT=ns, INPUT=mono or INPUT=wall",
					 optarg);
				return -EINVAL;
			}
			break;
		case OPT_TSC_MHZ:
			if (mhz_option("--tsc-mhz", optarg, &o->tsc_mhz, d) < 0)
				return -EINVAL;
			break;
		case OPT_COUNTERS: {
			const char **n = realloc(o->counters,
						 (o->ncounters + 1) * sizeof(*n));

			if (!n)
				goto nomem;
			o->counters = n;
			n[o->ncounters++] = optarg;
			break;
		}
		case OPT_COUNTERS_START: {
			int64_t v;

			if (parse_s64(optarg, &v) < 0 || v < 0) {
				diag_set(d, "--counters-start: '%s' is not a time stamp of the timeline (a number, as ts prints)",
					 optarg);
				return -EINVAL;
			}
			o->counters_start = (uint64_t)v;
			o->have_counters_start = true;
			break;
		}
		case OPT_CHROME:
			o->chrome = true;
			json = true;
			break;
		case OPT_PERFETTO:
			/* the Chrome sink's timeline, Perfetto's encoding */
			o->chrome = true;
			o->perfetto = true;
			break;
		case OPT_STATS:
			o->stats = true;
			o->stats_format = optarg;
			if (optarg && strcmp(optarg, "csv") && strcmp(optarg, "table") &&
			    strcmp(optarg, "hist") && strcmp(optarg, "json")) {
				diag_set(d, "--stats: '%s' is none of table, hist, csv, json",
					 optarg);
				return -EINVAL;
			}
			break;
		case OPT_EXITS:
			o->exits = optarg ? optarg : "csv";
			if (strcmp(o->exits, "csv") && strcmp(o->exits, "jsonl")) {
				diag_set(d, "--exits: '%s' is neither csv nor jsonl",
					 optarg);
				return -EINVAL;
			}
			break;
		case OPT_HOST:
			o->host = optarg;
			break;
		case OPT_STATS_TOP: {
			char *end;
			unsigned long n;

			errno = 0;
			n = strtoul(optarg, &end, 10);
			if (!*optarg || *end || errno || n < 1 || n > 1000000 ||
			    *optarg == '-' || *optarg == '+') {
				diag_set(d, "--stats-top: '%s' is not a number of rows (1 to 1000000)",
					 optarg);
				return -EINVAL;
			}
			o->stats = true;
			o->stats_top = (unsigned)n;
			break;
		}
		case OPT_STATS_SORT:
			if (strcmp(optarg, "time") && strcmp(optarg, "count") &&
			    strcmp(optarg, "max") && strcmp(optarg, "p99")) {
				diag_set(d, "--stats-sort: '%s' is none of time, count, max, p99",
					 optarg);
				return -EINVAL;
			}
			o->stats = true;
			o->stats_sort = optarg;
			break;
		case OPT_DEMANGLE:
			if (!strcmp(optarg, "full"))
				o->demangle = SOURCE_DEMANGLE_FULL;
			else if (!strcmp(optarg, "no"))
				o->demangle = SOURCE_DEMANGLE_NO;
			else if (strcmp(optarg, "simple")) {
				diag_set(d, "--demangle: '%s' is not simple, full or no",
					 optarg);
				return -EINVAL;
			}
			break;
		case OPT_GUEST_SYMS:
			o->guest_syms = optarg;
			break;
		case OPT_QEMU_EVENTS:
			o->qemu_events = optarg;
			break;
		case OPT_KALLSYMS:
			o->kallsyms = optarg;
			break;
		case OPT_QEMU_LOG:
			if (add_input(o, optarg, DOMAIN_HOST) < 0)
				goto nomem;
			o->inputs[o->ninputs - 1].qemu_log = true;
			break;
		case OPT_LIVE:
			o->live = true;
			break;
		case OPT_LIVE_REPLAY:
			o->live = true;
			o->live_replay = optarg;
			break;
		case OPT_DURATION:
		case OPT_INTERVAL:
			if (seconds_option(c == OPT_DURATION ? "--duration"
							     : "--interval",
					   optarg,
					   c == OPT_DURATION ? &o->duration
							     : &o->interval,
					   d) < 0)
				return -EINVAL;
			break;
		case OPT_FILTER_EVENTS:
			/* a filter after the loop: with --live, what is enabled */
			if (add_events(o, optarg) < 0)
				goto nomem;
			break;
		case OPT_FILTER_VCPU:
		case OPT_FILTER_PID:
		case OPT_FILTER_TIME: {
			static const char *const names[] = {
				"events", "vcpu", "pid", "time-range",
			};
			if (!o->filter)
				o->filter = filter_create();
			if (!o->filter)
				goto nomem;
			diag_init(d);
			if (filter_option(o->filter, names[c - OPT_FILTER_EVENTS],
					  optarg, d) < 0)
				return -EINVAL;
			break;
		}
		case 'h':
			return OPTIONS_HELP;
		case OPT_LIST_FORMATS:
			return OPTIONS_LIST_FORMATS;
		case 'V':
			return OPTIONS_VERSION;
		case ':':
			diag_set(d, "%s needs an argument\n%s", argv[optind - 1],
				 try_help);
			return -EINVAL;
		default:
			if (optopt)
				diag_set(d, "unknown option -%c\n%s", optopt,
					 try_help);
			else
				options_names_unknown(long_options,
						      argv[optind - 1], d);
			return -EINVAL;
		}
	}
	if (options_events_filter(o) && (c = events_filter(o, d)) < 0)
		return c;
	for (; optind < argc; optind++)		/* after "--" */
		if (add_input(o, argv[optind], DOMAIN_HOST) < 0)
			goto nomem;
	/*
	 * a first positional taken for FORMATS that is an input after all:
	 * a QEMU log without stamps (known by the dictionary, which
	 * --qemu-events may name after it)
	 */
	if (o->rules_path && !have_f && !is_dir(o->rules_path) &&
	    source_qemu_log_unstamped(o->rules_path, NULL, 0, o->qemu_events)) {
		if (add_input(o, o->rules_path, DOMAIN_HOST) < 0)
			goto nomem;
		memmove(o->inputs + 1, o->inputs,
			(o->ninputs - 1) * sizeof(*o->inputs));
		o->inputs[0].path = o->rules_path;
		o->inputs[0].domain = DOMAIN_HOST;
		o->inputs[0].qemu_log = false;
		o->rules_path = NULL;
	}
	if (o->rules_path && !have_f &&
	    (c = missing_positional(o->rules_path, d)) < 0)
		return c == -ENOMEM ? -ENOMEM : -EINVAL;
	if (json && o->perfetto) {
		diag_set(d, "--chrome and --perfetto are two outputs; choose one");
		return -EINVAL;
	}
	if (o->chrome && o->stats) {
		diag_set(d, "%s and --stats are two outputs; choose one",
			 o->perfetto ? "--perfetto" : "--chrome");
		return -EINVAL;
	}
	if (o->exits && (o->chrome || o->stats)) {
		diag_set(d, "--exits and --%s are two outputs; choose one",
			 o->perfetto ? "perfetto" : o->chrome ? "chrome" : "stats");
		return -EINVAL;
	}
	if (o->host && !o->exits) {
		diag_set(d, "--host names the host column of --exits; give --exits");
		return -EINVAL;
	}
	return check_args(o, have_f, d);
nomem:
	diag_set(d, "out of memory");
	return -ENOMEM;
}

void options_fini(struct options *o)
{
	free(o->events_list);
	free(o->events_args);
	free(o->inputs);
	free(o->clocks);
	free(o->counters);
	filter_destroy(o->filter);
	options_names_fini(&o->names);
}
