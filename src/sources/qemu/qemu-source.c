// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What QEMU's simple trace reader (source-qemu-simple.c) and log reader
 * (source-qemu-log.c) share: the buffered input, the dictionary and a type
 * per event of it, the event's arguments as template keys.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qemu.h"

int qemu_in_open(struct qemu_in *in, struct source *src, const char *path,
		 size_t bufmin, struct diag *d)
{
	in->fd = -1;
	if (!path) {
		in->fd = src->fd >= 0 ? src->fd : STDIN_FILENO;
		in->own_fd = src->fd >= 0 && src->own_fd;
		src->fd = -1;
	} else {
		in->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (in->fd < 0) {
			int ret = -errno;

			diag_set(d, "%s: cannot open: %s", src->name,
				 strerror(errno));
			return ret;
		}
		in->own_fd = true;
	}
	in->cap = bufmin + (path ? 0 : src->head_len);
	in->buf = malloc(in->cap);
	if (!in->buf) {
		diag_set(d, "%s: out of memory", src->name);
		return -ENOMEM;
	}
	if (!path && src->head_len) {
		memcpy(in->buf, src->head, src->head_len);
		in->len = src->head_len;
	}
	return 0;
}

void qemu_in_close(struct qemu_in *in)
{
	if (in->own_fd)
		close(in->fd);
	free(in->buf);
}

void qemu_in_shift(struct qemu_in *in)
{
	if (!in->pos)
		return;
	memmove(in->buf, in->buf + in->pos, in->len - in->pos);
	in->off += in->pos;
	in->len -= in->pos;
	in->pos = 0;
}

int qemu_in_read(struct qemu_in *in, const char *name, struct diag *d)
{
	ssize_t n;

	do
		n = read(in->fd, in->buf + in->len, in->cap - in->len);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		int ret = -errno;

		diag_set(d, "%s: offset 0x%" PRIx64 ": cannot read: %s", name,
			 in->off + in->len, strerror(errno));
		return ret;
	}
	if (n == 0)
		in->eof = true;
	in->len += (size_t)n;
	return 0;
}

int qemu_dict_load(struct source *src, struct qemu_events **out,
		   struct diag *d)
{
	*out = qemu_events_load(src->qemu_events ? src->qemu_events
						 : QEMU_EVENTS_DEFAULT, d);
	if (*out)
		return 0;
	return errno == ENOMEM ? -ENOMEM : -EMEDIUMTYPE;
}

void *qemu_types_new(const struct qemu_events *dict, size_t size)
{
	char *v = calloc(dict->n ? dict->n : 1, size);
	struct qemu_type *t;
	size_t i;

	for (i = 0; v && i < dict->n; i++) {
		t = (struct qemu_type *)(v + i * size);
		t->qe = &dict->v[i];
		t->t.name = dict->v[i].name;
		t->t.system = "qemu";
		t->t.index = (uint32_t)i + 1;
	}
	return v;
}

int qemu_arg_bind(const struct qemu_event *qe, const char *key)
{
	uint32_t i;

	for (i = 0; qe && i < qe->nargs; i++)
		if (!strcmp(qe->args[i].name, key))
			return QEMU_FIELD(i, qe->args[i].kind);
	return -ENOENT;
}

int qemu_arg_value(const struct qemu_event *qe, uint32_t first,
		   const struct qemu_values *v, int index, struct value *out)
{
	uint32_t i = QEMU_FIELD_ARG(index);

	if (!qe || i >= qe->nargs || i < first)
		return -ENOENT;
	switch (QEMU_FIELD_KIND(index)) {
	case QEMU_ARG_STR:
		value_set_str(out, v->s[i], v->slen[i]);
		return 0;
	case QEMU_ARG_S64:
		value_set_s64(out, (int64_t)v->u[i]);
		return 0;
	default:
		value_set_u64(out, v->u[i]);
		return 0;
	}
}

size_t qemu_arg_names(const struct qemu_event *qe, const char **names,
		      size_t max)
{
	size_t n = 0;
	uint32_t i;

	for (i = 0; qe && i < qe->nargs && n < max; i++)
		names[n++] = qe->args[i].name;
	return n;
}
