// SPDX-License-Identifier: GPL-2.0-or-later
/* Template compiler: what compiles to what, and every error with its column. */
#include <stdio.h>
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

/*
 * Past 16 conversions keys are found through a hash set: 40 conversions
 * of 20 keys, each used twice, must give 20 keys in order of first use,
 * each op the right one, each key the column of its first use.
 */
static bool many_keys(void)
{
	char text[1024], key[16];
	size_t len = 0, i, col[20];
	struct tmpl *tm;
	const char *msg;
	unsigned ecol;
	bool ok;

	for (i = 0; i < 40; i++) {
		if (i % 20 == i)
			col[i] = len + 3;	/* 1-based column of the key */
		len += (size_t)snprintf(text + len, sizeof(text) - len,
					"%%(key%zu)d,", i % 20);
	}
	if (tmpl_compile(text, len, &tm, &ecol, &msg) < 0)
		return false;
	ok = tm->nkeys == 20 && tm->nops == 80;
	for (i = 0; ok && i < 20; i++) {
		snprintf(key, sizeof(key), "key%zu", i);
		ok = !strcmp(tm->keys[i], key) && tm->key_col[i] == col[i];
	}
	for (i = 0; ok && i < tm->nops; i++)
		ok = i % 2 ? tm->ops[i].kind == TMPL_LIT && tm->ops[i].len == 1
			   : tm->ops[i].kind == TMPL_CONV &&
				     tm->ops[i].key == (i / 2) % 20;
	tmpl_destroy(tm);
	return ok;
}

/* Every other character a '%': the most operations a length allows. */
static bool dense(void)
{
	static const char text[] = "%(a)d%%%(b)x%(a)s%%%%%(c)d";
	struct tmpl *tm;
	const char *msg;
	unsigned ecol;
	bool ok;

	if (tmpl_compile(text, sizeof(text) - 1, &tm, &ecol, &msg) < 0)
		return false;
	/* a, "%", b, a, "%", "%", c: each '%%' its own literal (the text
	 * of one is its second '%', not next to the other's) */
	ok = tm->nops == 7 && tm->nkeys == 3 && !strcmp(tm->keys[2], "c") &&
	     tm->ops[6].kind == TMPL_CONV && tm->ops[6].key == 2 &&
	     tm->ops[3].kind == TMPL_CONV && tm->ops[3].key == 0;
	for (size_t i = 1; ok && i < 6; i += i == 1 ? 3 : 1)
		ok = tm->ops[i].kind == TMPL_LIT && tm->ops[i].len == 1 &&
		     tm->text[tm->ops[i].off] == '%';
	tmpl_destroy(tm);
	return ok;
}

int main(void)
{
	size_t ngood = sizeof(goods) / sizeof(goods[0]);
	size_t nbad = sizeof(bads) / sizeof(bads[0]);
	struct tap t = { 0 };
	size_t i, j;

	tap_plan((int)(ngood + nbad) + 2);
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
	tap_ok(&t, many_keys(), "40 conversions of 20 keys: keys, ops and columns");
	tap_ok(&t, dense(), "'%%%%' and conversions side by side");
	return 0;
}
