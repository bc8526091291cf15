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

void diag_print(FILE *f, const char *prefix, const char *msg)
{
	const unsigned char *p;

	fputs(prefix, f);
	for (p = (const unsigned char *)msg; *p; p++) {
		if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
			fprintf(f, "\\x%02x", *p);
		else
			putc(*p, f);
	}
	putc('\n', f);
}
