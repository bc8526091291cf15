/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One large output buffer written with write(2). A closed pipe (EPIPE) is
 * not an error: the reader has seen all it wanted, and the run ends quietly.
 */
#ifndef KTF_OUTBUF_H
#define KTF_OUTBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct outbuf {
	char *buf;	/* owned */
	size_t len;
	size_t cap;
	int fd;
	bool closed;	/* the reader went away (EPIPE) */
	int error;	/* first write error other than EPIPE, as -errno */
};

#define OUTBUF_SIZE (1u << 18)

/*
 * fd -1: a buffer whose file is set later (o->fd): until then what is
 * put waits in the buffer, which grows.
 */
struct outbuf *outbuf_create(int fd);
/* Flush and free; returns the first write error (negative errno) or 0. */
int outbuf_destroy(struct outbuf *o);
int outbuf_flush(struct outbuf *o);
/* Make room for n more bytes; returns a pointer to write at, or NULL. */
char *outbuf_reserve_slow(struct outbuf *o, size_t n);

static inline char *outbuf_reserve(struct outbuf *o, size_t n)
{
	if (o->cap - o->len >= n)
		return o->buf + o->len;
	return outbuf_reserve_slow(o, n);
}

static inline void outbuf_commit(struct outbuf *o, size_t n)
{
	o->len += n;
}

static inline int outbuf_put(struct outbuf *o, const char *s, size_t n)
{
	char *p = outbuf_reserve(o, n);

	if (!p)
		return -1;
	memcpy(p, s, n);
	o->len += n;
	return 0;
}

#endif
