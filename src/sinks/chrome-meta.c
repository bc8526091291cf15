// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Chrome JSON: metadata events, the threads and processes they name, and
 * the document's closing metadata.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chrome.h"
#include "clock.h"
#include "diag.h"
#include "outbuf.h"
#include "pyfmt.h"
#include "render.h"

/*
 * The guest input of a VM that the host's GUEST option left without a
 * name (the reader names it by its trace id, "0x" and 16 digits); NULL.
 */
static const struct source *chrome_vm_input(const struct sink_chrome *c,
					    const char *name)
{
	size_t i;

	if (strlen(name) != 18 || strncmp(name, "0x", 2) ||
	    strspn(name + 2, "0123456789abcdef") != 16)
		return NULL;
	for (i = 0; i < c->nsrcs; i++)
		if (c->srcs[i]->domain == DOMAIN_GUEST && c->srcs[i]->align.vm &&
		    !strcmp(c->srcs[i]->align.vm, name))
			return c->srcs[i];
	return NULL;
}

/*
 * A VM's process, announced on its first thread: the VM's name, or for a
 * VM known by its trace id only, its guest file's (trace-cmd record -A
 * NAME writes trace-NAME.dat).
 */
static int chrome_vm_process(struct sink_chrome *c, uint32_t vm, uint32_t pid)
{
	const char *name = c->pairs.vms.names[vm];
	const struct source *g = chrome_vm_input(c, name);
	const char *base, *stem;
	char *made = NULL;
	size_t len;
	int ret;

	if (sink_map_find(&c->vm_pids, pid) != SINK_MAP_EMPTY)
		return 0;
	if (sink_map_add(&c->vm_pids, pid, pid) < 0)
		return -ENOMEM;
	if (g) {
		base = strrchr(g->name, '/') ? strrchr(g->name, '/') + 1
					     : g->name;
		stem = strncmp(base, "trace-", 6) || !base[6] ? base : base + 6;
		len = strlen(stem);
		if (len > 4 && !strcmp(stem + len - 4, ".dat"))
			len -= 4;
		made = malloc(len + strlen(g->name) + 64);
		if (!made)
			return -ENOMEM;
		sprintf(made, "%.*s (guest %s, trace id %s)", (int)len, stem,
			g->name, name);
		name = made;
	}
	ret = chrome_process_meta(c, pid, name, strlen(name), pid);
	free(made);
	return ret;
}

/* The name, order and process of a vCPU's thread. */
static size_t chrome_vcpu_name(struct sink_chrome *c, uint64_t key,
			       const struct event *ev,
			       const struct sink_type *st, char *name,
			       size_t len, int64_t *order, uint32_t *pid)
{
	enum domain dom = sink_key_domain(key);
	uint32_t vm = sink_key_vm(key), vcpu = sink_key_vcpu(key);
	uint64_t tid = (uint64_t)ev->pid;
	bool named = vm < c->pairs.vms.n && c->pairs.vms.named[vm];

	*order = 2 * (int64_t)(vcpu < 49999 ? vcpu : 49999) +
		 (dom == DOMAIN_GUEST);
	*pid = named ? CHROME_VM_PID + vm : (uint32_t)dom + 1;
	/* the guest's side of a vCPU: its events, its running tasks */
	if (dom == DOMAIN_GUEST)
		return (size_t)snprintf(name, len, "guest vCPU %" PRIu32, vcpu);
	if (vm == CHROME_NOVM)
		return (size_t)snprintf(name, len, "vCPU %" PRIu32, vcpu);
	if (st->host_tid != SINK_NOSLOT && sink_field_u64(ev, st->host_tid, &tid) < 0)
		tid = (uint64_t)ev->pid;
	/* a kvmtrace record's pid is the VM's process */
	return (size_t)snprintf(name, len, "vCPU %" PRIu32 " (%s %" PRIu64 ")",
				vcpu, ev->type->has_id ? "pid" : "host tid", tid);
}

