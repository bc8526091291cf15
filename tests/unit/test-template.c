// SPDX-License-Identifier: GPL-2.0-or-later
/* Template compiler: what compiles to what, and every error with its column. */
#include <string.h>

#include "tap.h"
#include "template.h"

struct good {
	const char *text;
	size_t nops;
	size_t nkeys;
	const char *first_key;
	char conv;		/* of the first conversion */
	unsigned flags;
	int width;
	int prec;
};

static const struct good goods[] = {
	{ "plain text", 1, 0, NULL, 0, 0, -1, -1 },
	{ "", 0, 0, NULL, 0, 0, -1, -1 },
	{ "%(tsc)d", 1, 1, "tsc", 'd', 0, -1, -1 },
	{ "a %(1)08x b", 3, 1, "1", 'x', PYFMT_ZERO, 8, -1 },
	{ "%(x)#-+ 0017.5ld", 1, 1, "x",  'd',
	  PYFMT_ALT | PYFMT_LEFT | PYFMT_PLUS | PYFMT_SPACE | PYFMT_ZERO, 17, 5 },
	{ "%(a(b))s", 1, 1, "a(b)", 's', 0, -1, -1 },
	{ "100%% %(pid)hd", 3, 1, "pid", 'd', 0, -1, -1 },
	{ "%(ts)d %(ts)x %(relts)d", 5, 2, "ts", 'd', 0, -1, -1 },
	{ "%(v).e", 1, 1, "v", 'e', 0, -1, 0 },
	{ "%()d", 1, 1, "", 'd', 0, -1, -1 },
	{ "trailing blanks   ", 1, 0, NULL, 0, 0, -1, -1 },
};

struct bad {
	const char *text;
	unsigned col;
	const char *msg;	/* a part of the message */
};

static const struct bad bads[] = {
	{ "%", 1, "incomplete format" },
	{ "abc %", 5, "incomplete format" },
	{ "%d", 1, "without a key" },
	{ "x %5s", 3, "without a key" },
	{ "%(tsc", 1, "incomplete format key" },
	{ "ab %(a(b)d", 4, "incomplete format key" },
	{ "%(a)", 1, "conversion character is missing" },
	{ "%(a)08", 1, "conversion character is missing" },
	{ "%(a)y", 5, "unsupported format character" },
	{ "%(a)%", 5, "unsupported format character" },
	{ "%(a)lld", 6, "unsupported format character" },
	{ "%(a)*d", 5, "'*' width" },
	{ "%(a).*d", 6, "'*' precision" },
	{ "%(a)4097d", 8, "width too big" },
	{ "%(a).99999d", 9, "precision too big" },
};

int main(void)
{
	size_t ngood = sizeof(goods) / sizeof(goods[0]);
	size_t nbad = sizeof(bads) / sizeof(bads[0]);
	struct tap t = { 0 };
	size_t i, j;

	tap_plan((int)(ngood + nbad));
	for (i = 0; i < ngood; i++) {
		const struct good *g = &goods[i];
		const struct tmpl_op *conv = NULL;
		struct tmpl *tm;
		const char *msg;
		unsigned col;
		bool ok;

		ok = tmpl_compile(g->text, strlen(g->text), &tm, &col, &msg) == 0;
		if (!ok) {
			tap_ok(&t, false, "compiles: \"%s\"", g->text);
			tap_diag("error at column %u: %s", col, msg);
			continue;
		}
		for (j = 0; j < tm->nops; j++)
			if (tm->ops[j].kind == TMPL_CONV) {
				conv = &tm->ops[j];
				break;
			}
		ok = tm->nops == g->nops && tm->nkeys == g->nkeys &&
		     tm->len == strlen(g->text) &&
		     !memcmp(tm->text, g->text, tm->len);
		if (g->first_key)
			ok = ok && conv && !strcmp(tm->keys[0], g->first_key) &&
			     conv->spec.conv == g->conv &&
			     conv->spec.flags == g->flags &&
			     conv->spec.width == g->width &&
			     conv->spec.prec == g->prec;
		tap_ok(&t, ok, "compiles: \"%s\"", g->text);
		if (!ok)
			tap_diag("nops %zu nkeys %zu", tm->nops, tm->nkeys);
		tmpl_destroy(tm);
	}
	for (i = 0; i < nbad; i++) {
		const struct bad *b = &bads[i];
		struct tmpl *tm = NULL;
		const char *msg = "";
		unsigned col = 0;
		bool ok;

		ok = tmpl_compile(b->text, strlen(b->text), &tm, &col, &msg) < 0 &&
		     !tm && col == b->col && strstr(msg, b->msg);
		tap_ok(&t, ok, "refused at column %u: \"%s\" (%s)", b->col,
		       b->text, b->msg);
		if (!ok)
			tap_diag("got column %u: %s", col, msg);
		tmpl_destroy(tm);
	}
	return 0;
}
