// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The signatures of other formats at the start of a file (signature.h).
 * None of them can open a kvmtrace stream: the first word of a record is
 * its header, bits 0-27 the event id (0x0001xxxx, 0x0002xxxx), so its low
 * bytes are never text and its third byte is 0x01 or 0x02.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "signature.h"

static const struct {
	const char *magic;
	size_t len;
	struct signature sig;
} signature_magic[] = {
	{ "\x7f" "ELF", 4, { "an ELF file (a program or a library)",
		"a guest's symbols go to --guest-syms FILE", NULL } },
	{ "\x1f\x8b", 2, { "gzip-compressed data",
		"decompress it first: gzip -dc FILE | kvmtrace_format ...",
		"gzip -dc" } },
	{ "\x28\xb5\x2f\xfd", 4, { "zstd-compressed data",
		"decompress it first: zstd -dc FILE | kvmtrace_format ...",
		"zstd -dc" } },
	{ "\xfd" "7zXZ\0", 6, { "xz-compressed data",
		"decompress it first: xz -dc FILE | kvmtrace_format ...",
		"xz -dc" } },
	/* "BZh" and a block size '1'..'9': text to a rule file's reader */
	{ "BZh", 3, { "bzip2-compressed data",
		"decompress it first: bzip2 -dc FILE | kvmtrace_format ...",
		"bzip2 -dc" } },
	{ "\x04\x22\x4d\x18", 4, { "lz4-compressed data",
		"decompress it first: lz4 -dc FILE | kvmtrace_format ...",
		"lz4 -dc" } },
	{ "PERFILE2", 8, { "a perf.data file",
		"this kvmtrace_format was built without its perf.data reader (libtraceevent): perf script -i FILE", NULL } },
	{ "PERFFILE", 8, { "a perf.data file (version 1, perf 3.x)",
		"this kvmtrace_format was built without its perf.data reader (libtraceevent): perf script -i FILE", NULL } },
	{ "\x89PNG\r\n\x1a\n", 8, { "a PNG image", "open it with an image viewer", NULL } },
	{ "PK\x03\x04", 4, { "a zip archive",
		"unpack it first: unzip FILE", NULL } },
	{ "Ftrace!", 7, { "a uftrace 'info' file",
		"give the uftrace data directory that holds it", NULL } },
};

static const struct signature signature_json = {
	"JSON text",
	"read it with jq; a Chrome trace opens in https://ui.perfetto.dev",
	NULL
};

static const struct signature signature_saved = {
	"statistics saved by kvmtrace_format --stats=json",
	"merge saved statistics with --stats: kvmtrace_format --stats A.json B.json ...",
	NULL
};

static const struct signature signature_text = {
	"text",
	"a rule file goes first or after -f; a trace from trace-cmd report is read from its trace.dat",
	NULL
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
	if (signature_saved_stats(head, n))
		return &signature_saved;
	if (i < n && (head[i] == '{' || head[i] == '['))
		return &signature_json;
	return &signature_text;
}

const struct signature *signature_magic_find(const unsigned char *head,
					     size_t n)
{
	const struct signature *sig = signature_find(head, n);

	return sig && sig != &signature_json && sig != &signature_text ? sig :
									 NULL;
}

const struct signature *signature_file(const char *path)
{
	unsigned char head[16];
	struct stat st;
	ssize_t n;
	size_t got = 0;
	int fd;

	/* a pipe is read once, by its reader: never here */
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	while (got < sizeof(head)) {
		n = read(fd, head + got, sizeof(head) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	return signature_magic_find(head, got);
}

bool signature_saved_stats(const unsigned char *head, size_t n)
{
	static const char gen[] = "\"generator\"", ktf[] = "\"kvmtrace_format ";
	size_t i = 0, j;

	while (i < n && strchr(" \t\n\r", head[i]) && head[i])
		i++;
	if (i == n || head[i] != '{')
		return false;
	for (; i + sizeof(gen) - 1 <= n; i++) {
		if (memcmp(head + i, gen, sizeof(gen) - 1))
			continue;
		for (j = i + sizeof(gen) - 1;
		     j < n && head[j] && strchr(" \t\n\r:", head[j]); j++)
			;
		return j + sizeof(ktf) - 1 <= n &&
		       !memcmp(head + j, ktf, sizeof(ktf) - 1);
	}
	return false;
}