/* chrome_thread() of a key not seen yet (or beyond the cap). */
int chrome_thread_new(struct sink_chrome *c, uint64_t key,
		  const struct event *ev, const struct sink_type *st,
		  uint32_t *tid)
{
	void *grown;
	uint32_t i = sink_map_find(&c->thread_map, key), pid;
	uint64_t num = sink_key_number(key);
	enum domain dom = sink_key_domain(key);
	char name[128];
	size_t nlen;
	struct value v;
	int64_t order;

	if (i == SINK_MAP_EMPTY && c->nthreads >= SINK_MAXKEYS) {
		/* beyond the cap: one thread for the rest */
		key = CHROME_OTHER_KEY;
		i = sink_map_find(&c->thread_map, key);
	}
	if (i != SINK_MAP_EMPTY) {
		*tid = i + 1;
		return 0;
	}
	grown = c->threads;
	if (sink_reserve(&grown, &c->cap_threads, c->nthreads, sizeof(*c->threads)) < 0)
		return -ENOMEM;
	c->threads = grown;
	i = (uint32_t)c->nthreads;
	if (sink_map_add(&c->thread_map, key, i) < 0)
		return -ENOMEM;
	pid = (uint32_t)dom + 1;
	c->threads[i].key = key;
	c->threads[i].open = 0;
	c->threads[i].sched = false;
	c->nthreads++;
	*tid = i + 1;

	switch (key == CHROME_OTHER_KEY ? (enum sink_thread_kind)-1
					: sink_key_kind(key)) {
	/* vCPUs first, then CPUs, then tasks; within int32 */
	case SINK_VCPU:
		nlen = chrome_vcpu_name(c, key, ev, st, name, sizeof(name),
					&order, &pid);
		if (pid >= CHROME_VM_PID &&
		    chrome_vm_process(c, pid - CHROME_VM_PID, pid) < 0)
			return -ENOMEM;
		break;
	case SINK_CPU:
		/* a guest's CPU is one of its vCPUs */
		nlen = (size_t)snprintf(name, sizeof(name), "%s %" PRIu64,
					dom == DOMAIN_GUEST ? "guest vCPU"
							    : "host CPU", num);
		order = 100000 + (num < 99999 ? (int64_t)num : 99999);
		break;
	case SINK_PROG:
		if (chrome_prog_thread(c, key, name, sizeof(name), &nlen,
				       &order, &pid) < 0)
			return -ENOMEM;
		break;
	case SINK_TASK:
		/* a task of a VM the host names: in the VM's process */
		if (num >> CHROME_VMTASK) {
			pid = CHROME_VM_PID + (uint32_t)(num >> CHROME_VMTASK) - 1;
			num &= (1ull << CHROME_VMTASK) - 1;
			if (chrome_vm_process(c, pid - CHROME_VM_PID, pid) < 0)
				return -ENOMEM;
		}
		order = 200000 + (num < (1u << 30) ? (int64_t)num : (1 << 30));
		/* the running task's name: common fields, not the event's own */
		if (st->comm != SINK_NOSLOT && (uint64_t)ev->pid == num &&
		    ev->src->ops->field(ev->src, ev, st->comm, &v) == 0 &&
		    v.kind == VALUE_STR && v.len) {
			nlen = (size_t)snprintf(name, sizeof(name), "%stask %.*s:%" PRIu64,
						dom == DOMAIN_GUEST ? "guest " : "",
						(int)(v.len > 64 ? 64 : v.len),
						v.s, num);
		} else {
			nlen = (size_t)snprintf(name, sizeof(name), "%stask %" PRIu64,
						dom == DOMAIN_GUEST ? "guest " : "",
						num);
		}
		break;
	default:
		nlen = (size_t)snprintf(name, sizeof(name),
					"(threads beyond the first %u)",
					SINK_MAXKEYS);
		order = INT32_MAX;
		break;
	}
	c->threads[i].pid = pid;
	if (nlen >= sizeof(name))
		nlen = sizeof(name) - 1;
	/* a domain's process, named when it gets its first thread */
	if (pid <= 2 && !c->announced[pid - 1]) {
		c->announced[pid - 1] = true;
		if (chrome_process(c, (enum domain)(pid - 1)) < 0)
			return -ENOMEM;
	}
	if (c->enc->ops->thread(c->enc, pid, *tid, name, nlen, order) < 0)
		return -ENOMEM;
	return 0;
}

