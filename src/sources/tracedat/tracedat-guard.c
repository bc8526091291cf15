// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tracedat-guard: fields inside records, and libtraceevent's printing
 * under a trap (tracedat-trap.c). See tracedat-guard.h.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>

#include "diag.h"
#include "tracedat-guard.h"
#include "tracedat-trap.h"

/*
 * What one event format needs of its records, found once. A format that
 * ends in a fixed-size array (ftrace's kernel_stack and user_stack:
 * unsigned long caller[8]) may have records that stop within it: the
 * kernel writes as many entries as it has, and libtraceevent and
 * trace-cmd read such a record to its end. Its records need only reach
 * where that array starts.
 */
struct tdguard_fmt {
	const struct tep_event *e;	/* borrowed; NULL: a free slot */
	uint64_t need;			/* bytes a record must have */
	const struct tep_format_field *far;	/* the field ending last */
	/* the end of the last field in full (a trailing array whole): a
	 * shorter record is printed from a copy padded to it */
	uint64_t full;
	/* records of at least this size fit, nothing else to check:
	 * full, or UINT64_MAX (dynamic fields, a format too long) */
	uint64_t fits;
	bool dynamic;			/* __data_loc / __rel_loc fields */
	/*
	 * fields libtraceevent may print with "%s" to a NUL that lies
	 * nowhere in the record (tdguard_text_runs())
	 */
	bool texts;
};

struct tdguard {
	const char *name;		/* borrowed */
	const char *kind;		/* "trace.dat", "perf.data": borrowed */
	struct tdguard_fmt *fmts;	/* owned: open addressing by pointer */
	size_t nfmts, capfmts;
	/* owned: the padded copy of a record tdguard_info() prints */
	unsigned char *pad;
	size_t padcap;
	bool installed;			/* counted in tdguard_users */
	bool failed;
	struct diag fault;
};

/* ------------------------------------------------------------ records */

static size_t tdguard_hash(const struct tep_event *e, size_t cap)
{
	uintptr_t x = (uintptr_t)e;

	x ^= x >> 17;
	x *= (uintptr_t)0x9e3779b97f4a7c15ull;
	return (size_t)(x >> 7) & (cap - 1);
}

