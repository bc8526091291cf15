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
#include "options.h"
#include "source.h"

/* the second line of a message about an unknown or incomplete option */
static const char try_help[] = "Try 'kvmtrace_format --help'.";

void options_usage(FILE *f)
{
	fputs("Usage: kvmtrace_format [OPTIONS] [FORMATS] [INPUT...]\n"
	      "       kvmtrace_format FORMATS < trace.bin\n"
	      "\n"
	      "Render kvmtrace streams, trace-cmd trace.dat files and uftrace data\n"
	      "directories as text through the templates of a rule file, on one\n"
	      "host timeline.\n"
	      "\n"
	      "  FORMATS            a classic rule file ('ID TEMPLATE' lines) or YAML\n"
	      "                     (.yaml/.yml); omitted: the built-in kvmtrace rules\n"
	      "  INPUT              kvmtrace streams (NAME.kvmtrace.N: CPU N), trace.dat\n"
	      "                     files, uftrace data directories, QEMU simple traces;\n"
	      "                     none: standard input\n"
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
	      "      --stats[=FORMAT]   a summary: events, exits by reason, VM, vCPU,\n"
	      "                         kind, guest function; inputs. FORMAT: table,\n"
	      "                         hist (and log2 histograms), csv, json\n"
	      "      --stats-top=N      the first N rows of each exit table\n"
	      "      --stats-sort=KEY   exit rows by time (total, the default), count,\n"
	      "                         max or p99\n"
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
	      "  -o, --output=FILE      write to FILE instead of standard output\n"
	      "  -h, --help             this help\n"
	      "  -V, --version          the version\n"
	      "\n"
	      "Exit status: 0 done, 1 bad data (after every good event before it),\n"
	      "2 bad usage or rule file (before any output).\n"
	      "See kvmtrace_format(1) and kvmtrace_format-formats(5).\n",
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

/* What options_parse() cannot check one option at a time. */
static int check_args(struct options *o, bool have_f, struct diag *d)
{
	const char *kind;
	size_t i, j, nstdin = 0;

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
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

int options_parse(struct options *o, int argc, char **argv, struct diag *d)
{
	bool have_f = false, first = true;
	int c;

	opterr = 0;
	/* "-": positionals come back in order (c == 1), mixed with options */
	while ((c = getopt_long(argc, argv, "-:f:c:o:hV", long_options,
				NULL)) != -1) {
		switch (c) {
		case 1:
			/* the first positional is FORMATS unless it is an input */
			if (first && !have_f && !is_dir(optarg) &&
			    !source_input_kind(optarg, true))
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
		case OPT_FILTER_EVENTS:
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
				diag_set(d, "unknown option %s\n%s",
					 argv[optind - 1], try_help);
			return -EINVAL;
		}
	}
	for (; optind < argc; optind++)		/* after "--" */
		if (add_input(o, argv[optind], DOMAIN_HOST) < 0)
			goto nomem;
	if (o->rules_path && !have_f &&
	    (c = missing_positional(o->rules_path, d)) < 0)
		return c == -ENOMEM ? -ENOMEM : -EINVAL;
	if (o->chrome && o->stats) {
		diag_set(d, "--chrome and --stats are two outputs; choose one");
		return -EINVAL;
	}
	return check_args(o, have_f, d);
nomem:
	diag_set(d, "out of memory");
	return -ENOMEM;
}

void options_fini(struct options *o)
{
	free(o->inputs);
	free(o->clocks);
	free(o->counters);
	filter_destroy(o->filter);
}