int chrome_thread_key(struct sink_chrome *c, const struct sink_type *st,
		      const struct event *ev, enum sink_role role,
		      uint64_t *key)
{
	enum domain dom = ev->src->domain;
	uint64_t tid, vcpu;
	uint32_t vm = CHROME_NOVM, learnt;
	bool has_vcpu = ev->has_vcpu;

	if (role == SINK_CALL) {
		if (sink_field_u64(ev, st->tid, &tid) < 0)
			tid = (uint64_t)ev->pid;
		*key = sink_thread_key(dom, SINK_TASK, tid & ((1ull << 40) - 1));
		return 0;
	}
	vcpu = ev->vcpu;
	if (dom == DOMAIN_GUEST && st->vm != SINK_NOSLOT) {
		/* a guest event of a VM the host names: its CPU is the vCPU */
		if (!has_vcpu) {
			vcpu = ev->cpu;
			has_vcpu = true;
		}
		if (sink_vm_of(&c->pairs.vms, st, ev, &vm) < 0)
			return -ENOMEM;
		/* a task's event: on the task's track in the VM's process */
		if (ev->pid > 0 && vm != SINK_VM_OVER &&
		    c->pairs.vms.named[vm]) {
			*key = sink_thread_key(dom, SINK_TASK,
					       (uint64_t)(vm + 1) << CHROME_VMTASK |
					       ((uint64_t)ev->pid &
						((1ull << CHROME_VMTASK) - 1)));
			return 0;
		}
	} else if (dom == DOMAIN_GUEST && has_vcpu) {
		/* a guest's own exits pair by VM (its pid): one track */
		if (sink_vm_of(&c->pairs.vms, st, ev, &vm) < 0)
			return -ENOMEM;
	} else if (dom == DOMAIN_HOST) {
		/* a host event of a vCPU thread: with that vCPU's exits */
		if (!has_vcpu) {
			uint64_t pid = (uint64_t)ev->pid & ((1ull << 40) - 1);

			learnt = sink_map_find(&c->pairs.pid_vcpu,
					       sink_thread_key(dom, SINK_TASK,
							       pid));
			if (learnt != SINK_MAP_EMPTY) {
				vcpu = learnt;
				has_vcpu = true;
			}
		}
		if (has_vcpu && sink_vm_of(&c->pairs.vms, st, ev, &vm) < 0)
			return -ENOMEM;
	}
	if (has_vcpu && vm != SINK_VM_OVER) {
		*key = sink_thread_key(dom, SINK_VCPU,
				       (uint64_t)vm << 32 | (vcpu & 0xffffffffu));
		return 0;
	}
	if (ev->pid > 0)
		*key = sink_thread_key(dom, SINK_TASK,
				       (uint64_t)ev->pid & ((1ull << 40) - 1));
	else
		*key = sink_thread_key(dom, SINK_CPU, ev->cpu);
	return 0;
}

int chrome_event_tid_slow(struct sink_chrome *c, const struct sink_type *st,
			  const struct event *ev, enum sink_role role,
			  struct chrome_tidhit *h, uint32_t *tid)
{
	uint64_t key;

	if (chrome_thread_key(c, st, ev, role, &key) < 0 ||
	    chrome_thread(c, key, ev, st, tid) < 0)
		return -ENOMEM;
	/* not a CPU's track: a VM past the cap with no pid goes by ev->cpu */
	if (h && sink_key_kind(key) != SINK_CPU) {
		h->task = chrome_tidhit_task(ev);
		h->vcpu = chrome_tidhit_vcpu(ev);
		h->tid = *tid;
	}
	return 0;
}

