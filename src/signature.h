/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Files that are something else: a kvmtrace stream has no magic word (the
 * 2008 files have none), so any bytes could be one; but a file that starts
 * with the signature of another format (a program, a compressed file, a
 * perf.data, an image, JSON or text) is refused by name before any output,
 * with what would read it.
 */
#ifndef KTF_SIGNATURE_H
#define KTF_SIGNATURE_H

#include <stdbool.h>
#include <stddef.h>

struct signature {
	const char *what;	/* "zstd-compressed data" */
	const char *advice;	/* "decompress it first: zstd -d FILE" */
	const char *unpack;	/* "zstd -dc": compressed data; else NULL */
};

/*
 * What the first n bytes of a file say it is, or NULL when they could
 * start a kvmtrace stream (n == 0, an empty stream, is one).
 */
const struct signature *signature_find(const unsigned char *head, size_t n);

/* signature_find() of a format's magic bytes only: not text, not JSON. */
const struct signature *signature_magic_find(const unsigned char *head,
					     size_t n);

/*
 * The format a regular file's first bytes name (signature_magic_find()),
 * or NULL: text, JSON, no magic, not a regular file, or unreadable.
 */
const struct signature *signature_file(const char *path);
/*
 * Do the first n bytes of a file start a saved `kvmtrace_format
 * --stats=json` document (a JSON object whose "generator" is
 * kvmtrace_format, in its first 64 bytes, however spaced)?
 */
bool signature_saved_stats(const unsigned char *head, size_t n);

#endif
