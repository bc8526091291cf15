// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tracedat-shrink: pages a mapped trace.dat lost, replaced by zeros and
 * noted. See tracedat-shrink.h.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "diag.h"
#include "tracedat-shrink.h"

/* One mapping of /proc/self/maps. */
struct tdshrink_map {
	uint64_t start, end, off, dev, ino;
	bool writable;
};

/*
 * Signal handler state, the one kind of file-scope mutable state allowed
 * (as in tracedat-guard.c): the handler cannot be given an argument.
 * Up to TDSHRINK_FILES files, each with the lowest offset it lost.
 */
#define TDSHRINK_FILES 16
static struct sigaction tdshrink_old;
static unsigned tdshrink_users;
static uintptr_t tdshrink_page;
static struct {
	uint64_t dev, ino, off;
} tdshrink_hit[TDSHRINK_FILES];
static volatile sig_atomic_t tdshrink_nhits;

static const char *tdshrink_num(const char *p, unsigned base, uint64_t *v)
{
	*v = 0;
	for (;; p++) {
		unsigned d;

		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else
			return p;
		*v = *v * base + d;
	}
}

/* "start-end perms offset major:minor inode path" holding addr? */
static bool tdshrink_line(const char *p, uintptr_t addr,
			  struct tdshrink_map *m)
{
	uint64_t maj, min;

	p = tdshrink_num(p, 16, &m->start);
	if (*p++ != '-')
		return false;
	p = tdshrink_num(p, 16, &m->end);
	if (*p++ != ' ' || addr < m->start || addr >= m->end)
		return false;
	m->writable = p[0] && p[1] == 'w';
	while (*p && *p != ' ')
		p++;
	if (*p++ != ' ')
		return false;
	p = tdshrink_num(p, 16, &m->off);
	if (*p++ != ' ')
		return false;
	p = tdshrink_num(p, 16, &maj);
	if (*p++ != ':')
		return false;
	p = tdshrink_num(p, 16, &min);
	if (*p++ != ' ')
		return false;
	tdshrink_num(p, 10, &m->ino);
	m->dev = makedev((unsigned)maj, (unsigned)min);
	return true;
}

/* The mapping holding addr, with open() and read() only (in a handler). */
static bool tdshrink_find(uintptr_t addr, struct tdshrink_map *m)
{
	char buf[2048], line[512];
	bool found = false;
	size_t len = 0;
	ssize_t n, i;
	int fd;

	fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	while (!found && (n = read(fd, buf, sizeof(buf))) > 0) {
		for (i = 0; i < n && !found; i++) {
			if (buf[i] != '\n') {
				if (len < sizeof(line) - 1)
					line[len++] = buf[i];
				continue;
			}
			line[len] = '\0';
			len = 0;
			found = tdshrink_line(line, addr, m);
		}
	}
	close(fd);
	return found;
}

bool tdshrink_fault(int sig, const siginfo_t *si)
{
	struct tdshrink_map m;
	uintptr_t page;
	uint64_t off;
	int i, n;

	if (sig != SIGBUS || !si || si->si_code != BUS_ADRERR ||
	    !tdshrink_page)
		return false;
	page = (uintptr_t)si->si_addr & ~(tdshrink_page - 1);
	if (!tdshrink_find(page, &m) || !m.ino)
		return false;
	if (mmap((void *)page, (size_t)(m.end - page),
		 PROT_READ | (m.writable ? PROT_WRITE : 0),
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
		return false;
	off = m.off + (page - m.start);
	n = tdshrink_nhits;
	for (i = 0; i < n; i++)
		if (tdshrink_hit[i].dev == m.dev && tdshrink_hit[i].ino == m.ino) {
			if (off < tdshrink_hit[i].off)
				tdshrink_hit[i].off = off;
			return true;
		}
	if (n < TDSHRINK_FILES) {
		tdshrink_hit[n].dev = m.dev;
		tdshrink_hit[n].ino = m.ino;
		tdshrink_hit[n].off = off;
		tdshrink_nhits = n + 1;
	}
	return true;
}

static void tdshrink_handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (tdshrink_fault(sig, si))
		return;
	/* not ours: the handler before us; the access faults again there */
	sigaction(SIGBUS, &tdshrink_old, NULL);
}

void tdshrink_hold(void)
{
	struct sigaction sa;
	long ps;

	if (tdshrink_users++)
		return;
	ps = sysconf(_SC_PAGESIZE);
	tdshrink_page = ps > 0 ? (uintptr_t)ps : 4096;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = tdshrink_handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGBUS, &sa, &tdshrink_old);
}

void tdshrink_release(void)
{
	if (!tdshrink_users || --tdshrink_users)
		return;
	sigaction(SIGBUS, &tdshrink_old, NULL);
}

bool tdshrink_lost(const void *p, int n, uint64_t dev, uint64_t ino,
		   const char *name, const char *path, struct diag *d)
{
	struct stat st;
	int i, hits;

	/* its first and last byte, the pages a record of a page spans */
	tdshrink_touch(p, n);
	hits = tdshrink_nhits;
	for (i = 0; i < hits; i++)
		if (tdshrink_hit[i].dev == dev && tdshrink_hit[i].ino == ino)
			break;
	if (i == hits)
		return false;
	if (!path || stat(path, &st) < 0)
		st.st_size = 0;
	diag_set(d, "%s: truncated trace.dat: the file shrank while it was read (libtracecmd maps it): the data at offset 0x%" PRIx64 " is gone, the file now has %lld bytes; this input stops here",
		 name, tdshrink_hit[i].off, (long long)st.st_size);
	return true;
}

const volatile sig_atomic_t *tdshrink_hits(void)
{
	return &tdshrink_nhits;
}
