// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kvmtrace_format: command line and wiring. The only place that exits.
 *
 *   kvmtrace_format [OPTIONS] [FORMATS] [INPUT...]
 *   kvmtrace_format formats < trace.bin
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "clock.h"
#include "diag.h"
#include "filter.h"
#include "formats-path.h"
#include "merge.h"
#include "outbuf.h"
#include "render.h"
#include "rules.h"
#include "rules-names.h"
#include "sink.h"
#include "source.h"
#include "symtab.h"

#define EXIT_DATA 1
#define EXIT_USAGE 2

struct input {
	const char *path;	/* borrowed from argv */
	enum domain domain;
};

/* --clock=INPUT=tsc|ns */
struct clock_decl {
	const char *path;	/* borrowed from argv */
	size_t len;
	enum clock_kind clock;
};

struct options {
	const char *rules_path;	/* NULL: the built-in rules */
	double mhz;
	const char *output;
	bool chrome;
	bool stats;
	const char *stats_format;
	enum source_demangle demangle;	/* uftrace names */
	const char *guest_syms;	/* --guest-syms */
	bool have_offset;
	bool auto_offset;
	int64_t offset;
	double tsc_mhz;
	struct filter *filter;	/* owned */
	struct input *inputs;	/* owned */
	size_t ninputs;
	struct clock_decl *clocks;	/* owned */
	size_t nclocks;
	bool stdout_closed;	/* it was; /dev/null holds its place */
};

static void usage(FILE *f)
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
	      "                     files, uftrace data directories; none: standard input\n"
	      "\n"
	      "  -f, --formats=FILE     the rule file (then every positional is an input);\n"
	      "                         a bare NAME also finds NAME or NAME.yaml in\n"
	      "                         $KVMTRACE_FORMAT_PATH and the shipped formats\n"
	      "      --list-formats     the shipped formats, each with its summary\n"
	      "  -c, --mhz=MHZ          time stamps in seconds: ts / (MHZ * 1e6)\n"
	      "      --guest=INPUT      an input recorded on the guest's clock\n"
	      "      --tsc-offset=N|auto  guest_tsc = host_tsc + N; auto: from\n"
	      "                         kvm:kvm_write_tsc_offset in the host trace.dat\n"
	      "      --clock=INPUT=tsc|ns  declare the clock of an input\n"
	      "      --tsc-mhz=MHZ      put TSC inputs on a nanosecond timeline\n"
	      "      --chrome           Chrome trace-event JSON (Perfetto, chrome://tracing)\n"
	      "      --stats[=FORMAT]   a summary: events, exits by reason, VM, vCPU,\n"
	      "                         kind, guest function; inputs. FORMAT: table,\n"
	      "                         hist (and log2 histograms), csv, json\n"
	      "      --guest-syms=FILE  guest symbols (System.map, kallsyms, ELF) for\n"
	      "                         --stats' exits by guest function\n"
	      "      --events=LIST      only these events (ids, names, system:name, globs)\n"
	      "      --demangle=simple|full|no  uftrace C++/Rust names (simple)\n"
	      "      --vcpu=LIST        only these vCPUs (numbers and ranges: 0,2-3)\n"
	      "      --pid=LIST         only these processes\n"
	      "      --time-range=A~B   only events with A <= ts <= B (ts as printed)\n"
	      "  -o, --output=FILE      write to FILE instead of standard output\n"
	      "  -h, --help             this help\n"
	      "  -V, --version          the version\n"
	      "\n"
	      "Exit status: 0 done, 1 bad data (after every good event before it),\n"
	      "2 bad usage or rule file (before any output).\n"
	      "See kvmtrace_format(1) and kvmtrace_format-formats(5).\n",
	      f);
}

/*
 * Every message goes out here, with control bytes other than new lines
 * and tabs escaped: file names and option values come from the user, and
 * an escape sequence in one must not reach the terminal.
 */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *fmt, ...)
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
	say("%s", msg);
}

