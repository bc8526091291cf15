/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by pyfmt.c (the conversions) and pyfmt-text.c (UTF-8 and the
 * repr() of a string, as CPython's unicodeobject.c has them).
 */
#ifndef KTF_PYFMT_INT_H
#define KTF_PYFMT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

extern const char pyfmt_hex_lower[16];

size_t pyfmt_utf8_next(const unsigned char *s, size_t len,
		       uint32_t *cp);
size_t pyfmt_utf8_span(const char *s, size_t len, size_t maxch,
		       size_t *nch);
size_t pyfmt_utf8_put(char *p, uint32_t cp);
size_t pyfmt_repr_str(char *dst, const char *s, size_t len,
		      bool ascii, size_t *nch);

#endif
