/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A guest's symbols: address -> function. Read from System.map or
 * /proc/kallsyms text ("ADDR TYPE NAME [module]"), or from an ELF file's
 * symbol tables through libelf where it was found at configure time
 * (without it, an ELF file is refused with a message).
 */
#ifndef KTF_SYMTAB_H
#define KTF_SYMTAB_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct diag;
struct value;

/*
 * 16 bytes a symbol, the names back to back in one block: a 300 MB
 * System.map took three times its size as one malloc'd name each.
 */
struct symtab_sym {
	uint64_t addr;
	uint32_t name;		/* offset in symtab.names */
	uint32_t size;		/* 0: up to the next symbol (capped at 4 GiB - 1) */
};

struct symtab {
	struct symtab_sym *v;	/* owned, sorted by addr */
	size_t n;
	size_t cap;
	char *names;		/* owned: NUL-terminated names, back to back */
	size_t names_len;
	size_t names_cap;
};

/*
 * Load path (text or ELF). A text file stops at its first NUL byte
 * (refused: no text symbol file has one); what is neither a regular file
 * nor a pipe (a device such as /dev/zero, a directory) is refused. NULL
 * with d filled on failure.
 */
struct symtab *symtab_load(const char *path, struct diag *d);
void symtab_destroy(struct symtab *t);

/* Add one symbol (before symtab_sort). 0, -ENOMEM or -EFBIG (4 GiB of names). */
int symtab_add(struct symtab *t, uint64_t addr, uint64_t size,
	       const char *name, size_t len);
/* Sort and drop duplicates: after the last symtab_add. */
void symtab_sort(struct symtab *t);

/*
 * The index of the function holding addr: the last symbol at or below
 * it, if addr lies within its size (or, without a size, before the next
 * symbol); -1 if none.
 */
int64_t symtab_find(const struct symtab *t, uint64_t addr);

static inline const char *symtab_name(const struct symtab *t, size_t i)
{
	return t->names + t->v[i].name;
}

/*
 * The key guest_sym of exit events, for readers: bind() returns the index
 * of the exit's RIP field with SYMTAB_FIELD set; field() of such an index
 * reads the RIP through the index without it and names its function.
 */
#define SYMTAB_FIELD	(1 << 29)

static inline bool symtab_is_field(int index)
{
	return index >= 0 && (index & SYMTAB_FIELD);
}

/* ev's function name for rip into out; -ENOENT if none (or no table). */
int symtab_field(const struct symtab *t, uint64_t rip, struct value *out);

#ifdef HAVE_LIBELF
/* symtab-elf.c: the function symbols of an ELF file. 0 or -errno. */
int symtab_load_elf(struct symtab *t, int fd, const char *path,
		    struct diag *d);
#else
#include "diag.h"
static inline int symtab_load_elf(struct symtab *t, int fd, const char *path,
				  struct diag *d)
{
	(void)t;
	(void)fd;
	diag_set(d, "%s: an ELF file, and this kvmtrace_format was built without libelf (apt-get install libelf-dev, then configure again)",
		 path);
	return -ENOTSUP;
}
#endif

#endif
