/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Templates: Python's %-mapping syntax, "%(key)[flags][width][.prec]conv",
 * compiled once into a list of literal and conversion operations.
 */
#ifndef KTF_TEMPLATE_H
#define KTF_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pyfmt.h"

enum tmpl_op_kind {
	TMPL_LIT = 0,
	TMPL_CONV,
};

/*
 * Conversions the renderer formats inline, Python-exact: DEC, HEX,
 * HEX_UP and STR for a non-negative integer (tmpl_fast_int()), STR for a
 * string, FLT for a float; any other value takes pyfmt.
 */
enum tmpl_fast {
	TMPL_SLOW = 0,
	TMPL_DEC,	/* d i u: flags 0 and -, a width up to 64 */
	TMPL_HEX,	/* x: the same, or '#' alone */
	TMPL_HEX_UP,	/* X */
	TMPL_STR,	/* s: no flags, width or precision */
	TMPL_FLT,	/* f F: no flags or width, precision up to 9 */
};

/* Bytes the renderer may copy past a literal or a number (over-copy). */
#define TMPL_SLACK 32

struct tmpl_op {
	enum tmpl_op_kind kind;
	uint32_t off;		/* TMPL_LIT: bytes [off, off+len) of text */
	uint32_t len;
	uint32_t key;		/* TMPL_CONV: index into keys */
	uint32_t col;		/* TMPL_CONV: 1-based column of its '%' */
	enum tmpl_fast fast;
	struct pyfmt_spec spec;
};

/* One block: the arrays and strings follow the struct (tmpl_destroy()). */
struct tmpl {
	char *text;		/* the template as written */
	size_t len;
	struct tmpl_op *ops;
	size_t nops;
	char **keys;		/* distinct keys in order of use */
	uint32_t *key_col;	/* 1-based column of each key's first use */
	size_t nkeys;
	size_t bound;		/* bytes the literals and numbers can take */
	bool has_str;		/* some conversion may print a string */
};

/*
 * Compile text. On failure returns a negative errno and sets *err_col
 * (1-based column within text) and *err_msg (static text).
 */
int tmpl_compile(const char *text, size_t len, struct tmpl **out,
		 unsigned *err_col, const char **err_msg);
void tmpl_destroy(struct tmpl *t);

/* Does the renderer format a non-negative integer for op inline? */
static inline bool tmpl_fast_int(const struct tmpl_op *op)
{
	return op->fast != TMPL_SLOW && op->fast != TMPL_FLT;
}

/* Is conversion c one that needs an integer (Python raises TypeError on a float)? */
static inline bool tmpl_conv_int_only(char c)
{
	return c == 'x' || c == 'X' || c == 'o' || c == 'c';
}

#endif