static void warn(void *arg, const char *msg)
{
	say("%s", msg);
}

static int add_input(struct options *o, const char *path, enum domain dom)
{
	struct input *n = realloc(o->inputs, (o->ninputs + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	o->inputs = n;
	o->inputs[o->ninputs].path = path;
	o->inputs[o->ninputs].domain = dom;
	o->ninputs++;
	return 0;
}

static int add_clock(struct options *o, const char *arg)
{
	const char *eq = strrchr(arg, '=');
	struct clock_decl *n;
	enum clock_kind k;

	if (!eq || eq == arg)
		return -EINVAL;
	if (!strcmp(eq + 1, "tsc"))
		k = CLOCK_TSC;
	else if (!strcmp(eq + 1, "ns"))
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

static int mhz_option(const char *opt, const char *arg, double *out)
{
	int ret = parse_mhz(arg, out);

	if (ret == -ERANGE)
		say("%s: %s MHz is no clock's frequency (%g to %g MHz)", opt,
		    arg, MHZ_MIN, MHZ_MAX);
	else if (ret < 0)
		say("%s: '%s' is not a frequency in MHz (a positive number such as 2400 or 2394.5)",
		    opt, arg);
	return ret;
}

/* Is st (a file that exists) the output's file? Devices may be shared. */
static bool same_file(const struct stat *out, const struct stat *st)
{
	return out->st_dev == st->st_dev && out->st_ino == st->st_ino &&
	       !S_ISCHR(out->st_mode);
}

/* A file of directory dir (depth: levels below it) that is the output. */
static const char *dir_holds(const char *dir, const struct stat *out,
			     int depth, char *buf, size_t len)
{
	const char *hit = NULL;
	struct dirent *e;
	DIR *dp;

	dp = opendir(dir);
	if (!dp)
		return NULL;
	while (!hit && (e = readdir(dp))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if ((size_t)snprintf(buf, len, "%s/%s", dir, e->d_name) >= len)
			continue;
		if (stat(buf, &st) < 0)
			continue;
		if (same_file(out, &st))
			hit = buf;
		else if (S_ISDIR(st.st_mode) && depth > 0) {
			char *sub = strdup(buf);

			if (sub)
				hit = dir_holds(sub, out, depth - 1, buf, len);
			free(sub);
		}
	}
	closedir(dp);
	return hit;
}

/*
 * -o must not name a file the run reads: the rule file, an input, a file
 * in an input's directory, or standard input; it would be truncated before
 * it is read. Same inode: links, symlinks and /dev/fd/N count.
 */
static int check_output(const struct options *o)
{
	char buf[4096];
	struct stat out, st;
	bool reads_stdin = !o->ninputs;
	const char *what = NULL, *hit = NULL;
	size_t i;

	if (!o->output || stat(o->output, &out) < 0)
		return 0;
	if (o->rules_path && stat(o->rules_path, &st) == 0 &&
	    same_file(&out, &st)) {
		what = "the rule file";
		hit = o->rules_path;
	}
	for (i = 0; !what && i < o->ninputs; i++) {
		const char *p = o->inputs[i].path;

		if (!strcmp(p, "-")) {
			reads_stdin = true;
			continue;
		}
		if (stat(p, &st) < 0)
			continue;
		if (same_file(&out, &st)) {
			what = "an input";
			hit = p;
		} else if (S_ISDIR(st.st_mode) &&
			   (hit = dir_holds(p, &out, 2, buf, sizeof(buf)))) {
			what = "a file of the input directory";
		}
	}
	if (!what && reads_stdin && fstat(STDIN_FILENO, &st) == 0 &&
	    same_file(&out, &st)) {
		what = "standard input";
		hit = "-";
	}
	if (!what)
		return 0;
	say("-o %s: that is %s (%s); it would be destroyed before it is read: write the output elsewhere",
	    o->output, what, hit);
	return EXIT_USAGE;
}

/* What parse_args() cannot check one option at a time. */
static int check_args(struct options *o)
{
	const char *kind;
	size_t i, j, nstdin = 0;

	for (i = 0; i < o->ninputs; i++)
		nstdin += !strcmp(o->inputs[i].path, "-");
	if (nstdin > 1) {
		say("'-' (standard input) is given %zu times; it can be read once",
		    nstdin);
		return EXIT_USAGE;
	}
	for (i = 0; i < o->nclocks; i++) {
		const struct clock_decl *c = &o->clocks[i];
		bool found = false;

		for (j = 0; j < o->ninputs && !found; j++)
			found = strlen(o->inputs[j].path) == c->len &&
				!strncmp(o->inputs[j].path, c->path, c->len);
		if (!found && !o->ninputs && c->len == 1 && *c->path == '-')
			found = true;
		if (!found) {
			say("--clock=%s: '%.*s' is not an input of this run",
			    c->path, (int)c->len, c->path);
			return EXIT_USAGE;
		}
	}
	if (o->rules_path &&
	    (kind = source_input_kind(o->rules_path, false))) {
		say("%s: this looks like %s, not a rule file; give the rule file with -f and the inputs after it",
		    o->rules_path, kind);
		return EXIT_USAGE;
	}
	if (!o->output && o->stdout_closed) {
		say("standard output is closed; give -o FILE");
		return EXIT_USAGE;
	}
	return check_output(o);
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
	{ "demangle", required_argument, NULL, OPT_DEMANGLE },
	{ "guest-syms", required_argument, NULL, OPT_GUEST_SYMS },
	{ "events", required_argument, NULL, OPT_FILTER_EVENTS },
	{ "vcpu", required_argument, NULL, OPT_FILTER_VCPU },
	{ "pid", required_argument, NULL, OPT_FILTER_PID },
	{ "time-range", required_argument, NULL, OPT_FILTER_TIME },
	{ "list-formats", no_argument, NULL, OPT_LIST_FORMATS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* Returns 0, or an exit status (with the message printed). */
static int parse_args(int argc, char **argv, struct options *o)
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
			if (first && !have_f &&
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
			if (mhz_option("-c", optarg, &o->mhz) < 0)
				return EXIT_USAGE;
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
				say("--tsc-offset: '%s' is neither a signed 64-bit number (decimal, or hexadecimal with 0x) nor 'auto'",
				    optarg);
				return EXIT_USAGE;
			} else {
				o->have_offset = true;
			}
			break;
		case OPT_CLOCK:
			if (add_clock(o, optarg) < 0) {
				say("--clock: '%s' is not INPUT=tsc or INPUT=ns",
				    optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_TSC_MHZ:
			if (mhz_option("--tsc-mhz", optarg, &o->tsc_mhz) < 0)
				return EXIT_USAGE;
			break;
		case OPT_CHROME:
			o->chrome = true;
			break;
		case OPT_STATS:
			o->stats = true;
			o->stats_format = optarg;
			if (optarg && strcmp(optarg, "csv") && strcmp(optarg, "table") &&
			    strcmp(optarg, "hist") && strcmp(optarg, "json")) {
				say("--stats: '%s' is none of table, hist, csv, json",
				    optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_DEMANGLE:
			if (!strcmp(optarg, "full"))
				o->demangle = SOURCE_DEMANGLE_FULL;
			else if (!strcmp(optarg, "no"))
				o->demangle = SOURCE_DEMANGLE_NO;
			else if (strcmp(optarg, "simple")) {
				fprintf(stderr, "kvmtrace_format: --demangle: '%s' is not simple, full or no\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_GUEST_SYMS:
			o->guest_syms = optarg;
			break;
		case OPT_FILTER_EVENTS:
		case OPT_FILTER_VCPU:
		case OPT_FILTER_PID:
		case OPT_FILTER_TIME: {
			static const char *const names[] = {
				"events", "vcpu", "pid", "time-range",
			};
			struct diag d;

			if (!o->filter)
				o->filter = filter_create();
			if (!o->filter)
				goto nomem;
			diag_init(&d);
			if (filter_option(o->filter, names[c - OPT_FILTER_EVENTS],
					  optarg, &d) < 0) {
				error(d.msg);
				return EXIT_USAGE;
			}
			break;
		}
		case 'h':
			usage(stdout);
			return -1;
		case OPT_LIST_FORMATS:
			return formats_path_list(stdout) < 0 ? EXIT_DATA : -1;
		case 'V':
			printf("kvmtrace_format %s\n", PACKAGE_VERSION);
			return -1;
		case ':':
			say("%s needs an argument", argv[optind - 1]);
			fputs("Try 'kvmtrace_format --help'.\n", stderr);
			return EXIT_USAGE;
		default:
			if (optopt)
				say("unknown option -%c", optopt);
			else
				say("unknown option %s", argv[optind - 1]);
			fputs("Try 'kvmtrace_format --help'.\n", stderr);
			return EXIT_USAGE;
		}
	}
	for (; optind < argc; optind++)		/* after "--" */
		if (add_input(o, argv[optind], DOMAIN_HOST) < 0)
			goto nomem;
	if (o->chrome && o->stats) {
		say("--chrome and --stats are two outputs; choose one");
		return EXIT_USAGE;
	}
	return check_args(o);
nomem:
	error("out of memory");
	return EXIT_DATA;
}

struct run {
	struct options opt;
	char *rules_file;	/* owned: -f NAME as found (formats-path.h) */
	struct rules *rules;
	struct source **srcs;
	size_t nsrcs;
	struct clock *clock;
	struct render *render;
	struct outbuf *out;
	struct sink *sink;
	struct merge *merge;
	struct clock_span *spans;	/* owned: per input, for report_alignment() */
	struct symtab *syms;	/* --guest-syms */
};

/* --clock declarations. */
static void declare_clock(struct run *r, struct source *src, const char *path)
{
	size_t i;

	for (i = 0; i < r->opt.nclocks; i++) {
		const struct clock_decl *c = &r->opt.clocks[i];

		if (strlen(path) == c->len && !strncmp(path, c->path, c->len)) {
			src->clock = c->clock;
			src->clock_user_set = true;
		}
	}
}

/* What a library wrote while opening src, each line with its name. */
static void note(const struct source *src)
{
	const char *p = src->note, *nl;

	while (p && *p) {
		nl = strchr(p, '\n');
		say("%s: %.*s", src->name,
		    (int)(nl ? nl - p : (ptrdiff_t)strlen(p)), p);
		p = nl ? nl + 1 : NULL;
	}
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

/*
 * Every input is recognised and opened before anything is written: one
 * that is missing, unreadable or of no known kind stops the run with
 * EXIT_USAGE (a merged timeline with a hole would be wrong); one whose
 * reader finds it corrupt, with EXIT_DATA.
 */
static int open_inputs(struct run *r, struct diag *d)
{
	static const struct input stdin_input = { .path = "-" };
	const struct input *in = r->opt.ninputs ? r->opt.inputs : &stdin_input;
	size_t n = r->opt.ninputs ? r->opt.ninputs : 1, i;
	int ret;

	r->srcs = calloc(n, sizeof(*r->srcs));
	if (!r->srcs)
		goto nomem;
	for (i = 0; i < n; i++) {
		struct source *src = source_create(NULL, in[i].path,
						   (unsigned)i);

		if (!src)
			goto nomem;
		r->srcs[r->nsrcs++] = src;
		src->domain = in[i].domain;
		src->demangle = r->opt.demangle;
		/* the exits of host inputs name guest functions */
		if (in[i].domain == DOMAIN_HOST)
			src->guest_syms = r->syms;
		ret = source_probe(src, d);
		if (ret == -ENOMEM)
			goto nomem;
		if (ret < 0) {
			error(d->msg);
			return EXIT_USAGE;
		}
	}
	for (i = 0; i < n; i++) {
		ret = source_open(r->srcs[i], d);
		if (ret == -ENOMEM)
			goto nomem;
		if (ret < 0) {
			error(d->msg);
			return EXIT_DATA;
		}
		declare_clock(r, r->srcs[i], in[i].path);
		note(r->srcs[i]);
	}
	return 0;
nomem:
	error("out of memory");
	return EXIT_DATA;
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
 * The guest TSC offsets of --tsc-offset auto: every kvm_write_tsc_offset
 * in the host inputs, read in a pass of their own before the merge.
 */
static int collect_offsets(struct run *r, struct diag *d)
{
	size_t i, found = 0;
	int ret = 0;

	for (i = 0; i < r->nsrcs; i++) {
		const struct event_type *last = NULL;
		int32_t s_off = 0, s_vcpu = 0;
		bool have_vcpu = false;
		struct source *src;
		struct event ev;

		if (r->srcs[i]->domain != DOMAIN_HOST ||
		    !r->srcs[i]->ops->each_type)
			continue;
		src = source_reopen(r->srcs[i]);
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
			if (render_value(r->render, NULL, &ev, s_off, &off) < 0 ||
			    off.kind != VALUE_INT)
				continue;
			if (have_vcpu && (render_value(r->render, NULL, &ev, s_vcpu,
						       &vcpu) < 0 ||
					  vcpu.kind != VALUE_INT))
				have_vcpu = false;
			/* next_tsc_offset is a u64 holding a signed offset */
			ret = clock_add_offset(r->clock, ev.ts,
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
		for (i = 0; i < r->nsrcs; i++)
			if (r->srcs[i]->domain == DOMAIN_HOST)
				diag_add(d, " %s", r->srcs[i]->name);
		diag_add(d, "; record them (events/kvm/kvm_write_tsc_offset) or give --tsc-offset=N");
		return -ENOENT;
	}
	clock_finish(r->clock);
	return 0;
}

/*
 * relts as the 2008 tool computed it, on the stream as printed: ticks since
 * the previous event with a time stamp; 0 for the first, for events without
 * one, and after a time stamp of 0.
 */
static void set_relts(struct event *ev, uint64_t *last)
{
	ev->relts_neg = false;
	ev->relts = 0;
	if (!ev->has_ts)
		return;
	if (*last) {
		ev->relts_neg = ev->ts < *last;
		ev->relts = ev->relts_neg ? *last - ev->ts : ev->ts - *last;
	}
	*last = ev->ts;
}

struct progress {
	bool on;
	uint64_t events;
	struct timespec start;
	bool shown;
};

static void progress_tick(struct progress *p)
{
	struct timespec now;
	double secs;

	if (!p->on || (++p->events & 0x3ffff))
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	secs = (double)(now.tv_sec - p->start.tv_sec) +
	       (double)(now.tv_nsec - p->start.tv_nsec) / 1e9;
	if (secs < 1.0)
		return;
	fprintf(stderr, "\rkvmtrace_format: %" PRIu64 " events, %.1f s, %.2f M events/s ",
		p->events, secs, (double)p->events / secs / 1e6);
	p->shown = true;
}

static void progress_end(struct progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
}

static int run_events(struct run *r, bool *bad_data)
{
	struct progress progress = { 0 };
	uint64_t last_ts = 0;
	struct diag d;
	struct event *ev;
	int ret;

	progress.on = isatty(STDERR_FILENO) &&
		      !(r->opt.output == NULL && isatty(STDOUT_FILENO));
	clock_gettime(CLOCK_MONOTONIC, &progress.start);
	for (;;) {
		diag_init(&d);
		ret = merge_next(r->merge, &ev, &d);
		if (ret == MERGE_END)
			break;
		if (ret < 0) {
			/* that input is finished; the others go on */
			progress_end(&progress);
			error(d.msg);
			*bad_data = true;
			continue;
		}
		if (ret == MERGE_WARN) {
			progress_end(&progress);
			error(d.msg);
		}
		if (ev->has_ts)
			clock_span_add(&r->spans[ev->src->index], ev->ts);
		if (r->opt.filter && !filter_match(r->opt.filter, ev))
			continue;
		set_relts(ev, &last_ts);
		ret = r->sink->ops->event(r->sink, ev, &d);
		if (ret < 0) {
			progress_end(&progress);
			error(d.msg);
			return ret == -EINVAL ? EXIT_USAGE : EXIT_DATA;
		}
		if (r->out->closed)
			return 0;
		progress_tick(&progress);
	}
	progress_end(&progress);
	if (filter_events_unmatched(r->opt.filter))
		say("warning: --events matched no event of any input");
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
	if (r->opt.rules_path &&
	    formats_path_find(r->opt.rules_path, &r->rules_file) < 0)
		goto nomem;
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
	status = open_inputs(r, &d);
	if (!status)
		status = pair_inputs(r);
	if (!status)
		status = guest_clocks(r);
	if (status)
		return status;
	r->clock->tsc_mhz = r->opt.tsc_mhz;
	ret = clock_timeline(r->clock, r->srcs, r->nsrcs, &d);
	if (ret < 0) {
		error(d.msg);
		return EXIT_USAGE;
	}
	r->render = render_create(r->rules, r->opt.mhz, r->nsrcs);
	if (!r->render)
		goto nomem;
	r->render->timeline = r->clock->timeline;
	if (r->opt.auto_offset) {
		ret = collect_offsets(r, &d);
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
	if (r->opt.output) {
		fd = open(r->opt.output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			  0666);
		if (fd < 0) {
			say("%s: cannot create: %s", r->opt.output,
			    strerror(errno));
			return EXIT_USAGE;
		}
	}
	r->out = outbuf_create(fd);
	if (!r->out)
		goto nomem;
	if (r->opt.filter) {
		filter_set_clock(r->opt.filter, r->clock->timeline, r->opt.mhz);
		filter_set_rules(r->opt.filter, r->rules);
	}
	if (r->opt.chrome)
		r->sink = sink_chrome_create(r->out, r->render, r->opt.mhz);
	else if (r->opt.stats)
		r->sink = sink_stats_create(r->out, r->render,
					    r->opt.stats_format, r->opt.mhz,
					    r->syms);
	else
		r->sink = sink_text_create(r->out, r->render);
	r->merge = merge_create(r->srcs, r->nsrcs, r->clock);
	if (!r->sink || !r->merge)
		goto nomem;
	ret = r->sink->ops->begin(r->sink, r->srcs, r->nsrcs, &d);
	if (ret < 0) {
		error(d.msg);
		return EXIT_USAGE;
	}
	status = run_events(r, &bad_data);
	if (outbuf_flush(r->out) < 0 && !r->out->closed) {
		say("%s: cannot write: %s",
		    r->opt.output ? r->opt.output : "standard output",
		    strerror(-r->out->error));
		return EXIT_DATA;
	}
	if (!r->out->closed)
		report_alignment(r);
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
	if (r->out) {
		int fd = r->out->fd;

		outbuf_destroy(r->out);
		if (fd != STDOUT_FILENO)
			close(fd);
	}
	render_destroy(r->render);
	symtab_destroy(r->syms);
	for (i = 0; i < r->nsrcs; i++)
		source_destroy(r->srcs[i]);
	free(r->srcs);
	free(r->spans);
	clock_destroy(r->clock);
	rules_destroy(r->rules);
	free(r->rules_file);
	free(r->opt.inputs);
	free(r->opt.clocks);
	filter_destroy(r->opt.filter);
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

int main(int argc, char **argv)
{
	struct run r = { 0 };
	int status;

	r.opt.stdout_closed = std_fds();

	/* a closed pipe shows up as EPIPE from write(2): end quietly */
	signal(SIGPIPE, SIG_IGN);
	status = parse_args(argc, argv, &r.opt);
	if (status == 0)
		status = run(&r);
	else if (status < 0)
		status = 0;
	run_fini(&r);
	return status;
}
