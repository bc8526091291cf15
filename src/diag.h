/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Diagnostics travel up as text in a struct diag; only main.c prints them.
 * Every message says where: "FILE: offset 0x1a40: …" or "FILE:LINE:COL: …".
 */
#ifndef KTF_DIAG_H
#define KTF_DIAG_H

#include <stddef.h>
#include <stdio.h>

struct diag {
	char msg[1024];
	size_t len;
};

static inline void diag_init(struct diag *d)
{
	d->msg[0] = '\0';
	d->len = 0;
}

/* Replace the message. */
void diag_set(struct diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Append to the message. */
void diag_add(struct diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * FILE:LINE:COL: message, then the line itself and a caret under column
 * col (1-based; counted in bytes, tabs kept so the caret lines up).
 */
void diag_at(struct diag *d, const char *file, unsigned line, unsigned col,
	     const char *text, size_t textlen, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

/*
 * Write prefix, msg and a new line to f, with the control bytes of msg
 * other than new line and tab, C1 controls, and bytes that are not UTF-8
 * (0xff, a broken sequence) written as \xNN: messages quote file names,
 * option values and file contents, which must not drive the terminal.
 */
void diag_print(FILE *f, const char *prefix, const char *msg);

#endif
