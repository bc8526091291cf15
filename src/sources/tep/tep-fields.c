// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fields of libtraceevent formats as template values (tep-fields.h),
 * shared by the trace.dat and perf.data readers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symtab.h"
#include "tep/tep-fields.h"

/* Text, or bytes? char arrays are text; u8, unsigned char and the rest hex. */
static bool tepf_is_text(const struct tep_format_field *f)
{
	return (f->flags & TEP_FIELD_IS_STRING) && strstr(f->type, "char") &&
	       !strstr(f->type, "unsigned char");
}

enum tepf_kind tepf_kind(const struct tep_format_field *f)
{
	if (f->flags & TEP_FIELD_IS_DYNAMIC)
		return tepf_is_text(f) ? TEPF_DYN_TEXT : TEPF_DYN_HEX;
	if (f->flags & TEP_FIELD_IS_ARRAY)
		return tepf_is_text(f) ? TEPF_TEXT : TEPF_HEX;
	if (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8)
		return (f->flags & TEP_FIELD_IS_SIGNED) ? TEPF_SINT : TEPF_UINT;
	return TEPF_HEX;
}

int tepf_slot(struct tepf_slots *t, int kind, const struct tep_format_field *f)
{
	struct tepf_slot *s;
	size_t i, cap;

	for (i = 0; i < t->n; i++)
		if (t->v[i].kind == kind && t->v[i].f == f)
			return (int)i;
	if (t->n == t->cap) {
		cap = t->cap ? 2 * t->cap : 16;
		s = realloc(t->v, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		t->v = s;
		t->cap = cap;
	}
	s = &t->v[t->n];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->f = f;
	if (kind == TEPF_HEX || kind == TEPF_DYN_HEX) {
		/* the most a record can hold, so that no read allocates */
		s->hexcap = 2 * (kind == TEPF_HEX && f->size ? (size_t)f->size
							     : t->rec_max) + 1;
		s->hex = malloc(s->hexcap);
		if (!s->hex)
			return -ENOMEM;
	}
	return (int)t->n++;
}

void tepf_slots_free(struct tepf_slots *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->v[i].hex);
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
}

int tepf_bind_field(struct tepf_slots *s, struct tep_event *ev,
		    struct tep_event *any, const char *key)
{
	struct tep_format_field *f = NULL;

	if (ev)
		f = tep_find_field(ev, key);
	if (!f && (ev || any))
		f = tep_find_common_field(ev ? ev : any, key);
	return f ? tepf_slot(s, tepf_kind(f), f) : -ENOENT;
}

int tepf_bind_guest_rip(struct tepf_slots *s, struct tep_event *ev)
{
	struct tep_format_field *f = tep_find_field(ev, "guest_rip");
	int ret;

	f = f ? f : tep_find_field(ev, "vcpu_pc");	/* arm64 */
	ret = f ? tepf_slot(s, tepf_kind(f), f) : -ENOENT;
	return ret < 0 ? ret : SYMTAB_FIELD | ret;
}

static const char tepf_hexdig[] = "0123456789abcdef";

void tepf_hex(struct tepf_slot *s, const unsigned char *p, size_t n,
	      struct value *out)
{
	size_t i;

	if (2 * n + 1 > s->hexcap)
		n = (s->hexcap - 1) / 2;
	for (i = 0; i < n; i++) {
		s->hex[2 * i] = tepf_hexdig[p[i] >> 4];
		s->hex[2 * i + 1] = tepf_hexdig[p[i] & 15];
	}
	value_set_str(out, s->hex, 2 * n);
}
