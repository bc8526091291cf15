// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * options: the command line into struct options (options.h): values read
 * as the man page says (--tsc-offset decimal or 0x, never octal; -c and
 * --tsc-mhz within a clock's range), what only the whole line can tell
 * (--clock naming no input, '-' twice, --chrome with --stats, a closed
 * standard output without -o), and --help/--version asked for, not done.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "options.h"
#include "tap.h"

/* Parse "kvmtrace_format" + args (NULL-terminated) into o. */
static int parse(struct options *o, struct diag *d, bool stdout_closed,
		 const char *const *args)
{
	char *argv[32];
	int argc = 0;

	memset(o, 0, sizeof(*o));
	o->stdout_closed = stdout_closed;
	argv[argc++] = (char *)"kvmtrace_format";
	while (*args && argc < 31)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	optind = 0;	/* GNU getopt: start afresh */
	diag_init(d);
	return options_parse(o, argc, argv, d);
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* The run fails with -EINVAL and a message holding want. */
static bool refused(struct tap *t, const char *const *args, bool closed,
		    const char *want)
{
	struct options o;
	struct diag d;
	int ret = parse(&o, &d, closed, args);
	bool ok = ret == -EINVAL && strstr(d.msg, want);

	if (!ok)
		tap_diag("got %d '%s', want -EINVAL '%s'", ret, d.msg, want);
	options_fini(&o);
	return tap_ok(t, ok, "%s ...: refused, '%s'", args[0], want);
}

int main(void)
{
	struct tap t = { 0 };
	struct options o;
	struct diag d;
	int ret;

	tap_plan(34);

	/* --tsc-offset: decimal or 0x, never octal */
	ret = parse(&o, &d, false, ARGS("--tsc-offset", "010"));
	tap_ok(&t, ret == OPTIONS_RUN && o.have_offset && o.offset == 10,
	       "--tsc-offset 010 is ten");
	options_fini(&o);
	ret = parse(&o, &d, false, ARGS("--tsc-offset=-0x10"));
	tap_ok(&t, ret == OPTIONS_RUN && o.offset == -16,
	       "--tsc-offset=-0x10 is -16");
	options_fini(&o);
	ret = parse(&o, &d, false, ARGS("--tsc-offset=auto"));
	tap_ok(&t, ret == OPTIONS_RUN && o.auto_offset && !o.have_offset,
	       "--tsc-offset=auto");
	options_fini(&o);
	refused(&t, ARGS("--tsc-offset=0x"), false, "neither a signed 64-bit");
	refused(&t, ARGS("--tsc-offset=1e3"), false, "neither a signed 64-bit");
	refused(&t, ARGS("--tsc-offset=99999999999999999999"), false,
		"neither a signed 64-bit");

	/* frequencies */
	ret = parse(&o, &d, false, ARGS("-c", "2394.5", "--tsc-mhz=0.001"));
	tap_ok(&t, ret == OPTIONS_RUN && o.mhz == 2394.5 && o.tsc_mhz == 0.001,
	       "-c 2394.5 --tsc-mhz=0.001");
	options_fini(&o);
	refused(&t, ARGS("-c", "0"), false, "not a frequency in MHz");
	refused(&t, ARGS("-c", "nan"), false, "not a frequency in MHz");
	refused(&t, ARGS("-c", "0x10"), false, "not a frequency in MHz");
	refused(&t, ARGS("--tsc-mhz=0.0009"), false, "no clock's frequency");
	refused(&t, ARGS("--tsc-mhz=1e7"), false, "no clock's frequency");

	/* --clock names an input of the run */
	ret = parse(&o, &d, false, ARGS("--clock=a.bin=ns", "--", "a.bin"));
	tap_ok(&t, ret == OPTIONS_RUN && o.nclocks == 1 && o.clocks[0].len == 5 &&
			   o.clocks[0].clock == CLOCK_NS && o.ninputs == 1,
	       "--clock=a.bin=ns -- a.bin");
	options_fini(&o);
	refused(&t, ARGS("--clock=b=tsc", "--", "a.bin"), false,
		"'b' is not an input of this run");
	refused(&t, ARGS("--clock=a.bin=ms", "--", "a.bin"), false,
		"is not INPUT=tsc, INPUT=ns, INPUT=mono or INPUT=wall");

	/* inputs */
	ret = parse(&o, &d, false, ARGS("--guest", "g.bin", "--", "h.bin"));
	tap_ok(&t, ret == OPTIONS_RUN && o.ninputs == 2 &&
			   o.inputs[0].domain == DOMAIN_GUEST &&
			   !strcmp(o.inputs[1].path, "h.bin") &&
			   o.inputs[1].domain == DOMAIN_HOST && !o.rules_path,
	       "--guest g.bin -- h.bin: a guest, then a host");
	options_fini(&o);
	refused(&t, ARGS("--", "-", "-"), false, "is given 2 times");
	refused(&t, ARGS("--chrome", "--stats"), false, "choose one");
	refused(&t, ARGS("--perfetto", "--stats"), false, "choose one");
	refused(&t, ARGS("--perfetto", "--chrome"), false, "choose one");
	refused(&t, ARGS("--stats=xml"), false, "none of table, hist, csv, json");
	refused(&t, ARGS("--vcpu=x"), false, "vcpu");

	/* standard output closed: only with -o */
	refused(&t, ARGS("--", "a.bin"), true, "standard output is closed");

	/* --help is asked for before a later bad option is seen */
	ret = parse(&o, &d, false, ARGS("--help", "--bogus"));
	tap_ok(&t, ret == OPTIONS_HELP, "--help --bogus: help");
	options_fini(&o);
	ret = parse(&o, &d, false, ARGS("--bogus", "--help"));
	tap_ok(&t, ret == -EINVAL &&
			   !strcmp(d.msg, "unknown option --bogus\nTry 'kvmtrace_format --help'."),
	       "--bogus --help: the unknown option, and where help is");
	options_fini(&o);
	/* a prefix names the option it starts, where only one is meant */
	ret = parse(&o, &d, false, ARGS("--stat", "--", "a.bin"));
	tap_ok(&t, ret == OPTIONS_RUN && o.stats && !o.stats_format,
	       "--stat: --stats, which --stats-top and --stats-sort start with");
	options_fini(&o);
	ret = parse(&o, &d, false, ARGS("--stat=csv", "--chrom", "--", "a.bin"));
	tap_ok(&t, ret == -EINVAL && strstr(d.msg, "choose one"),
	       "--stat=csv --chrom: --stats=csv and --chrome, two outputs");
	options_fini(&o);
	ret = parse(&o, &d, false, ARGS("--stats-t", "3", "--stats-s=p99", "--", "a.bin"));
	tap_ok(&t, ret == OPTIONS_RUN && o.stats_top == 3 &&
			   !strcmp(o.stats_sort, "p99"),
	       "--stats-t 3 --stats-s=p99: the value in the next word and after =");
	options_fini(&o);
	ret = parse(&o, &d, false, ARGS("-o", "--stat", "--", "a.bin"));
	tap_ok(&t, ret == OPTIONS_RUN && !o.stats && !strcmp(o.output, "--stat"),
	       "-o --stat: a value of -o, not an option");
	options_fini(&o);
	ret = parse(&o, &d, false, ARGS("--", "--stat"));
	tap_ok(&t, ret == OPTIONS_RUN && !o.stats && o.ninputs == 1 &&
			   !strcmp(o.inputs[0].path, "--stat"),
	       "-- --stat: an input after --");
	options_fini(&o);
	refused(&t, ARGS("--qemu=x"), false,
		"option --qemu is ambiguous; did you mean --qemu-events or --qemu-log?");
	refused(&t, ARGS("--chrmoe"), false,
		"unknown option --chrmoe; did you mean --chrome?\nTry");
	refused(&t, ARGS("--ouput=x"), false,
		"unknown option --ouput; did you mean --output?");
	refused(&t, ARGS("--sttas"), false,
		"unknown option --sttas; did you mean --stats?");
	return t.failed ? 1 : 0;
}
