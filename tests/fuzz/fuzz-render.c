/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: template compilation and the pyfmt conversions.
 *
 * Input: one byte n, then n bytes of template text, then the values. Every
 * conversion of the compiled template formats values taken from the rest:
 * a selector byte (int, float or string), then 8 bytes of number or a length
 * byte and that many bytes of string. Each call writes into a heap buffer of
 * exactly pyfmt_bound() bytes, so that ASan sees any store past the bound.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pyfmt.h"
#include "template.h"

struct cursor {
	const uint8_t *p;
	size_t left;
};

static size_t take(struct cursor *c, void *dst, size_t n)
{
	if (n > c->left)
		n = c->left;
	memcpy(dst, c->p, n);
	c->p += n;
	c->left -= n;
	return n;
}

static void format_one(const struct pyfmt_spec *sp, struct cursor *c)
{
	uint8_t sel = 0, slen = 0;
	uint64_t u = 0;
	char sbuf[256];
	size_t bound, len = 0;
	double f;
	char *dst;

	take(c, &sel, 1);
	switch (sel % 3) {
	case 0:
		take(c, &u, sizeof(u));
		bound = pyfmt_bound(sp, 0);
		dst = malloc(bound ? bound : 1);
		if (dst) {
			ssize_t n = pyfmt_int(dst, sp, sel & 0x80, u);

			if (n > (ssize_t)bound)
				abort();
		}
		break;
	case 1:
		take(c, &f, sizeof(f));
		bound = pyfmt_bound(sp, 0);
		dst = malloc(bound ? bound : 1);
		if (dst) {
			ssize_t n = pyfmt_float(dst, sp, f);

			if (n > (ssize_t)bound)
				abort();
		}
		break;
	default:
		take(c, &slen, 1);
		len = take(c, sbuf, slen);
		bound = pyfmt_bound(sp, len);
		dst = malloc(bound ? bound : 1);
		if (dst) {
			ssize_t n = pyfmt_str(dst, sp, sbuf, len);

			if (n > (ssize_t)bound)
				abort();
		}
		break;
	}
	free(dst);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cursor c = { data, size };
	struct tmpl *t = NULL;
	const char *msg = NULL;
	unsigned col = 0;
	uint8_t tlen = 0;
	char *text;
	size_t i, len;

	take(&c, &tlen, 1);
	text = malloc(tlen ? tlen : 1);	/* exact size: no NUL after it */
	if (!text)
		return 0;
	len = take(&c, text, tlen);
	if (tmpl_compile(text, len, &t, &col, &msg) == 0) {
		for (i = 0; i < t->nops; i++)
			if (t->ops[i].kind == TMPL_CONV)
				format_one(&t->ops[i].spec, &c);
		tmpl_destroy(t);
	}
	free(text);
	return 0;
}