static struct tdguard_fmt *tdguard_slot(struct tdguard_fmt *t, size_t cap,
					const struct tep_event *e)
{
	size_t i = tdguard_hash(e, cap);

	while (t[i].e && t[i].e != e)
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static int tdguard_grow(struct tdguard *g)
{
	size_t cap = g->capfmts ? 2 * g->capfmts : 64, i;
	struct tdguard_fmt *t = calloc(cap, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (i = 0; i < g->capfmts; i++)
		if (g->fmts[i].e)
			*tdguard_slot(t, cap, g->fmts[i].e) = g->fmts[i];
	free(g->fmts);
	g->fmts = t;
	g->capfmts = cap;
	return 0;
}

static void tdguard_span(struct tdguard_fmt *f,
			 const struct tep_format_field *fld)
{
	for (; fld; fld = fld->next) {
		uint64_t end = (uint64_t)(uint32_t)fld->offset +
			       (uint64_t)(uint32_t)fld->size;

		if (fld->offset < 0 || fld->size < 0)
			end = UINT64_MAX;
		if (end > f->need) {
			f->need = end;
			f->far = fld;
		}
		if (fld->flags & TEP_FIELD_IS_DYNAMIC)
			f->dynamic = true;
	}
}

/* A trailing array may be cut short: need only the fields before it. */
static void tdguard_trailing(struct tdguard_fmt *f, const struct tep_event *e)
{
	const struct tep_format_field *far = f->far, *fld;
	uint64_t need;
	int pass;

	if (!far || f->need == UINT64_MAX ||
	    (far->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) !=
		    TEP_FIELD_IS_ARRAY)
		return;
	need = (uint64_t)(uint32_t)far->offset;
	for (pass = 0; pass < 2; pass++)
		for (fld = pass ? e->format.fields : e->format.common_fields;
		     fld; fld = fld->next) {
			uint64_t end = (uint64_t)(uint32_t)fld->offset +
				       (uint64_t)(uint32_t)fld->size;

			/* another field ending at or past the array's end */
			if (fld != far && end >= f->need)
				return;
			if (fld != far && end > need)
				need = end;
		}
	f->need = need;
}

/*
 * An array libtraceevent takes for text (of char, u8 or s8:
 * TEP_FIELD_IS_STRING) and prints with "%s", to its NUL, if it is
 * printable: any, fixed-size or __data_loc, of a format it could not
 * parse (TEP_EVENT_FL_FAILED: each field printed raw, print_field_raw());
 * a __data_loc one of another (__get_str()); a print fmt copies a
 * fixed-size one with its length.
 */
static bool tdguard_runs_to_nul(const struct tep_event *e,
				const struct tep_format_field *fld)
{
	if ((fld->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_ARRAY)) !=
	    (TEP_FIELD_IS_STRING | TEP_FIELD_IS_ARRAY))
		return false;
	return (e->flags & TEP_EVENT_FL_FAILED) ||
	       (fld->flags & TEP_FIELD_IS_DYNAMIC);
}

/*
 * A format with text libtraceevent prints to a NUL (tdguard_runs_to_nul()),
 * or ftrace's bprint (trace_printk()): its arguments are read from the
 * record by the format the printk table names, a string with strdup() to
 * its NUL, a number at the next 4-byte boundary even past the record's
 * end (make_bprint_args())
 */
static bool tdguard_has_texts(const struct tep_event *e)
{
	const struct tep_format_field *fld;

	if (e->flags & TEP_EVENT_FL_ISBPRINT)
		return true;
	for (fld = e->format.fields; fld; fld = fld->next)
		if (tdguard_runs_to_nul(e, fld))
			return true;
	return false;
}

/* What e needs, found the first time a record of e is met. */
static __attribute__((noinline, cold)) const struct tdguard_fmt *
tdguard_fmt_new(struct tdguard *g, const struct tep_event *e)
{
	struct tdguard_fmt *f;

	if ((g->nfmts + 1) * 2 > g->capfmts && tdguard_grow(g) < 0)
		return NULL;
	f = tdguard_slot(g->fmts, g->capfmts, e);
	f->e = e;
	tdguard_span(f, e->format.common_fields);
	tdguard_span(f, e->format.fields);
	f->full = f->need;
	tdguard_trailing(f, e);
	f->texts = tdguard_has_texts(e);
	f->fits = f->dynamic || f->full > TDGUARD_PAD_MAX ? UINT64_MAX
							  : f->full;
	g->nfmts++;
	return f;
}

static inline const struct tdguard_fmt *tdguard_fmt(struct tdguard *g,
						    const struct tep_event *e)
{
	const struct tdguard_fmt *f;

	if (__builtin_expect(g->capfmts != 0, 1)) {
		f = tdguard_slot(g->fmts, g->capfmts, e);
		if (__builtin_expect(f->e != NULL, 1))
			return f;
	}
	return tdguard_fmt_new(g, e);
}

static bool tdguard_is_text(const struct tep_format_field *f)
{
	return f->type && strstr(f->type, "char") &&
	       !strstr(f->type, "unsigned char");
}

static int tdguard_where(struct tdguard *g, const struct tep_event *e,
			 const struct tep_record *rec, struct diag *d)
{
	if (d)
		diag_set(d, "%s: CPU %d: offset 0x%llx: event %s: ", g->name,
			 rec->cpu, (unsigned long long)rec->offset,
			 e->name ? e->name : "(no name)");
	return -EIO;
}

/* The __data_loc fields of rec (f->dynamic): 0, or -EIO with d filled. */
static int tdguard_dynamic(struct tdguard *g, struct tep_handle *tep,
			   const struct tep_event *e,
			   const struct tep_record *rec, uint64_t size,
			   struct diag *d)
{
	const struct tep_format_field *fld;

	for (fld = e->format.fields; fld; fld = fld->next) {
		unsigned long long loc;
		uint64_t off, len;
		const char *p;

		if (!(fld->flags & TEP_FIELD_IS_DYNAMIC))
			continue;
		loc = tep_read_number(tep, (const char *)rec->data + fld->offset,
				      fld->size < 4 ? fld->size : 4);
		off = loc & 0xffff;
		/*
		 * a two-byte __data_loc has no length: libtraceevent takes
		 * the rest of the record
		 */
		len = fld->size == 2 ? (off <= size ? size - off : 0)
				     : (loc >> 16) & 0xffff;
		if (fld->flags & TEP_FIELD_IS_RELATIVE)
			off += (uint64_t)fld->offset + (uint64_t)fld->size;
		if (off > size || len > size - off) {
			tdguard_where(g, e, rec, d);
			if (d)
				diag_add(d, "field '%s' points at bytes %" PRIu64 "..%" PRIu64 " of a record of %" PRIu64 " bytes (corrupt %s)",
					 fld->name, off, off + len - (len > 0),
					 size, g->kind);
			return -EIO;
		}
		p = (const char *)rec->data + off;
		/*
		 * libtraceevent prints text up to its NUL, which may lie past
		 * the declared length (a char path[6] holding "(null)"): one
		 * must be there before the record ends
		 */
		if (tdguard_is_text(fld) && len && !memchr(p, '\0', len) &&
		    !memchr(p + len, '\0', size - off - len)) {
			tdguard_where(g, e, rec, d);
			if (d)
				diag_add(d, "the text of field '%s' (%" PRIu64 " bytes at %" PRIu64 ") has no terminating NUL before the record ends (corrupt %s)",
					 fld->name, len, off, g->kind);
			return -EIO;
		}
	}
	return 0;
}

/*
 * Where libtraceevent 1.7 takes the data of __data_loc or __rel_loc
 * field fld of rec to be (dynamic_offset_field()), in its own unsigned
 * 32-bit sums: a location past the record is offset 0, a length past it
 * 0, but a two-byte location's length (no length: "the rest of the
 * record") wraps past that check, and a relative one has its field's end
 * added after it; a field past the record gives offset 0, length 0
 */
static void tdguard_loc(struct tep_handle *tep,
			const struct tep_format_field *fld,
			const struct tep_record *rec, uint64_t *off,
			uint64_t *len)
{
	uint32_t size = rec->size > 0 ? (uint32_t)rec->size : 0, o, l;
	unsigned long long loc;

	*off = *len = 0;
	if (fld->offset < 0 || fld->size < 0 ||
	    (uint64_t)fld->offset + (uint64_t)fld->size > size)
		return;
	loc = tep_read_number(tep, (const char *)rec->data + fld->offset,
			      fld->size);
	o = (uint32_t)(loc & 0xffff);
	l = fld->size == 2 ? size - o : (uint32_t)((loc >> 16) & 0xffff);
	*off = o > size ? 0 : o;
	*len = o + l > size ? 0 : l;
	if (fld->flags & TEP_FIELD_IS_RELATIVE)
		*off += (uint64_t)fld->offset + (uint64_t)fld->size;
}

/*
 * Would libtraceevent 1.7 read outside rec printing its __data_loc and
 * __rel_loc fields, where tdguard_loc() finds their data? Text is printed
 * to its NUL: the padded copy has zeros after it.
 */
static bool tdguard_unsafe(struct tep_handle *tep, const struct tep_event *e,
			   const struct tep_record *rec)
{
	const struct tep_format_field *fld;
	uint32_t size = rec->size > 0 ? (uint32_t)rec->size : 0;
	uint64_t off, len;

	for (fld = e->format.fields; fld; fld = fld->next) {
		if (!(fld->flags & TEP_FIELD_IS_DYNAMIC))
			continue;
		tdguard_loc(tep, fld, rec, &off, &len);
		if (off > size || len > size - off)
			return true;
	}
	return false;
}

/*
 * tdguard_record() past its first test, f the format's (NULL: out of
 * memory); d optional (NULL: nothing said).
 */
static int tdguard_check(struct tdguard *g, struct tep_handle *tep,
			 const struct tep_event *e,
			 const struct tdguard_fmt *f,
			 const struct tep_record *rec, struct diag *d)
{
	uint64_t size = rec->size > 0 ? (uint64_t)rec->size : 0;
	int ret;

	if (!f) {
		if (d)
			diag_set(d, "%s: out of memory", g->name);
		return -ENOMEM;
	}
	if (__builtin_expect(f->need > size || f->full > TDGUARD_PAD_MAX, 0)) {
		tdguard_where(g, e, rec, d);
		if (!d)
			return -EIO;
		if (f->need > size && f->far->size == 0)
			diag_add(d, "a record of %" PRIu64 " bytes, but its format puts field '%s' at byte %d, past its end (corrupt %s)",
				 size, f->far->name, f->far->offset, g->kind);
		else if (f->need > size)
			diag_add(d, "a record of %" PRIu64 " bytes, but its format puts field '%s' at bytes %d..%" PRIu64 ": the record is shorter than its format (corrupt %s)",
				 size, f->far->name, f->far->offset,
				 f->need == UINT64_MAX ? (uint64_t)UINT64_MAX
						       : f->need - 1, g->kind);
		else
			diag_add(d, "its format declares field '%s' at bytes %d..%" PRIu64 ", more than a record holds (at most %u bytes; corrupt %s)",
				 f->far->name, f->far->offset,
				 f->full == UINT64_MAX ? (uint64_t)UINT64_MAX
						       : f->full - 1,
				 (unsigned)TDGUARD_PAD_MAX, g->kind);
		return -EIO;
	}
	if (f->dynamic) {
		ret = tdguard_dynamic(g, tep, e, rec, size, d);
		if (ret < 0)
			return ret;
	}
	return f->full > size ? TDGUARD_SHORT : 0;
}

int tdguard_record(struct tdguard *g, struct tep_handle *tep,
		   struct tep_event *e, const struct tep_record *rec,
		   struct diag *d)
{
	const struct tdguard_fmt *f = tdguard_fmt(g, e);

	/* a good record of a format without __data_loc fields: one test */
	if (__builtin_expect(f && rec->size >= 0 &&
			     (uint64_t)rec->size >= f->fits, 1))
		return 0;
	return tdguard_check(g, tep, e, f, rec, d);
}

uint64_t tdguard_fits(struct tdguard *g, const struct tep_event *e)
{
	const struct tdguard_fmt *f = tdguard_fmt(g, e);

	return f ? f->fits : UINT64_MAX;
}

/*
 * A field's raw text, as libtraceevent's print_field_raw() writes it for
 * "[FAILED TO PARSE]", from the bytes of the record only: a string stops
 * at its NUL or at the record's end.
 */
static void tdguard_raw_field(struct tep_handle *tep, struct trace_seq *s,
			      const struct tep_format_field *f,
			      const unsigned char *data, uint64_t size)
{
	unsigned long long val;
	uint64_t off, len, i;

	if (f->flags & TEP_FIELD_IS_ARRAY) {
		off = (uint64_t)f->offset;
		len = (uint64_t)f->size;
		if (f->flags & TEP_FIELD_IS_DYNAMIC) {
			val = tep_read_number(tep, data + f->offset,
					      f->size < 4 ? f->size : 4);
			off = val & 0xffff;
			len = f->size == 2 ? (off <= size ? size - off : 0)
					   : (val >> 16) & 0xffff;
			if (f->flags & TEP_FIELD_IS_RELATIVE)
				off += (uint64_t)f->offset + (uint64_t)f->size;
			if (off > size || len > size - off)
				off = len = 0;
		}
		if (f->flags & TEP_FIELD_IS_STRING) {
			for (i = 0; i < len && data[off + i]; i++)
				if (!isprint(data[off + i]) &&
				    !isspace(data[off + i]))
					break;
			if (i == len || !data[off + i]) {
				for (i = off; i < size && data[i]; i++)
					;
				trace_seq_printf(s, "%.*s", (int)(i - off),
						 (const char *)data + off);
				return;
			}
		}
		trace_seq_puts(s, "ARRAY[");
		for (i = 0; i < len; i++)
			trace_seq_printf(s, "%s%02x", i ? ", " : "",
					 data[off + i]);
		trace_seq_putc(s, ']');
		return;
	}
	val = tep_read_number(tep, data + f->offset, f->size);
	if (f->flags & TEP_FIELD_IS_POINTER)
		trace_seq_printf(s, "0x%llx", val);
	else if (!(f->flags & TEP_FIELD_IS_SIGNED))
		trace_seq_printf(s, f->flags & TEP_FIELD_IS_LONG ? "0x%llx"
								 : "%llu",
				 val);
	else if (f->size == 4)
		trace_seq_printf(s, f->flags & TEP_FIELD_IS_LONG ? "0x%x" : "%d",
				 (int)val);
	else if (f->size == 2)
		trace_seq_printf(s, "%2d", (short)val);
	else if (f->size == 1)
		trace_seq_printf(s, "%1d", (signed char)val);
	else
		trace_seq_printf(s, "%lld", (long long)val);
}

/*
 * "[FAILED TO PARSE]" and the fields, as trace-cmd falls back for a
 * format libtraceevent cannot parse (tep_print_fields()), but only the
 * fields that lie inside the record.
 */
static void tdguard_fallback(struct tep_handle *tep, struct tep_event *e,
			     struct trace_seq *s, struct tep_record *rec)
{
	uint64_t size = rec->size > 0 ? (uint64_t)rec->size : 0;
	const struct tep_format_field *f;

	/* a call cut short may have left it failed: start it anew */
	if (s->state != TRACE_SEQ__GOOD) {
		trace_seq_destroy(s);
		trace_seq_init(s);
	}
	trace_seq_reset(s);
	if (!e)
		e = tep_find_event_by_record(tep, rec);
	trace_seq_puts(s, "[FAILED TO PARSE]");
	for (f = e ? e->format.fields : NULL; f; f = f->next) {
		/* a damaged record's fields past its end: not read */
		if (f->offset < 0 || f->size < 0 ||
		    (uint64_t)f->offset + (uint64_t)f->size > size)
			continue;
		if (!(f->flags & TEP_FIELD_IS_ARRAY) &&
		    !(f->size == 1 || f->size == 2 || f->size == 4 ||
		      f->size == 8))
			continue;
		trace_seq_printf(s, " %s=", f->name);
		tdguard_raw_field(tep, s, f, rec->data, size);
	}
	trace_seq_terminate(s);
}

/*
 * rec as libtraceevent may read it: the record's bytes, then zeros to the
 * end of its format's last field in full and a few more (a string without
 * its NUL stops there). Its size: the record's, or where its format's
 * fields end if that is further (a zero-sized array at the end, "the rest
 * of the record", then starts inside it). NULL when out of memory.
 */
static struct tep_record *tdguard_pad(struct tdguard *g,
				      const struct tdguard_fmt *f,
				      const struct tep_record *rec,
				      struct tep_record *copy)
{
	uint64_t size = rec->size > 0 ? (uint64_t)rec->size : 0;
	uint64_t end = (size > f->full ? size : f->full) + TDGUARD_PAD_TAIL;

	if (end > g->padcap) {
		unsigned char *p = realloc(g->pad, end);

		if (!p)
			return NULL;
		g->pad = p;
		g->padcap = end;
	}
	memcpy(g->pad, rec->data, size);
	memset(g->pad + size, 0, end - size);
	*copy = *rec;
	copy->data = g->pad;
	copy->size = (int)(size > f->need ? size : f->need);
	return copy;
}

/*
 * Would libtraceevent read past rec printing a text array of e
 * (tdguard_runs_to_nul())? A NUL must lie between where the text starts,
 * as tdguard_loc() finds it, and the record's end. (The guard's
 * own check of __data_loc text, tdguard_dynamic(), takes char arrays
 * only, and leaves a record out where this pads it.)
 */
static bool tdguard_text_runs(struct tep_handle *tep,
			      const struct tep_event *e,
			      const struct tep_record *rec)
{
	uint64_t size = rec->size > 0 ? (uint64_t)rec->size : 0;
	const struct tep_format_field *fld;

	/* bprint: each record from the padded copy (tdguard_has_texts()) */
	if (e->flags & TEP_EVENT_FL_ISBPRINT)
		return true;
	for (fld = e->format.fields; fld; fld = fld->next) {
		uint64_t off = (uint64_t)(uint32_t)fld->offset, len;

		if (!tdguard_runs_to_nul(e, fld) || fld->offset < 0 ||
		    fld->size < 0)
			continue;
		if (fld->flags & TEP_FIELD_IS_DYNAMIC)
			tdguard_loc(tep, fld, rec, &off, &len);
		if (off >= size ||
		    !memchr((const char *)rec->data + off, '\0', size - off))
			return true;
	}
	return false;
}

int tdguard_info(struct tdguard *g, struct tep_handle *tep,
		 struct tep_event *e, struct trace_seq *s,
		 struct tep_record *rec)
{
	struct tep_record copy, *orig = rec;
	const struct tdguard_fmt *f;
	int sig, ret;

	if (g->failed) {
		tdguard_fallback(tep, e, s, rec);
		return -EFAULT;
	}
	/*
	 * A record shorter than its format: libtraceevent reads all of
	 * every field it prints, so it gets a copy padded with zeros, or,
	 * for a format no record can fill, our own fallback text
	 */
	if (e) {
		f = tdguard_fmt(g, e);
		ret = f && rec->size >= 0 && (uint64_t)rec->size >= f->fits
			      ? 0
			      : tdguard_check(g, tep, e, f, rec, NULL);
		/* text that runs to the record's end: the padded copy's
		 * zeros end it */
		if (!ret && f && f->texts && tdguard_text_runs(tep, e, rec))
			ret = TDGUARD_SHORT;
		if (ret && (!f || f->full > TDGUARD_PAD_MAX ||
			    !tdguard_pad(g, f, rec, &copy))) {
			tdguard_fallback(tep, e, s, rec);
			return 0;
		}
		/*
		 * a damaged record (-EIO) whose __data_loc field points
		 * where libtraceevent's own checks let it read past the
		 * record, padded or not
		 */
		if (ret < 0 && f->dynamic && tdguard_unsafe(tep, e, &copy)) {
			tdguard_fallback(tep, e, s, rec);
			return 0;
		}
		if (ret)
			rec = &copy;
	}
	if (!g->installed) {
		if (tdtrap_install() < 0) {
			/* no room for the trap: print unguarded */
			tep_print_event(tep, s, rec, "%s", TEP_PRINT_INFO);
			return 0;
		}
		g->installed = true;
	}
	sig = tdtrap_print(tep, s, rec);
	if (!sig)
		return 0;
	g->failed = true;
	/*
	 * The signal came at any instruction of tep_print_event(): the
	 * watchdog's SIGALRM even between the realloc() of s's buffer and
	 * its storing, so s's buffer is neither trusted nor freed again (a
	 * fuzzed perf.data had the fallback write into a freed one). A new
	 * one is started; the old one is left, one buffer of libtraceevent's
	 * per input that stops here.
	 */
	trace_seq_init(s);
	if (!e)
		e = tep_find_event_by_record(tep, rec);
	diag_set(&g->fault, "%s: CPU %d: offset 0x%llx: event %s: libtraceevent %s printing it: its print fmt is corrupt; this input stops here",
		 g->name, rec->cpu, (unsigned long long)rec->offset,
		 e && e->name ? e->name : "(the event of this record)",
		 tdtrap_signame(sig));
	tdguard_fallback(tep, e, s, orig);
	return -EFAULT;
}

bool tdguard_failed(const struct tdguard *g, struct diag *d)
{
	if (!g || !g->failed)
		return false;
	diag_set(d, "%s", g->fault.msg);
	return true;
}

struct tdguard *tdguard_create(const char *name, const char *kind)
{
	struct tdguard *g = calloc(1, sizeof(*g));

	if (g) {
		g->name = name;
		g->kind = kind;
	}
	return g;
}

void tdguard_destroy(struct tdguard *g)
{
	if (!g)
		return;
	if (g->installed)
		tdtrap_uninstall();
	free(g->pad);
	free(g->fmts);
	free(g);
}

/* ------------------------------------------------------------ stderr */

int tdguard_redirect(int fd, int to)
{
	int saved = fcntl(fd, F_DUPFD_CLOEXEC, 3);

	if (saved < 0)
		return -1;
	if (dup2(to, fd) < 0) {
		close(saved);
		return -1;
	}
	return saved;
}

void tdguard_restore(int fd, int saved)
{
	if (saved < 0)
		return;
	dup2(saved, fd);
	close(saved);
}

int tdguard_stderr_begin(void)
{
	FILE *tmp;
	int saved;

	fflush(stderr);
	tmp = tmpfile();
	if (!tmp)
		return -1;
	saved = tdguard_redirect(STDERR_FILENO, fileno(tmp));
	/* redirected, the file lives on as standard error until end */
	fclose(tmp);
	return saved;
}

char *tdguard_stderr_end(int saved, const char *prefix)
{
	char buf[4096], *text = NULL;
	size_t plen = strlen(prefix), lines = 1, i, o = 0;
	ssize_t n = 0;
	off_t len;

	if (saved < 0)
		return NULL;
	fflush(stderr);
	len = lseek(STDERR_FILENO, 0, SEEK_END);
	if (len > 0)
		n = pread(STDERR_FILENO, buf, sizeof(buf) - 1, 0);
	tdguard_restore(STDERR_FILENO, saved);
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	if (n <= 0)
		return NULL;
	for (i = 0; i < (size_t)n; i++)
		lines += buf[i] == '\n';
	text = malloc((size_t)n + lines * plen + 1);
	if (!text)
		return NULL;
	for (i = 0; i < (size_t)n; i++) {
		if (i == 0 || buf[i - 1] == '\n') {
			memcpy(text + o, prefix, plen);
			o += plen;
		}
		text[o++] = buf[i] ? buf[i] : '?';
	}
	text[o] = '\0';
	return text;
}
