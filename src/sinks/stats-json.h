/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A reader of JSON text held in memory, pulled token by token, for the
 * saved statistics stats-merge.c reads back: objects, arrays, strings,
 * numbers (kept as their text, for exact decimals), true, false, null.
 * Errors say the file, line and column. Nesting is bounded.
 */
#ifndef KTF_STATS_JSON_H
#define KTF_STATS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

#define SJ_DEPTH	64	/* nesting skipped values may have */

struct sj {
	const char *name;	/* borrowed: the file, for messages */
	const char *start;	/* borrowed: its text */
	const char *p, *end;
	struct diag *d;
};

/* A number's text: digits, an optional fraction, no sign or exponent. */
struct sj_num {
	const char *s;
	size_t len;
	bool null;		/* it was null */
};

void sj_init(struct sj *j, const char *name, const char *text, size_t len,
	     struct diag *d);

/* An error at the reader's place: -EINVAL, d filled. */
int sj_error(struct sj *j, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Skip white space; the next byte, or 0 at the end. */
char sj_peek(struct sj *j);
/* The byte c next (after white space). 0 or -EINVAL. */
int sj_expect(struct sj *j, char c);
/*
 * In an object or array: 1 when another member follows (its comma read),
 * 0 at its close (read). first: no comma before the first member.
 */
int sj_more(struct sj *j, char close, bool *first);
/* A string into buf (UTF-8, NUL-terminated, cut to size). 0 or -EINVAL. */
int sj_string(struct sj *j, char *buf, size_t size);
/* A string or null (*null set). */
int sj_string_or_null(struct sj *j, char *buf, size_t size, bool *null);
/* A number (or null) as text. 0 or -EINVAL. */
int sj_number(struct sj *j, struct sj_num *n);
/* A number without fraction into *v (null: -EINVAL). */
int sj_u64(struct sj *j, uint64_t *v);
/* Any value, skipped. */
int sj_skip(struct sj *j);

/*
 * The number n in thousandths (µs with three decimals into ns) when
 * milli, else whole: 0, or -ERANGE (too many decimals, too large).
 */
int sj_num_scaled(const struct sj_num *n, bool milli, uint64_t *v);

#endif
