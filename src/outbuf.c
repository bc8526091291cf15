// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "outbuf.h"

struct outbuf *outbuf_create(int fd)
{
	struct outbuf *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->cap = OUTBUF_SIZE;
	o->buf = malloc(o->cap);
	if (!o->buf) {
		free(o);
		return NULL;
	}
	o->fd = fd;
	return o;
}

int outbuf_flush(struct outbuf *o)
{
	size_t off = 0;

	/* no file yet: the bytes wait for it */
	if (o->fd < 0)
		return 0;
	while (off < o->len && !o->closed && !o->error) {
		ssize_t n = write(o->fd, o->buf + off, o->len - off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EPIPE)
				o->closed = true;
			else
				o->error = -errno;
			break;
		}
		off += (size_t)n;
	}
	o->len = 0;
	return o->error;
}

char *outbuf_reserve_slow(struct outbuf *o, size_t n)
{
	outbuf_flush(o);
	if (o->cap - o->len < n) {
		size_t cap = o->len + n > 2 * o->cap ? o->len + n : 2 * o->cap;
		char *nb = realloc(o->buf, cap);

		if (!nb)
			return NULL;
		o->buf = nb;
		o->cap = cap;
	}
	return o->buf + o->len;
}

int outbuf_destroy(struct outbuf *o)
{
	int ret;

	if (!o)
		return 0;
	ret = outbuf_flush(o);
	free(o->buf);
	free(o);
	return ret;
}