int chrome_process(struct sink_chrome *c, enum domain dom)
{
	size_t i, len = 0, n = 0;
	char *name, *p;
	int ret;

	for (i = 0; i < c->nsrcs; i++)
		if (c->srcs[i]->domain == dom && !c->srcs[i]->ops->program)
			len += strlen(c->srcs[i]->name) + 2;
	if (!len)
		return 0;
	name = malloc(len + 16);
	if (!name)
		return -ENOMEM;
	p = name + sprintf(name, "%s:", dom == DOMAIN_GUEST ? "guest" : "host");
	for (i = 0; i < c->nsrcs; i++) {
		if (c->srcs[i]->domain != dom || c->srcs[i]->ops->program)
			continue;
		p += sprintf(p, "%s %s", n++ ? "," : "", c->srcs[i]->name);
	}
	ret = chrome_process_meta(c, (uint32_t)dom + 1, name,
				  (size_t)(p - name), dom);
	free(name);
	return ret;
}

static const char *chrome_clock_note(const struct sink_chrome *c, char *buf,
				     size_t len)
{
	const char *after = c->enc->ts_base ? " after ts_base_ns" : "";

	if (c->time.ns && c->time.timeline == CLOCK_TSC)
		snprintf(buf, len, "us%s, from TSC ticks at %.17g MHz (-c)",
			 after, c->time.mhz);
	else if (c->time.ns)
		snprintf(buf, len, "us%s, from nanoseconds", after);
	else if (c->time.timeline == CLOCK_TSC)
		snprintf(buf, len, "ticks, unknown frequency: pass -c MHZ");
	else
		snprintf(buf, len, "ticks of a counter of unknown unit");
	return buf;
}

int chrome_footer(struct sink_chrome *c)
{
	struct outbuf *o = c->sink.out;
	char note[128], *p, *start;
	size_t i, need = 1024;

	for (i = 0; i < c->nsrcs; i++)
		need += SINK_JSON_BOUND(strlen(c->srcs[i]->name)) + 128;
	need += c->nprogs * 24;
	p = start = outbuf_reserve(o, need);
	if (!p)
		return -ENOMEM;
	p = CHROME_LIT(p, "\n],\"metadata\":{\"generator\":\"kvmtrace_format " PACKAGE_VERSION "\",\"clock\":");
	chrome_clock_note(c, note, sizeof(note));
	p += sink_json_str(p, note, strlen(note));
	if (c->enc->ts_base) {
		/* a string: JSON readers hold numbers in doubles */
		p = CHROME_LIT(p, ",\"ts_base_ns\":\"");
		p = chrome_dec(p, c->enc->ts_base);
		*p++ = '"';
	}
	p = CHROME_LIT(p, ",\"inputs\":[");
	for (i = 0; i < c->nsrcs; i++) {
		const struct source *src = c->srcs[i];
		const char *clk = clock_name(src->clock);

		if (i)
			*p++ = ',';
		p = CHROME_LIT(p, "{\"name\":");
		p += sink_json_str(p, src->name, strlen(src->name));
		p = CHROME_LIT(p, ",\"kind\":");
		p += sink_json_str(p, src->ops->kind, strlen(src->ops->kind));
		p = CHROME_LIT(p, ",\"domain\":");
		if (src->ops->program)
			p = chrome_prog_pids(c, CHROME_LIT(p, "\"host\""), src);
		else if (src->domain == DOMAIN_GUEST)
			p = CHROME_LIT(p, "\"guest\",\"pid\":2");
		else
			p = CHROME_LIT(p, "\"host\",\"pid\":1");
		p = CHROME_LIT(p, ",\"clock\":");
		p += sink_json_str(p, clk, strlen(clk));
		*p++ = '}';
	}
	p = CHROME_LIT(p, "],\"repaired\":{\"exits_without_entry_at_end\":");
	p = chrome_dec(p, c->exits_open);
	p = CHROME_LIT(p, ",\"exits_followed_by_exit\":");
	p = chrome_dec(p, c->exits_unpaired);
	p = CHROME_LIT(p, ",\"calls_entered_before_start\":");
	p = chrome_dec(p, c->calls_no_entry);
	p = CHROME_LIT(p, ",\"calls_open_at_end\":");
	p = chrome_dec(p, c->calls_no_exit);
	p = CHROME_LIT(p, "}}}\n");
	outbuf_commit(o, (size_t)(p - start));
	return 0;
}
