// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A trace.dat's kallsyms text into libtraceevent's table of functions,
 * exactly as tep_parse_kallsyms() fills it, without its sscanf() per
 * line: on a 5.4 MB table that call cost 473 M instructions, 385 M of
 * them in sscanf, which a 10-event file whose events print a symbol (%pS)
 * pays in full before its first line.
 *
 * tep_parse_kallsyms() (libtraceevent 1.5 to 1.8) reads each line (the
 * text cut at '\n', empty lines skipped) with
 * "%16llx %c %n%*s%n%*1[\t][%n%*s%n": the address, the type, the name,
 * and a module when a tab and '[' follow the name (its last byte, the
 * ']', cut off); it registers the name unless it starts with '$' or the
 * type is 'A' or 'a', and stops at the first line it cannot read. Lines
 * of the usual shape ("ffffffff81000000 T name" or "... T name\t[mod]")
 * are read here by hand; any other line goes through that same sscanf(),
 * so that odd text ends up as libtraceevent leaves it. The functions are
 * registered in the order of the text, as there, so that the table
 * libtraceevent sorts (and its choice among functions at one address)
 * is the same.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tracecmd.h"

static int tc_hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* sscanf's and isspace()'s white space in the "C" locale */
static bool tc_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/*
 * The usual line at line (NUL-terminated): its address, type and the
 * bounds of its name and module (mod_start 0: none). false: another
 * shape, for sscanf.
 */
static bool tc_kallsyms_fast(const char *line, unsigned long long *addr,
			     char *type, int *func_start, int *func_end,
			     int *mod_start, int *mod_end)
{
	unsigned long long a = 0;
	const char *p = line;
	int v, i;

	for (i = 0; i < 16 && (v = tc_hexval((unsigned char)*p)) >= 0; i++, p++)
		a = a << 4 | (unsigned long long)v;
	/* none, 17 or more, or "0x": sscanf's to read */
	if (!i || p[0] != ' ' || tc_space((unsigned char)p[1]) || !p[1] ||
	    p[2] != ' ' || !p[3] || tc_space((unsigned char)p[3]))
		return false;
	*addr = a;
	*type = p[1];
	p += 3;
	*func_start = (int)(p - line);
	while (*p && !tc_space((unsigned char)*p))
		p++;
	*func_end = (int)(p - line);
	*mod_start = 0;
	*mod_end = 0;
	if (p[0] != '\t' || p[1] != '[')
		return true;	/* nothing after the name that sscanf takes */
	p += 2;
	if (!*p || tc_space((unsigned char)*p))
		return false;	/* "%*s" would skip white space first */
	*mod_start = (int)(p - line);
	while (*p && !tc_space((unsigned char)*p))
		p++;
	*mod_end = (int)(p - line);
	return true;
}

int tc_parse_kallsyms(struct tep_handle *tep, char *kallsyms)
{
	char *line, *end;

	/* in place: no copy of the text (5.4 MB) beside it */
	for (line = kallsyms; *line; line = end) {
		int func_start = 0, func_end = 0, mod_start = 0, mod_end = 0;
		unsigned long long addr = 0;
		char type = 0, *mod = NULL;
		bool last;

		if (*line == '\n') {
			end = line + 1;
			continue;
		}
		end = strchr(line, '\n');
		last = !end;
		if (last)
			end = line + strlen(line);
		*end = '\0';
		if (!tc_kallsyms_fast(line, &addr, &type, &func_start,
				      &func_end, &mod_start, &mod_end)) {
			int n;

			errno = 0;
			n = sscanf(line, "%16llx %c %n%*s%n%*1[\t][%n%*s%n",
				   &addr, &type, &func_start, &func_end,
				   &mod_start, &mod_end);
			/* its warning is not printed: TEP_LOG_NONE (tc_open) */
			if (errno || n != 2 || !func_end)
				return -1;
		}
		if (line[func_start] != '$' && type != 'A' && type != 'a') {
			line[func_end] = '\0';
			if (mod_end) {
				mod = line + mod_start;
				/* the ']' */
				line[mod_end - 1] = '\0';
			}
			tep_register_function(tep, line + func_start, addr, mod);
		}
		if (!last)
			end++;
	}
	return 0;
}
