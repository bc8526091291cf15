/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fields of libtraceevent formats as template values, for the readers
 * whose events libtraceevent describes (trace.dat, perf.data tracepoints):
 * the kind of a tep_format_field, the table of slots keys bind to, and the
 * value of a field in a record's raw data. Each reader adds its own
 * pseudo-fields (kinds from TEPF_OWN on) and fetches those itself.
 */
#ifndef KTF_TEP_FIELDS_H
#define KTF_TEP_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <event-parse.h>

#include "byteorder.h"
#include "source.h"

enum tepf_kind {
	TEPF_UINT = 0,	/* an integer of f->size bytes */
	TEPF_SINT,
	TEPF_TEXT,	/* char array: text up to the first NUL */
	TEPF_HEX,	/* any other fixed-size data: its bytes in hex */
	TEPF_DYN_TEXT,	/* __data_loc / __rel_loc char[] */
	TEPF_DYN_HEX,	/* __data_loc / __rel_loc of anything else */
	TEPF_OWN,	/* the reader's own kinds from here */
};

/* A key resolved for the events of one type; indices are ops->field()'s. */
struct tepf_slot {
	int kind;		/* enum tepf_kind, or the reader's own */
	const struct tep_format_field *f;	/* borrowed; NULL: pseudo */
	char *hex;		/* owned: TEPF_HEX, TEPF_DYN_HEX text */
	size_t hexcap;
};

struct tepf_slots {
	struct tepf_slot *v;	/* owned */
	size_t n, cap;
	size_t rec_max;		/* the largest record: hex text is made for it */
};

/* How a reader reads what a record's size cuts short. */
enum {
	/* an array may stop short at the record's end (kernel_stack) */
	TEPF_ARRAY_SHORT = 1,
	/* dynamic text without a NUL in its length: to the NUL after it */
	TEPF_DYN_TO_NUL = 2,
};

/* The kind a field's value is read as. */
enum tepf_kind tepf_kind(const struct tep_format_field *f);
/* The slot of (kind, f), found or added; its index, or -ENOMEM. */
int tepf_slot(struct tepf_slots *s, int kind, const struct tep_format_field *f);
void tepf_slots_free(struct tepf_slots *s);
/*
 * key as a field of ev's format, else as a common field (of ev, or of any
 * when ev is NULL): its slot, -ENOENT, or -ENOMEM.
 */
int tepf_bind_field(struct tepf_slots *s, struct tep_event *ev,
		    struct tep_event *any, const char *key);
/*
 * guest_sym with --guest-syms: the slot of ev's guest RIP field (guest_rip;
 * vcpu_pc on arm64) with SYMTAB_FIELD set, -ENOENT, or -ENOMEM.
 */
int tepf_bind_guest_rip(struct tepf_slots *s, struct tep_event *ev);
/* Fixed-size hex and NUL-terminated text into a value. */
void tepf_hex(struct tepf_slot *s, const unsigned char *p, size_t n,
	      struct value *out);
static inline void tepf_text(const char *p, size_t n, struct value *out)
{
	const char *z = memchr(p, '\0', n);

	value_set_str(out, p, z ? (size_t)(z - p) : n);
}

/* An integer of size bytes at p, swapped when the data's order is not ours. */
static inline uint64_t tepf_read(bool swap, const void *p, int size)
{
	switch (size) {
	case 1:
		return *(const uint8_t *)p;
	case 2:
		return bo_u16(swap, p);
	case 4:
		return bo_u32(swap, p);
	case 8:
		return bo_u64(swap, p);
	}
	return 0;
}

static inline int64_t tepf_sext(uint64_t v, int size)
{
	unsigned shift = 64 - 8 * (unsigned)size;

	return size >= 8 ? (int64_t)v : (int64_t)(v << shift) >> shift;
}

/*
 * The value of slot s (a kind below TEPF_OWN) in the record data (size
 * bytes; NULL: none), read as flags say. 0, or -ENOENT when the record
 * does not hold it. Inline: the readers' hot path.
 */
static inline int tepf_fetch(struct tepf_slot *s, const char *data,
			     size_t size, bool swap, unsigned flags,
			     struct value *out)
{
	const struct tep_format_field *f = s->f;
	uint64_t loc, off, n;
	size_t len;

	if (!data || ((size_t)f->offset + (size_t)f->size > size &&
		      !((flags & TEPF_ARRAY_SHORT) &&
			(s->kind == TEPF_TEXT || s->kind == TEPF_HEX) &&
			(size_t)f->offset <= size)))
		return -ENOENT;
	switch (s->kind) {
	case TEPF_UINT:
		value_set_u64(out, tepf_read(swap, data + f->offset, f->size));
		return 0;
	case TEPF_SINT:
		value_set_s64(out, tepf_sext(tepf_read(swap, data + f->offset,
						       f->size),
					     f->size));
		return 0;
	case TEPF_TEXT:
	case TEPF_HEX:
		/* size 0: a flexible array (ftrace:print's buf[]) to the end */
		len = size - (size_t)f->offset;
		if (f->size && (size_t)f->size < len)
			len = (size_t)f->size;
		if (s->kind == TEPF_TEXT)
			tepf_text(data + f->offset, len, out);
		else
			tepf_hex(s, (const unsigned char *)data + f->offset,
				 len, out);
		return 0;
	case TEPF_DYN_TEXT:
	case TEPF_DYN_HEX:
		/* u32: offset in the low half, length in the high half */
		loc = tepf_read(swap, data + f->offset,
				f->size < 4 ? f->size : 4);
		off = loc & 0xffff;
		n = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (uint64_t)f->offset + (uint64_t)f->size;
		if (off > size || n > size - off)
			return -ENOENT;
		if (s->kind == TEPF_DYN_HEX)
			tepf_hex(s, (const unsigned char *)data + off,
				 (size_t)n, out);
		else if ((flags & TEPF_DYN_TO_NUL) && n &&
			 !memchr(data + off, '\0', (size_t)n))
			tepf_text(data + off, size - (size_t)off, out);
		else
			tepf_text(data + off, (size_t)n, out);
		return 0;
	}
	return -ENOENT;
}

#endif
