// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdio.h>

#include "diag.h"

static void diag_vadd(struct diag *d, const char *fmt, va_list ap)
{
	size_t room = sizeof(d->msg) - d->len;
	int n;

	if (room <= 1)
		return;
	n = vsnprintf(d->msg + d->len, room, fmt, ap);
	if (n < 0)
		return;
	d->len += (size_t)n < room ? (size_t)n : room - 1;
}

void diag_set(struct diag *d, const char *fmt, ...)
{
	va_list ap;

	diag_init(d);
	va_start(ap, fmt);
	diag_vadd(d, fmt, ap);
	va_end(ap);
}

void diag_add(struct diag *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(d, fmt, ap);
	va_end(ap);
}

void diag_at(struct diag *d, const char *file, unsigned line, unsigned col,
	     const char *text, size_t textlen, const char *fmt, ...)
{
	va_list ap;
	size_t shown = textlen > 200 ? 200 : textlen;
	size_t i;

	diag_init(d);
	diag_add(d, "%s:%u:%u: ", file, line, col);
	va_start(ap, fmt);
	diag_vadd(d, fmt, ap);
	va_end(ap);
	if (!text)
		return;
	diag_add(d, "\n  ");
	for (i = 0; i < shown; i++) {
		unsigned char c = (unsigned char)text[i];

		diag_add(d, "%c", (c < 0x20 && c != '\t') || c >= 0x7f ? '?' : c);
	}
	if (shown < textlen)
		diag_add(d, "...");
	diag_add(d, "\n  ");
	for (i = 0; i + 1 < col && i < shown; i++)
		diag_add(d, "%c", text[i] == '\t' ? '\t' : ' ');
	diag_add(d, "^");
}

/*
 * The length of the UTF-8 sequence at p (1 to 4), or 0 when it is not
 * one: a stray or missing continuation byte, an overlong form, a UTF-16
 * surrogate, past U+10FFFF, or U+0080..U+009F (C1 controls: 0x9b is a
 * terminal's CSI).
 */
static size_t diag_utf8_len(const unsigned char *p)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (*p < 0x80)
		return 1;
	if (*p >= 0xc2 && *p <= 0xdf)
		n = 2;
	else if (*p >= 0xe0 && *p <= 0xef)
		n = 3;
	else if (*p >= 0xf0 && *p <= 0xf4)
		n = 4;
	else
		return 0;
	if (*p == 0xc2)
		lo = 0xa0;
	else if (*p == 0xe0)
		lo = 0xa0;
	else if (*p == 0xed)
		hi = 0x9f;
	else if (*p == 0xf0)
		lo = 0x90;
	else if (*p == 0xf4)
		hi = 0x8f;
	for (i = 1; i < n; i++) {
		/* the terminating NUL fails here: nothing read past it */
		if (p[i] < lo || p[i] > hi)
			return 0;
		lo = 0x80;
		hi = 0xbf;
	}
	return n;
}

void diag_print(FILE *f, const char *prefix, const char *msg)
{
	const unsigned char *p;
	size_t n;

	fputs(prefix, f);
	for (p = (const unsigned char *)msg; *p; p += n ? n : 1) {
		n = diag_utf8_len(p);
		if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f || !n)
			fprintf(f, "\\x%02x", *p);
		else
			fwrite(p, 1, n, f);
	}
	putc('\n', f);
}
