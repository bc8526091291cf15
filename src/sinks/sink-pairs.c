// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which VM an event's task belongs to, and each vCPU's pending exit
 * (sink-util.h: struct sink_vms, struct sink_pairs), for every sink that
 * pairs exits with entries.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink-util.h"

/* ---------------------------------------------------------------- VMs */

void sink_vms_fini(struct sink_vms *vms)
{
	size_t i;

	for (i = 0; i < vms->n; i++)
		free(vms->names[i]);
	free(vms->names);
	free(vms->named);
	sink_map_fini(&vms->map);
	memset(vms, 0, sizeof(*vms));
}

/* FNV-1a, with the top bit set: never a pid. */
static uint64_t sink_name_hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h | 1ull << 63;
}

int sink_vm_of_slow(struct sink_vms *vms, const struct sink_type *st,
		    const struct event *ev, uint32_t *out)
{
	char buf[40], *name;
	struct sink_vms_seen *seen;
	const char *s;
	uint64_t key;
	size_t len;
	struct value v;
	uint32_t i;
	void *grown;
	bool named = false;

	if (st->vm != SINK_NOSLOT &&
	    ev->src->ops->field(ev->src, ev, st->vm, &v) == 0 &&
	    v.kind == VALUE_STR && v.len) {
		s = v.s;
		len = v.len;
		key = sink_name_hash(s, len);
		named = true;
	} else {
		/* a pid of one machine: the inputs of two hosts are apart */
		key = sink_vm_pid_key(ev);
		s = NULL;
		len = 0;
	}
	seen = sink_vms_seen(vms, key);
	if (seen->idx && seen->key == key) {
		*out = seen->idx - 1;
		return 0;
	}
	i = sink_map_find(&vms->map, key);
	if (i != SINK_MAP_EMPTY) {
		seen->key = key;
		seen->idx = i + 1;
		*out = i;
		return 0;
	}
	/* named on first sight only: this runs for every exit and entry */
	if (!s) {
		len = (size_t)snprintf(buf, sizeof(buf), "pid %" PRId64, ev->pid);
		s = buf;
	}
	if (vms->n >= SINK_MAXKEYS) {
		*out = SINK_VM_OVER;
		return 0;
	}
	grown = vms->names;
	if (sink_reserve(&grown, &vms->cap, vms->n, sizeof(*vms->names)) < 0)
		return -ENOMEM;
	vms->names = grown;
	grown = realloc(vms->named, vms->cap * sizeof(*vms->named));
	if (!grown)
		return -ENOMEM;
	vms->named = grown;
	name = strndup(s, len);
	if (!name)
		return -ENOMEM;
	if (sink_map_add(&vms->map, key, (uint32_t)vms->n) < 0) {
		free(name);
		return -ENOMEM;
	}
	vms->names[vms->n] = name;
	vms->named[vms->n] = named;
	*out = (uint32_t)vms->n++;
	return 0;
}

/* ---------------------------------------------------- exit/entry pairs */

void sink_pairs_fini(struct sink_pairs *p)
{
	sink_map_fini(&p->map);
	sink_map_fini(&p->pid_vcpu);
	sink_vms_fini(&p->vms);
	free(p->v);
	memset(p, 0, sizeof(*p));
}

static struct sink_vcpu *sink_pairs_over(struct sink_pairs *p)
{
	p->over.over = true;
	p->over.pending = false;
	p->over.kind = SINK_KIND_NONE;
	return &p->over;
}

static struct sink_vcpu *sink_pairs_at(struct sink_pairs *p, uint64_t key,
				       bool create)
{
	uint32_t i;

	if (p->last && p->last_key == key)
		return &p->v[p->last - 1];
	i = sink_map_find(&p->map, key);
	if (i != SINK_MAP_EMPTY) {
		p->last_key = key;
		p->last = i + 1;
		return &p->v[i];
	}
	if (!create)
		return NULL;
	if (p->n >= SINK_MAXKEYS)
		return sink_pairs_over(p);
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		struct sink_vcpu *n = realloc(p->v, cap * sizeof(*n));

		if (!n)
			return NULL;
		p->v = n;
		p->cap = cap;
	}
	if (sink_map_add(&p->map, key, (uint32_t)p->n) < 0)
		return NULL;
	memset(&p->v[p->n], 0, sizeof(p->v[p->n]));
	p->v[p->n].key = key;
	return &p->v[p->n++];
}

/* The state to return for ev on v, the vCPU of ev's task (see the .h). */
static struct sink_vcpu *sink_pairs_found(struct sink_pairs *p,
					  const struct sink_type *st,
					  const struct event *ev,
					  struct sink_vcpu *v, uint64_t task)
{
	struct sink_vcpu *t;

	if (v->over)
		return v;
	if (!v->pending && p->tasks && sink_role(st, ev) == SINK_ENTRY) {
		/* its exit may wait under the task (no vcpu_id field) */
		t = sink_pairs_at(p, task, false);
		if (t && t->pending)
			return t;
	}
	v->host_tid = ev->pid;
	return v;
}

struct sink_vcpu *sink_pairs_get(struct sink_pairs *p,
				 const struct sink_type *st,
				 const struct event *ev)
{
	enum domain dom = ev->src->domain;
	uint64_t task = sink_thread_key(dom, SINK_TASK,
					(uint64_t)ev->pid & ((1ull << 40) - 1));
	uint64_t hkey = 0, hvcpu = 0;
	/* the VM is the pid's, the vCPU the event's: one probe */
	struct sink_pairs_hit *hit = sink_pairs_hit(p, st, ev, &hkey, &hvcpu);
	struct sink_vcpu *v;
	uint64_t n;
	uint32_t learnt, vm;

	if (hit && hit->task == hkey && hit->vcpu == hvcpu)
		return sink_pairs_found(p, st, ev, &p->v[hit->idx], task);
	if (sink_vm_of(&p->vms, st, ev, &vm) < 0)
		return NULL;
	if (vm == SINK_VM_OVER)
		return sink_pairs_over(p);
	if (sink_field_at(ev, st->vcpu, st->at_vcpu, &n) == 0) {
		if (n < SINK_MAP_EMPTY &&
		    sink_map_find(&p->pid_vcpu, task) != (uint32_t)n &&
		    (p->pid_vcpu.n < SINK_MAXKEYS ||
		     sink_map_find(&p->pid_vcpu, task) != SINK_MAP_EMPTY) &&
		    sink_map_add(&p->pid_vcpu, task, (uint32_t)n) < 0)
			return NULL;
	} else if (ev->has_vcpu) {
		n = ev->vcpu;
	} else if ((learnt = sink_map_find(&p->pid_vcpu, task)) !=
		   SINK_MAP_EMPTY) {
		n = learnt;
	} else {
		p->tasks = true;
		v = sink_pairs_at(p, task, true);
		if (v && !v->over)
			v->host_tid = ev->pid;
		return v;
	}
	n = (uint64_t)vm << 32 | (n & 0xffffffffu);
	v = sink_pairs_at(p, sink_thread_key(dom, SINK_VCPU, n), true);
	if (!v)
		return NULL;
	if (hit && !v->over) {
		hit->task = hkey;
		hit->vcpu = hvcpu;
		hit->idx = (uint32_t)(v - p->v);
	}
	return sink_pairs_found(p, st, ev, v, task);
}
