// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The guest function running on each vCPU, from a uftrace guest on the
 * timeline: its function entries and exits, per vCPU, make a stack of
 * addresses. An exit whose RIP no symbol table resolves is charged to the
 * function open on its vCPU at that time. Guest events name their VM with
 * the `vm` key (trace-cmd's host/guest map) or, without one, match the
 * host's vCPU by number. At most SINK_MAXKEYS vCPUs and function names.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

#define STATS_GNOVM	0xfffffu	/* a guest event without a vm key */

static uint64_t stats_gkey(uint32_t vm, uint32_t vcpu)
{
	return (uint64_t)vm << 32 | vcpu;
}

/* Keep the name of the function at addr, once. */
static int stats_gname(struct sink_stats *c, uint64_t addr,
		       const struct value *sym)
{
	void *grown;
	char *name;

	if (sink_map_find(&c->gname_map, addr) != SINK_MAP_EMPTY ||
	    c->ngnames >= SINK_MAXKEYS)
		return 0;
	grown = c->gnames;
	if (sink_reserve(&grown, &c->cap_gnames, c->ngnames,
			 sizeof(*c->gnames)) < 0)
		return -ENOMEM;
	c->gnames = grown;
	name = strndup(sym->s, sym->len);
	if (!name)
		return -ENOMEM;
	if (sink_map_add(&c->gname_map, addr, (uint32_t)c->ngnames) < 0) {
		free(name);
		return -ENOMEM;
	}
	c->gnames[c->ngnames++] = name;
	return 0;
}

int stats_guest_call(struct sink_stats *c, const struct stats_type *st,
		     const struct event *ev)
{
	int dir = sink_call_dir(&st->st, ev);
	struct stats_gcpu *g;
	uint32_t vm = STATS_GNOVM, i;
	uint64_t addr, key;
	struct value sym;
	void *grown;

	if (ev->src->domain != DOMAIN_GUEST || !ev->has_vcpu ||
	    (dir != 1 && dir != -1))
		return 0;
	if (st->st.vm != SINK_NOSLOT &&
	    (sink_vm_of(&c->x.pairs.vms, &st->st, ev, &vm) < 0))
		return -ENOMEM;
	key = stats_gkey(vm, ev->vcpu);
	i = sink_map_find(&c->gcpu_map, key);
	if (i == SINK_MAP_EMPTY) {
		if (c->ngcpus >= SINK_MAXKEYS)
			return 0;
		grown = c->gcpus;
		if (sink_reserve(&grown, &c->cap_gcpus, c->ngcpus,
				 sizeof(*c->gcpus)) < 0)
			return -ENOMEM;
		c->gcpus = grown;
		i = (uint32_t)c->ngcpus;
		if (sink_map_add(&c->gcpu_map, key, i) < 0)
			return -ENOMEM;
		c->gcpus[c->ngcpus++].top = 0;
	}
	g = &c->gcpus[i];
	if (dir < 0) {
		if (g->top)
			g->top--;
		return 0;
	}
	if (sink_field_u64(ev, st->st.addr, &addr) < 0)
		addr = 0;
	if (g->top < STATS_GSTACK)
		g->stack[g->top] = addr;
	g->top++;
	if (ev->src->ops->field(ev->src, ev, st->st.symbol, &sym) == 0 &&
	    sym.kind == VALUE_STR && sym.len)
		return stats_gname(c, addr, &sym);
	return 0;
}

static const char *stats_gfunc(const struct sink_stats *c, uint64_t key)
{
	uint32_t i = sink_map_find(&c->gcpu_map, key), n;
	const struct stats_gcpu *g;

	if (i == SINK_MAP_EMPTY)
		return NULL;
	g = &c->gcpus[i];
	if (!g->top || g->top > STATS_GSTACK)
		return NULL;
	n = sink_map_find(&c->gname_map, g->stack[g->top - 1]);
	return n == SINK_MAP_EMPTY ? NULL : c->gnames[n];
}

const char *stats_guest_func(const struct sink_stats *c,
			     const struct sink_vcpu *v)
{
	uint32_t vm = sink_key_vm(v->key), vcpu = sink_key_vcpu(v->key);
	const char *name = NULL;

	if (!c->ngcpus || sink_key_kind(v->key) != SINK_VCPU)
		return NULL;
	if (vm < c->x.pairs.vms.n && c->x.pairs.vms.named[vm])
		name = stats_gfunc(c, stats_gkey(vm, vcpu));
	return name ? name : stats_gfunc(c, stats_gkey(STATS_GNOVM, vcpu));
}

void stats_guest_fini(struct sink_stats *c)
{
	size_t i;

	for (i = 0; i < c->ngnames; i++)
		free(c->gnames[i]);
	free(c->gnames);
	free(c->gcpus);
	sink_map_fini(&c->gname_map);
	sink_map_fini(&c->gcpu_map);
}
