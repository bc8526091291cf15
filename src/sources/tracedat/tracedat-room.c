// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Room for an uncompressed copy of a trace.dat (tracedat-inflate.c) before
 * it is made: the free space of the file system it goes to, the limits
 * on file size and address space (tracedat-int.h, td_room()).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "diag.h"
#include "tracedat-int.h"

/* A soft limit of resource below *room lowers it, as says says. */
static void td_rlimit(int resource, const char *says, uint64_t *room,
		      const char **what)
{
	struct rlimit rl;

	if (getrlimit(resource, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (uint64_t)rl.rlim_cur < *room) {
		*room = (uint64_t)rl.rlim_cur;
		*what = says;
	}
}

int td_room(const char *name, int out, uint64_t size, struct diag *d)
{
	const char *what = "the file system of the copy ($TMPDIR) has";
	uint64_t room = UINT64_MAX;
	struct statvfs vfs;
	long pages, psize;

	if (out < 0) {
		/* no copy: libtracecmd holds all of it in memory */
		pages = sysconf(_SC_AVPHYS_PAGES);
		psize = sysconf(_SC_PAGESIZE);
		if (pages > 0 && psize > 0)
			room = (uint64_t)pages * (uint64_t)psize;
		what = "the memory available is";
		td_rlimit(RLIMIT_AS, "the address space limit (ulimit -v) is",
			  &room, &what);
		if (size <= room)
			return 0;
		diag_set(d, "%s: no copy can be made, and libtracecmd would hold its %" PRIu64 " uncompressed bytes (%" PRIu64 " MiB) in memory, but %s %" PRIu64 " (%" PRIu64 " MiB)",
			 name, size, size >> 20, what, room, room >> 20);
		return -EFBIG;
	}
	if (fstatvfs(out, &vfs) == 0 && vfs.f_frsize &&
	    vfs.f_bavail <= UINT64_MAX / vfs.f_frsize)
		room = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	td_rlimit(RLIMIT_FSIZE, "the file-size limit (ulimit -f) allows", &room,
		  &what);
	if (size <= room)
		return 0;
	diag_set(d, "%s: its uncompressed copy needs %" PRIu64 " bytes (%" PRIu64 " MiB), but %s %" PRIu64 " (%" PRIu64 " MiB)",
		 name, size, size >> 20, what, room, room >> 20);
	return -ENOSPC;
}
