// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf-pfmt: a tracepoint's print fmt compiled into the steps perf-print.c
 * writes (see perf-print.c for what it covers); perf-pfmt.c builds them.
 */
#ifndef KTF_PERF_PFMT_H
#define KTF_PERF_PFMT_H

#include "perf-int.h"


enum {
	PP_LIT = 0,	/* text */
	PP_INT,		/* a number: %d %i %u %x %X */
	PP_STR,		/* a string: %s */
	/* PP_INT's most common forms, a step each (perf_pop.kind) */
	PP_HEX64,	/* %llx of a u64 field */
	PP_HEX32,	/* %x (or %lx …) of a u32 field */
	PP_UDEC32,	/* %u (or %lu …) of a u32 field */
};

/* A number, as libtraceevent's eval_num_arg() computes it. */
enum {
	PE_FIELD = 0,	/* a numeric field, read unsigned */
	PE_CONST,
	PE_OP,		/* op[] of a and b (a: 0 for a unary op) */
	PE_COND,	/* a ? b : c */
};

struct perf_pexpr {
	uint8_t kind;
	char op[3];
	const struct tep_format_field *f;	/* borrowed from tep */
	uint64_t val;
	struct perf_pexpr *a, *b, *c;		/* owned */
};

struct perf_sym {
	uint64_t val;
	const char *str;	/* borrowed from tep */
	size_t len;
	size_t ord;		/* its place in the list */
	char sb[24];		/* str, when len fits, then zeros */
};

/* A string, as libtraceevent's print_str_arg() prints it. */
enum {
	PS_ATOM = 0,	/* a literal */
	PS_FIELD,	/* a char array field, to its first NUL */
	PS_SYM,		/* __print_symbolic(e, …) */
	PS_FLAGS,	/* __print_flags(e, delim, …) */
	PS_COND,	/* e ? yes : no */
};

struct perf_pstr {
	uint8_t kind;
	const char *s;			/* PS_ATOM, PS_FLAGS' delim: borrowed */
	size_t len;
	const struct tep_format_field *f;	/* PS_FIELD */
	struct perf_pexpr *e;		/* owned */
	struct perf_sym *syms;		/* owned: PS_SYM sorted, PS_FLAGS in order */
	size_t nsyms;
	/* PS_SYM of values below 1024: syms' index + 1 by value, 0 none */
	uint16_t *dense;		/* owned */
	size_t ndense;
	struct perf_pstr *yes, *no;	/* owned: PS_COND */
	size_t max;			/* the most it prints, padding aside */
};

struct perf_pop {
	/* the text before it (a PP_LIT of up to 16 bytes merged into it) */
	char pre[16];		/* then zeros */
	uint8_t prelen;
	uint8_t kind;
	bool left;		/* '-' */
	bool zero;		/* '0' */
	bool alt;		/* '#' */
	bool zext;		/* 'z': an int cast, read back as size_t */
	char conv;		/* d i u x X s */
	int8_t ls;		/* -2 hh, -1 h, 0, 1 l, 2 ll */
	uint16_t width;
	bool hex;		/* a plain %x or %X: perf_pp_hexs() */
	bool udec;		/* a plain %u (no flags, no width) */
	uint8_t fsize;		/* e is a field of this size (0: it is not) */
	uint32_t foff;		/* and at this offset */
	uint64_t mask;		/* the bits of the value printed by hex */
	const char *lit;	/* PP_LIT: borrowed from the format */
	size_t litlen;
	char litb[16];		/* lit, when litlen fits, then zeros */
	struct perf_pexpr *e;	/* owned: PP_INT */
	struct perf_pstr *str;	/* owned: PP_STR */
};

struct perf_pfmt {
	struct perf_pop *ops;	/* owned */
	size_t nops;
	size_t max;		/* the most the text takes */
};

/* e's print fmt as steps, or NULL when any piece of it is not covered. */
struct perf_pfmt *perf_pfmt_make(struct tep_event *e, int long_size);
void perf_pfmt_free(struct perf_pfmt *pf);
/* Do the fields x (ps) reads lie inside a record of size bytes? */
bool perf_pexpr_fits(const struct perf_pexpr *x, size_t size);
bool perf_pstr_fits(const struct perf_pstr *ps, size_t size);

#endif
