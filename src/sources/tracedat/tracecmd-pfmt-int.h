// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tracecmd-pfmt: a print fmt compiled (tracecmd-pfmt.c) into the pieces
 * tracecmd-pfmt-text.c writes an event's text by; what it covers is said
 * at the top of tracecmd-pfmt.c.
 */
#ifndef KTF_TRACECMD_PFMT_INT_H
#define KTF_TRACECMD_PFMT_INT_H

#include "tracecmd.h"

#define TC_PF_DEPTH	32	/* nesting of the expressions compiled */
#define TC_PF_WIDTH	64	/* widest number field compiled */
#define TC_PF_TEXT	16384	/* longest text compiled */
#define TC_PF_SLACK	16	/* bytes after the text and the literals:
				 * short pieces are copied 16 at a time */

enum tc_pf_nkind {
	TC_PFN_CONST,		/* val */
	TC_PFN_FIELD,		/* size bytes at off */
	TC_PFN_COND,		/* a ? b : c */
	TC_PFN_OP,		/* a op b */
};

struct tc_pf_node {
	uint8_t kind;
	char op[2];
	uint8_t size;
	uint32_t off;
	int32_t a, b, c;	/* nodes */
	uint64_t val;
};

enum tc_pf_skind {
	TC_PFS_ATOM,		/* s, len */
	TC_PFS_NONE,		/* an operator other than ?: prints nothing */
	TC_PFS_COND,		/* num ? a : b (strings) */
	TC_PFS_SYMBOL,		/* of num: syms[first .. first + n) */
	TC_PFS_FLAGS,		/* of num: syms[...], s/len the delimiter */
};

struct tc_pf_str {
	uint8_t kind;
	int32_t num;		/* node */
	int32_t a, b;		/* strings */
	uint32_t first, n;	/* syms */
	const char *s;		/* borrowed from tep */
	size_t len;
};

struct tc_pf_sym {
	int64_t val;		/* eval_flag() of its value */
	const char *s;		/* borrowed from tep */
	size_t len;
};

enum tc_pf_pkind { TC_PFP_TEXT, TC_PFP_NUM, TC_PFP_STR };

struct tc_pf_piece {
	uint8_t kind;
	char conv;		/* d i u x X */
	uint8_t bits;		/* 8 16 32 64 */
	bool left, zero;	/* '-', '0' */
	uint8_t width;
	int32_t idx;		/* node (NUM), string (STR) */
	size_t off, len;	/* TEXT: in lits */
};

struct tc_pfmt {
	struct tc_pf_piece *p;		/* owned */
	struct tc_pf_node *nodes;	/* owned */
	struct tc_pf_str *strs;		/* owned */
	struct tc_pf_sym *syms;		/* owned */
	uint32_t np, nnodes, nstrs, nsyms;
	char *lits;			/* owned: the text pieces, unescaped */
	size_t nlits;
	uint32_t need;			/* record bytes the fields read */
	char *text;			/* owned: the event's text */
	size_t cap;			/* its size */
	const struct tc *tc;		/* borrowed: byte order */
};

#endif
