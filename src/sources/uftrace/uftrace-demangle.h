/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * C++ (Itanium) and Rust (legacy and v0) names through libiberty's
 * cplus_demangle(), the demangler of binutils' c++filt. Without libiberty
 * the stubs below demangle nothing and names stay as recorded.
 */
#ifndef KTF_UFTRACE_DEMANGLE_H
#define KTF_UFTRACE_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>

#ifdef HAVE_LIBIBERTY
#include <libiberty/demangle.h>

/*
 * name demangled, malloc'd, or NULL (not a mangled name). full: as c++filt
 * prints it (parameters, return types, Rust hashes); else without
 * parameters or return type.
 */
static inline char *uft_demangle_raw(const char *name, bool full)
{
	int opts = DMGL_AUTO | DMGL_ANSI;

	if (name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	opts |= full ? DMGL_PARAMS | DMGL_VERBOSE : DMGL_RET_DROP;
	return cplus_demangle(name, opts);
}

#define UFT_HAVE_DEMANGLER 1
#else
static inline char *uft_demangle_raw(const char *name, bool full)
{
	return NULL;
}

#define UFT_HAVE_DEMANGLER 0
#endif

#endif
