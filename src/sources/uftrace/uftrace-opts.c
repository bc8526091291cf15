// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * default.opts: the options `uftrace record` saves for the analysis
 * commands (uftrace.c's apply_default_opts()). Only one is written, the
 * time filter "-t TIME", which `uftrace report` applies (--stats follows
 * it) and `uftrace dump` does not.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "uftrace-int.h"

static unsigned uft_digits(uint64_t v)
{
	unsigned n = 0;

	do {
		n++;
		v /= 10;
	} while (v);
	return n;
}

/* utils.c's parse_time(arg, 3): a number and a unit, ns without one */
static uint64_t uft_parse_time(const char *arg)
{
	static const struct {
		const char *name;
		unsigned exp;
	} units[] = {
		{ "ns", 0 }, { "nsec", 0 }, { "us", 3 }, { "usec", 3 },
		{ "ms", 6 }, { "msec", 6 }, { "s", 9 }, { "sec", 9 },
	};
	const char *pos = strchr(arg, '.');
	uint64_t val, decimal = 0;
	unsigned places = 0, exp = 0, i;
	char *unit;

	val = strtoull(arg, &unit, 10);
	if (pos) {
		while (*++pos == '0')
			places++;
		decimal = strtoull(pos, &unit, 10);
	}
	while (decimal >= 1000)
		decimal /= 10;
	if (!*unit)
		return val;
	if (!strcasecmp(unit, "m") || !strcasecmp(unit, "min")) {
		uint64_t ns = val * 60 * 1000000000u;

		if (!decimal)
			return ns;
		places += uft_digits(decimal);
		decimal *= 6;
		if (places == 1)
			return ns + decimal * 1000000000u;
		if (places == 2 || places == 3)
			return ns + decimal * (places == 2 ? 100 : 10) * 1000000u;
		return ns;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(unit, units[i].name))
			exp = units[i].exp;
	for (i = 0; i < exp; i++)
		val *= 10;
	if (decimal) {
		places += uft_digits(decimal);
		for (i = places; i < exp; i++)
			decimal *= 10;
		val += decimal;
	}
	return val;
}

/* The first non-zero "-t TIME" (or --time-filter) of default.opts. */
void uft_read_opts(struct uftrace *uf)
{
	char *path = uft_path(uf, "default.opts"), *buf = NULL, *p, *arg, *sp;
	size_t len;

	if (!path || uft_read_file(path, &buf, &len) < 0)
		goto end;
	for (p = strtok_r(buf, " \t\r\n", &sp); p && !uf->time_filter;
	     p = strtok_r(NULL, " \t\r\n", &sp)) {
		arg = NULL;
		if (!strcmp(p, "-t") || !strcmp(p, "--time-filter"))
			arg = strtok_r(NULL, " \t\r\n", &sp);
		else if (!strncmp(p, "--time-filter=", 14))
			arg = p + 14;
		else if (!strncmp(p, "-t", 2))
			arg = p + 2;
		if (arg)
			uf->time_filter = uft_parse_time(arg);
	}
end:
	free(buf);
	free(path);
}
