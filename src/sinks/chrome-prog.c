// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Chrome JSON: the tracks of a program's own trace (source_ops.program:
 * QEMU's simple and log backends), apart from the kernel's host and guest
 * processes.
 *
 *  - One process per pid of the program where the input records its
 *    process (QEMU's simple backend: getpid()), named "QEMU pid P: FILE";
 *    one per input where it records threads or nothing (QEMU's log:
 *    "TID@" or no pid), named "QEMU: FILE".
 *  - In it, one track per vCPU the events name ("vCPU N", from the
 *    event's cpu index argument); the other events on their thread's
 *    track ("thread TID") where the input names threads, else on one
 *    track "no vCPU named".
 *
 * A track's key: sink_thread_key(host, SINK_PROG, process << 34 | kind
 * << 32 | number). Processes beyond SINK_MAXKEYS share one.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chrome.h"
#include "source.h"

enum chrome_prog_track {
	CHROME_PROG_VCPU = 0,
	CHROME_PROG_THREAD,
	CHROME_PROG_NONE,
};

int chrome_prog_key(struct sink_chrome *c, const struct event *ev,
		    uint64_t *key)
{
	const struct source *src = ev->src;
	bool proc = src->ops->pid_is_process;
	uint32_t pid = proc ? (uint32_t)ev->pid : 0;
	uint64_t pk = (uint64_t)src->index << 32 | pid, kind, num;
	uint32_t i = sink_map_find(&c->prog_map, pk);
	void *grown;

	if (i == SINK_MAP_EMPTY && c->nprogs >= SINK_MAXKEYS) {
		i = SINK_MAXKEYS;
	} else if (i == SINK_MAP_EMPTY) {
		grown = c->progs;
		if (sink_reserve(&grown, &c->cap_progs, c->nprogs,
				 sizeof(*c->progs)) < 0)
			return -ENOMEM;
		c->progs = grown;
		i = (uint32_t)c->nprogs;
		if (sink_map_add(&c->prog_map, pk, i) < 0)
			return -ENOMEM;
		c->progs[i].src = src;
		c->progs[i].pid = pid;
		c->progs[i].announced = false;
		c->nprogs++;
	}
	if (ev->has_vcpu) {
		kind = CHROME_PROG_VCPU;
		num = ev->vcpu;
	} else if (!proc && ev->pid > 0) {
		kind = CHROME_PROG_THREAD;
		num = (uint32_t)ev->pid;
	} else {
		kind = CHROME_PROG_NONE;
		num = 0;
	}
	*key = sink_thread_key(DOMAIN_HOST, SINK_PROG,
			       (uint64_t)i << 34 | kind << 32 | num);
	return 0;
}

/* The process of index i, named on its first track. */
static int chrome_prog_process(struct sink_chrome *c, uint32_t i,
			       uint32_t pid)
{
	const struct chrome_prog *pr = i < c->nprogs ? &c->progs[i] : NULL;
	const char *prog = pr ? pr->src->ops->program : NULL;
	size_t len = pr ? strlen(pr->src->name) + strlen(prog) + 32 : 64;
	char *name = malloc(len);
	int n, ret;

	if (!name)
		return -ENOMEM;
	if (!pr)
		n = snprintf(name, len, "(processes beyond the first %u)",
			     SINK_MAXKEYS);
	else if (pr->src->ops->pid_is_process)
		n = snprintf(name, len, "%s pid %" PRIu32 ": %s", prog, pr->pid,
			     pr->src->name);
	else
		n = snprintf(name, len, "%s: %s", prog, pr->src->name);
	ret = chrome_process_meta(c, pid, name,
				  (size_t)n < len ? (size_t)n : len - 1, pid);
	free(name);
	return ret;
}

int chrome_prog_thread(struct sink_chrome *c, uint64_t key, char *name,
		       size_t len, size_t *nlen, int64_t *order,
		       uint32_t *pid)
{
	uint64_t num = sink_key_number(key);
	uint32_t i = (uint32_t)(num >> 34), n = (uint32_t)num;
	bool *announced = i < c->nprogs ? &c->progs[i].announced
					: &c->prog_over_announced;

	*pid = CHROME_PROG_PID + i;
	switch ((enum chrome_prog_track)(num >> 32 & 3)) {
	case CHROME_PROG_VCPU:
		*nlen = (size_t)snprintf(name, len, "vCPU %" PRIu32, n);
		*order = n < 99999 ? n : 99999;
		break;
	case CHROME_PROG_THREAD:
		*nlen = (size_t)snprintf(name, len, "thread %" PRIu32, n);
		*order = 100000 + (n < (1u << 30) ? (int64_t)n : (1 << 30));
		break;
	default:
		*nlen = (size_t)snprintf(name, len, "no vCPU named");
		*order = INT32_MAX - 1;
		break;
	}
	if (*announced)
		return 0;
	*announced = true;
	return chrome_prog_process(c, i, *pid);
}

char *chrome_prog_pids(const struct sink_chrome *c, char *p,
		       const struct source *src)
{
	size_t i, n = 0;

	p = CHROME_LIT(p, ",\"pids\":[");
	for (i = 0; i < c->nprogs; i++) {
		if (c->progs[i].src != src)
			continue;
		if (n++)
			*p++ = ',';
		p = chrome_dec(p, CHROME_PROG_PID + i);
	}
	*p++ = ']';
	return p;
}

void chrome_prog_fini(struct sink_chrome *c)
{
	sink_map_fini(&c->prog_map);
	free(c->progs);
}
