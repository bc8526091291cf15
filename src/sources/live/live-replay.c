// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --live-replay=TRACE.dat: the ring-buffer pages of a trace.dat fed to the
 * live reader as if trace_pipe_raw handed them out, page by page, each
 * CPU's in the order the file holds them. The event formats, plugins and
 * comms are the file's (libtracecmd reads its headers, after
 * tracedat-file.c checked its layout); the pages are read here from where
 * the file's CPU table says, and checked by live-pages.c. An uncompressed
 * file (version 6, or 7 without compression): `trace-cmd convert
 * --file-version 6` makes one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "live-int.h"

int live_replay_open(struct live *l, const char *name, struct diag *d)
{
	const char *path = l->cfg.replay;
	struct tracedat_file *f = &l->tc.file;
	uint32_t i;
	int ret;

	ret = tracedat_file_read(name, path, f, d);
	if (ret < 0)
		return -EMEDIUMTYPE;
	if (f->version == 7 && strcmp(f->compression, "none")) {
		diag_set(d, "%s: --live-replay reads the pages of an uncompressed trace.dat; this one is compressed with %s (trace-cmd convert --file-version 6 makes one)",
			 name, f->compression);
		return -EMEDIUMTYPE;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	/* its headers only: the pages are ours to read (and to refuse) */
	l->handle = tracecmd_open_head(path, 0);
	if (!l->handle) {
		diag_set(d, "%s: libtracecmd cannot read its headers", name);
		return -EMEDIUMTYPE;
	}
	l->tc.tep = tracecmd_get_tep(l->handle);
	l->tc.ncpus = tep_get_cpus(l->tc.tep);
	l->page_size = (int)f->page_size;
	if (l->tc.ncpus <= 0 || l->page_size < 64 || l->page_size > (1 << 24)) {
		diag_set(d, "%s: no CPU data, or a page size of %d bytes",
			 name, l->page_size);
		return -EMEDIUMTYPE;
	}
	l->replay_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (l->replay_fd < 0) {
		diag_set(d, "%s: cannot open: %s", name, strerror(errno));
		return -EMEDIUMTYPE;
	}
	ret = live_pages_init(l);
	if (ret < 0)
		return ret;
	for (i = 0; i < f->ncpus; i++) {
		struct live_cpu *c;

		if (f->cpus[i].cpu >= (uint32_t)l->tc.ncpus)
			continue;
		c = &l->cpus[f->cpus[i].cpu];
		c->off = f->cpus[i].off;
		c->end = f->cpus[i].off + f->cpus[i].size;
	}
	return 0;
}

int live_replay_read(struct live *l, struct live_cpu *c)
{
	uint64_t left = c->end > c->off ? c->end - c->off : 0;
	size_t want = left < (uint64_t)l->page_size ? (size_t)left
						     : (size_t)l->page_size;
	ssize_t n;

	if (!want)
		return 0;
	n = pread(l->replay_fd, c->page, want, (off_t)c->off);
	if (n <= 0)
		return n < 0 ? -errno : 0;
	c->off += (uint64_t)n;
	return (int)n;
}

void live_replay_close(struct live *l)
{
	if (l->replay_fd >= 0)
		close(l->replay_fd);
	l->replay_fd = -1;
	if (l->handle)
		tracecmd_close(l->handle);
	l->handle = NULL;
	l->tc.tep = NULL;
	tracedat_file_free(&l->tc.file);
}
