// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The signatures of other formats at the start of a file (signature.h).
 * None of them can open a kvmtrace stream: the first word of a record is
 * its header, bits 0-27 the event id (0x0001xxxx, 0x0002xxxx), so its low
 * bytes are never text and its third byte is 0x01 or 0x02.
 */
#include <stdbool.h>
#include <string.h>

#include "signature.h"

static const struct {
	const char *magic;
	size_t len;
	struct signature sig;
} signature_magic[] = {
	{ "\x7f" "ELF", 4, { "an ELF file (a program or a library)",
		"a guest's symbols go to --guest-syms FILE" } },
	{ "\x1f\x8b", 2, { "gzip-compressed data",
		"decompress it first: gzip -dc FILE | kvmtrace_format ..." } },
	{ "\x28\xb5\x2f\xfd", 4, { "zstd-compressed data",
		"decompress it first: zstd -dc FILE | kvmtrace_format ..." } },
	{ "\xfd" "7zXZ\0", 6, { "xz-compressed data",
		"decompress it first: xz -dc FILE | kvmtrace_format ..." } },
	{ "BZh", 3, { "bzip2-compressed data",
		"decompress it first: bzip2 -dc FILE | kvmtrace_format ..." } },
	{ "\x04\x22\x4d\x18", 4, { "lz4-compressed data",
		"decompress it first: lz4 -dc FILE | kvmtrace_format ..." } },
	{ "PERFILE2", 8, { "a perf.data file",
		"this kvmtrace_format was built without its perf.data reader (libtraceevent): perf script -i FILE" } },
	{ "PERFFILE", 8, { "a perf.data file (version 1, perf 3.x)",
		"this kvmtrace_format was built without its perf.data reader (libtraceevent): perf script -i FILE" } },
	{ "\x89PNG\r\n\x1a\n", 8, { "a PNG image", "open it with an image viewer" } },
	{ "PK\x03\x04", 4, { "a zip archive",
		"unpack it first: unzip FILE" } },
	{ "Ftrace!", 7, { "a uftrace 'info' file",
		"give the uftrace data directory that holds it" } },
};

static const struct signature signature_json = {
	"JSON text",
	"read it with jq; a Chrome trace opens in https://ui.perfetto.dev"
};

static const struct signature signature_text = {
	"text",
	"a rule file goes first or after -f; a trace from trace-cmd report is read from its trace.dat"
};

#define SIGNATURE_NMAGIC (sizeof(signature_magic) / sizeof(signature_magic[0]))

/* No control bytes but white space: text (UTF-8 or not). */
static bool signature_is_text(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((p[i] < 0x20 && !strchr("\t\n\v\f\r", p[i])) ||
		    p[i] == 0x7f || !p[i])
			return false;
	return true;
}

const struct signature *signature_find(const unsigned char *head, size_t n)
{
	size_t i;

	for (i = 0; i < SIGNATURE_NMAGIC; i++)
		if (n >= signature_magic[i].len &&
		    !memcmp(head, signature_magic[i].magic,
			    signature_magic[i].len))
			return &signature_magic[i].sig;
	if (!n || !signature_is_text(head, n))
		return NULL;
	for (i = 0; i < n && strchr(" \t\n\v\f\r", head[i]); i++)
		;
	/* a UTF-8 byte order mark before it */
	if (i + 3 <= n && !memcmp(head + i, "\xef\xbb\xbf", 3))
		i += 3;
	if (i < n && (head[i] == '{' || head[i] == '['))
		return &signature_json;
	return &signature_text;
}
