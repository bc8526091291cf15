/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QEMU's own traces (the folder's header; the rest of the program sees
 * the readers through source.h): the event dictionary, trace-events, as
 * QEMU's scripts/tracetool reads it.
 *
 *   [PROPS] NAME(TYPE ARG, ...) "FORMAT"
 *
 * PROPS: disable, vcpu (QEMU 7.2 gives a vcpu event an implicit first
 * argument `void *__cpu` and prints `cpu=%p ` before its format). A
 * string argument (char *, const char *) is recorded as its bytes; every
 * other one as a u64, sign-extended from a signed type.
 */
#ifndef KTF_QEMU_H
#define KTF_QEMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "source.h"

/* tracetool allows 10 arguments; the 7.2 vcpu events have one more */
#define QEMU_MAX_ARGS	11

/* Where Debian installs the dictionary (package qemu-system-common). */
#define QEMU_EVENTS_DEFAULT	"/usr/share/qemu/trace-events-all"

enum qemu_arg_kind {
	QEMU_ARG_U64 = 0,	/* unsigned, a pointer, bool */
	QEMU_ARG_S64,		/* a signed integer type */
	QEMU_ARG_STR,		/* char *: length and bytes */
};

struct qemu_arg {
	const char *type;	/* borrowed from the dictionary's text */
	size_t type_len;	/* type is not NUL-terminated */
	const char *name;	/* borrowed: NUL-terminated */
	enum qemu_arg_kind kind;
};

struct qemu_event {
	const char *name;	/* borrowed: NUL-terminated */
	const char *fmt;	/* borrowed: the format, quotes and all; may be "" */
	size_t fmt_len;
	unsigned lineno;
	bool vcpu;		/* the vcpu property */
	uint32_t nargs;
	int cpu_arg;		/* the argument naming a vCPU index; -1: none */
	struct qemu_arg args[QEMU_MAX_ARGS];
};

struct qemu_events {
	char *path;		/* owned */
	char *text;		/* owned: the file, its strings cut in place */
	struct qemu_event *v;	/* owned */
	size_t n;
	uint32_t *hash;		/* owned: open addressing, index + 1 */
	size_t hmask;
};

/*
 * Read the dictionary at path. Returns it, or NULL with d saying why
 * (path:line:column: for a line tracetool would refuse) and errno ENOMEM,
 * or EINVAL (missing, unreadable, not a trace-events file).
 */
struct qemu_events *qemu_events_load(const char *path, struct diag *d);
void qemu_events_free(struct qemu_events *e);
/* The event called name (len bytes), or NULL. */
const struct qemu_event *qemu_events_find(const struct qemu_events *e,
					  const char *name, size_t len);

/*
 * An event's format compiled for reading log lines back (qemu-format.c):
 * literal pieces and conversions, in order.
 */
#define QEMU_MAX_PIECES	48

struct qemu_piece {
	const char *lit;	/* a literal's bytes, or the conversion's text */
	size_t len;
	char conv;		/* 0: a literal; else d i o u x X c s p */
	bool alt;		/* the '#' flag */
	bool wide;		/* a length modifier of 64 bits (l, ll, j, z) */
};

struct qemu_fmt {
	bool ok;		/* false: the format cannot be read back */
	char *text;		/* owned: the C string the literals make */
	size_t len;
	uint32_t n, nconv;
	struct qemu_piece v[QEMU_MAX_PIECES];
};

/* An event's argument values as read (strings borrowed from the line). */
struct qemu_values {
	uint64_t u[QEMU_MAX_ARGS];
	const char *s[QEMU_MAX_ARGS];
	size_t slen[QEMU_MAX_ARGS];
};

/*
 * Compile the trace-events format fmt (len bytes, quotes and macros as
 * written) after the literal prefix. Returns 0 (f->ok says whether it
 * can be read back) or -ENOMEM.
 */
int qemu_fmt_compile(struct qemu_fmt *f, const char *prefix,
		     const char *fmt, size_t len);
void qemu_fmt_free(struct qemu_fmt *f);
/*
 * Read the text s (len bytes) as qe's arguments from argument first on
 * into out. Returns 0, -EAGAIN when more than one reading fits, or
 * -EINVAL when none does.
 */
int qemu_fmt_read(const struct qemu_fmt *f, const struct qemu_event *qe,
		  uint32_t first, const char *s, size_t len,
		  struct qemu_values *out);

/* ---------------------------------------------------------- qemu-source.c
 * What the two readers (source-qemu-simple.c, source-qemu-log.c) share.
 */
/* The bytes of the input, buffered. */
struct qemu_in {
	int fd;
	bool own_fd;
	unsigned char *buf;	/* owned */
	size_t cap, pos, len;
	uint64_t off;		/* file offset of buf[0] */
	bool eof;
};

/*
 * Open path (NULL: src's descriptor or standard input, after the head the
 * probe read) with a buffer of bufmin bytes. 0, or -ENOMEM, or open()'s
 * -errno, with d set; in->fd is -1 until something is open.
 */
int qemu_in_open(struct qemu_in *in, struct source *src, const char *path,
		 size_t bufmin, struct diag *d);
void qemu_in_close(struct qemu_in *in);
/* Move the unread bytes to the start of the buffer. */
void qemu_in_shift(struct qemu_in *in);
/*
 * Read once into the rest of the buffer (EINTR read again); sets eof at
 * the end. 0, or -errno with d set.
 */
int qemu_in_read(struct qemu_in *in, const char *name, struct diag *d);

/*
 * The dictionary --qemu-events names, else QEMU_EVENTS_DEFAULT. 0, or
 * -ENOMEM, or -EMEDIUMTYPE (a usage problem found before any output:
 * exit 2) with d set.
 */
int qemu_dict_load(struct source *src, struct qemu_events **out,
		   struct diag *d);

/* An event of the dictionary as a type: what each reader's types start with. */
struct qemu_type {
	struct event_type t;		/* index: the event's + 1 */
	const struct qemu_event *qe;	/* borrowed from the dictionary */
};

/*
 * A type per event of dict (at least one structure), each of size bytes
 * starting with a struct qemu_type, the rest zero. NULL: out of memory.
 */
void *qemu_types_new(const struct qemu_events *dict, size_t size);

/* A key's index: the argument's number, its kind in the low bits. */
#define QEMU_FIELD(i, kind)	((int)((uint32_t)(i) << 2 | (uint32_t)(kind)))
#define QEMU_FIELD_ARG(index)	((uint32_t)(index) >> 2)
#define QEMU_FIELD_KIND(index)	((enum qemu_arg_kind)((index) & 3))

/* The argument of qe called key as QEMU_FIELD(), or -ENOENT. */
int qemu_arg_bind(const struct qemu_event *qe, const char *key);
/* The value of the argument index names, from argument first on; -ENOENT. */
int qemu_arg_value(const struct qemu_event *qe, uint32_t first,
		   const struct qemu_values *v, int index, struct value *out);
/* The names of qe's arguments (none for NULL), at most max. */
size_t qemu_arg_names(const struct qemu_event *qe, const char **names,
		      size_t max);

/* Write Python's repr() of bytes: b'...' (b"..." when ' but no "). */
size_t qemu_bytes_repr_len(const unsigned char *s, size_t len);
char *qemu_bytes_repr(char *p, const unsigned char *s, size_t len);

#endif
