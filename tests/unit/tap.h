/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A minimal TAP producer for the unit tests (the Automake TAP driver reads it). */
#ifndef KTF_TAP_H
#define KTF_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

struct tap {
	int n;
	int failed;
};

static inline void tap_plan(int n)
{
	printf("1..%d\n", n);
}

static inline bool tap_ok(struct tap *t, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline bool tap_ok(struct tap *t, bool ok, const char *fmt, ...)
{
	va_list ap;

	t->n++;
	if (!ok)
		t->failed++;
	printf("%sok %d - ", ok ? "" : "not ", t->n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return ok;
}

static inline void tap_diag(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

#endif
