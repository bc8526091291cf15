// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Long option names as the user types them (options-names.h): a prefix
 * names the option it starts unless two options could be meant, an option
 * whose name is a prefix of the others' included (--stat is --stats, as
 * --chrom is --chrome); an unknown name is offered the closest ones.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options-names.h"
#include "rules-names.h"

/* the second line of a message about an unknown or incomplete option */
static const char try_help[] = "Try 'kvmtrace_format --help'.";

static bool starts(const char *name, const char *p, size_t n)
{
	return strlen(name) >= n && !strncmp(name, p, n);
}

/*
 * The index in opts of the option that --p (n bytes) names, or -ENOENT
 * (no option starts so) or -EAGAIN (two could be meant).
 */
static int lookup(const struct option *opts, const char *p, size_t n)
{
	int i, best = -1;
	size_t nc = 0;

	for (i = 0; opts[i].name; i++) {
		if (strlen(opts[i].name) == n && !strncmp(opts[i].name, p, n))
			return i;
		if (!starts(opts[i].name, p, n))
			continue;
		nc++;
		if (best < 0 || strlen(opts[i].name) < strlen(opts[best].name))
			best = i;
	}
	if (!nc)
		return -ENOENT;
	/* the shortest candidate must start every other one */
	for (i = 0; opts[i].name; i++)
		if (starts(opts[i].name, p, n) &&
		    !starts(opts[i].name, opts[best].name,
			    strlen(opts[best].name)))
			return -EAGAIN;
	return best;
}

/* "did you mean --a or --b?" for an unknown --p, or nothing. */
static void suggest(const struct option *opts, const char *p, size_t n,
		    char *buf, size_t size)
{
	char want[128];
	size_t cap, best = SIZE_MAX, len = 0;
	int i;

	buf[0] = '\0';
	if (n >= sizeof(want))
		return;
	memcpy(want, p, n);
	want[n] = '\0';
	cap = rules_names_cap(want);
	for (i = 0; opts[i].name; i++) {
		size_t dist = rules_names_dist(want, opts[i].name, cap);

		if (dist < cap && dist < best)
			best = dist;
	}
	if (best == SIZE_MAX)
		return;
	for (i = 0; opts[i].name; i++) {
		if (rules_names_dist(want, opts[i].name, cap) != best)
			continue;
		len += (size_t)snprintf(buf + len, len < size ? size - len : 0,
					"%s--%s", len ? " or " : "; did you mean ",
					opts[i].name);
		if (len >= size)
			break;
	}
	if (len + 2 <= size)
		memcpy(buf + len, "?", 2);
}

/* Whether short option c takes a value (per the getopt string). */
static bool short_has_arg(const char *shorts, char c)
{
	const char *p = c != ':' && c != '-' ? strchr(shorts, c) : NULL;

	return p && p[1] == ':';
}

void options_names_unknown(const struct option *opts, const char *word,
			   struct diag *d)
{
	const char *p = word + 2, *eq = strchr(p, '=');
	size_t n = eq ? (size_t)(eq - p) : strlen(p);
	char hint[512];
	int k = lookup(opts, p, n);

	if (k == -EAGAIN) {
		size_t len = 0;
		int j;

		for (j = 0; opts[j].name && len < sizeof(hint); j++)
			if (starts(opts[j].name, p, n))
				len += (size_t)snprintf(hint + len,
							sizeof(hint) - len,
							"%s--%s", len ? " or " : "",
							opts[j].name);
		diag_set(d, "option --%.*s is ambiguous; did you mean %s?\n%s",
			 (int)n, p, hint, try_help);
		return;
	}
	suggest(opts, p, n, hint, sizeof(hint));
	diag_set(d, "unknown option --%.*s%s\n%s", (int)n, p, hint, try_help);
}

int options_names_canon(const struct option *opts, const char *shorts,
			int argc, char **argv, struct options_names *owned)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *w = argv[i], *eq;
		int k, at = i;
		size_t n;
		char *full;

		if (w[0] != '-' || !w[1])
			continue;		/* a positional, or "-" */
		if (w[1] != '-') {		/* -xyz: does a value follow? */
			const char *c;

			for (c = w + 1; *c; c++)
				if (short_has_arg(shorts, *c))
					break;
			if (*c && !c[1])
				i++;		/* -f FILE */
			continue;
		}
		if (!w[2])
			break;			/* "--": the rest are inputs */
		eq = strchr(w + 2, '=');
		n = eq ? (size_t)(eq - (w + 2)) : strlen(w + 2);
		k = lookup(opts, w + 2, n);
		if (k < 0)
			continue;		/* getopt_long refuses it */
		if (!eq && opts[k].has_arg == required_argument)
			i++;			/* --opt VALUE */
		if (strlen(opts[k].name) == n)
			continue;		/* the name in full */
		if (asprintf(&full, "--%s%s", opts[k].name, eq ? eq : "") < 0)
			return -ENOMEM;
		if (owned->n == owned->cap) {
			size_t cap = owned->cap ? 2 * owned->cap : 4;
			char **s = realloc(owned->s, cap * sizeof(*s));

			if (!s) {
				free(full);
				return -ENOMEM;
			}
			owned->s = s;
			owned->cap = cap;
		}
		owned->s[owned->n++] = full;
		argv[at] = full;
	}
	return 0;
}

void options_names_fini(struct options_names *owned)
{
	size_t i;

	for (i = 0; i < owned->n; i++)
		free(owned->s[i]);
	free(owned->s);
	owned->s = NULL;
	owned->n = owned->cap = 0;
}
