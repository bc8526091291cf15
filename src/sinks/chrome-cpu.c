// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Chrome JSON: the CPU tracks, as Perfetto's own ftrace view draws them.
 * On each CPU (a guest's CPU is its vCPU, on the vCPU's track of the VM):
 *
 *  - the task that runs from one sched:sched_switch to the next, a slice
 *    named "comm:tid" (idle, tid 0, is not drawn);
 *  - irq:irq_handler_entry to irq_handler_exit, a slice "irq N NAME";
 *  - irq:softirq_entry to softirq_exit, a slice "softirq NAME".
 *
 * A slice opens (TL_OPEN) when it starts and is written when it ends (its
 * "X" carries its duration); what runs or is open at the end ends at the
 * last time stamp. Handlers still open when the CPU switches tasks lost
 * their exit (a task does not switch inside a handler): they end there,
 * so that a CPU's slices always nest. An exit whose entry came before
 * the trace, or that does not match the handler open, stays an instant.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chrome.h"
#include "diag.h"
#include "outbuf.h"
#include "render.h"

static bool chrome_is(const struct event_type *t, const char *sys,
		      const char *name)
{
	return t->system && t->name && !strcmp(t->system, sys) &&
	       !strcmp(t->name, name);
}

static int32_t chrome_slot(struct source *src, const struct event_type *t,
			   const char *key)
{
	int idx = src->ops->bind(src, t, key);

	return idx < 0 ? SINK_NOSLOT : idx;
}

void chrome_cpu_type(struct chrome_type *ct, struct source *src,
		     const struct event_type *t)
{
	ct->cpu_role = CHROME_CPU_NONE;
	ct->slot_a = ct->slot_b = ct->slot_c = SINK_NOSLOT;
	if (t->has_id || !t->system)
		return;
	if (chrome_is(t, "sched", "sched_switch")) {
		ct->slot_a = chrome_slot(src, t, "next_comm");
		ct->slot_b = chrome_slot(src, t, "next_pid");
		ct->slot_c = chrome_slot(src, t, "prev_state");
		if (ct->slot_b != SINK_NOSLOT)
			ct->cpu_role = CHROME_CPU_SWITCH;
	} else if (chrome_is(t, "irq", "irq_handler_entry") ||
		   chrome_is(t, "irq", "irq_handler_exit")) {
		bool entry = !strcmp(t->name, "irq_handler_entry");

		ct->slot_a = chrome_slot(src, t, "irq");
		if (entry)
			ct->slot_b = chrome_slot(src, t, "name");
		if (ct->slot_a != SINK_NOSLOT)
			ct->cpu_role = entry ? CHROME_CPU_IRQ_ENTRY
					     : CHROME_CPU_IRQ_EXIT;
	} else if (chrome_is(t, "irq", "softirq_entry") ||
		   chrome_is(t, "irq", "softirq_exit")) {
		ct->slot_a = chrome_slot(src, t, "vec");
		if (ct->slot_a != SINK_NOSLOT)
			ct->cpu_role = !strcmp(t->name, "softirq_entry")
					       ? CHROME_CPU_SOFTIRQ_ENTRY
					       : CHROME_CPU_SOFTIRQ_EXIT;
	}
}

/* The track of ev's CPU: the host's CPU, or the guest's vCPU. */
static int chrome_cpu_key(struct sink_chrome *c, const struct chrome_type *ct,
			  const struct event *ev, uint64_t *key)
{
	enum domain dom = ev->src->domain;
	uint32_t vm;

	if (dom == DOMAIN_GUEST && ct->st.vm != SINK_NOSLOT) {
		if (sink_vm_of(&c->pairs.vms, &ct->st, ev, &vm) < 0)
			return -ENOMEM;
		if (vm != SINK_VM_OVER) {
			*key = sink_thread_key(dom, SINK_VCPU,
					       (uint64_t)vm << 32 | ev->cpu);
			return 0;
		}
	}
	*key = sink_thread_key(dom, SINK_CPU, ev->cpu);
	return 0;
}

/* The state of the CPU track key; NULL: no memory. */
static struct chrome_cpu *chrome_cpu_of(struct sink_chrome *c, uint64_t key)
{
	uint32_t i = sink_map_find(&c->cpu_map, key);
	struct chrome_cpu *cpu;
	void *grown;

	if (i != SINK_MAP_EMPTY)
		return &c->cpus[i];
	grown = c->cpus;
	if (sink_reserve(&grown, &c->cap_cpus, c->ncpus, sizeof(*c->cpus)) < 0)
		return NULL;
	c->cpus = grown;
	if (sink_map_add(&c->cpu_map, key, (uint32_t)c->ncpus) < 0)
		return NULL;
	cpu = &c->cpus[c->ncpus++];
	memset(cpu, 0, sizeof(*cpu));
	cpu->key = key;
	return cpu;
}

/* The slice s opens on thread tid. */
static int chrome_cpu_open(struct sink_chrome *c, uint32_t tid,
			   const struct chrome_cpu_slice *s, const char *cat)
{
	struct tl_event te;

	tl_event_init(&te, TL_OPEN);
	te.pid = chrome_tid_pid(c, tid);
	te.tid = tid;
	te.ts = s->since;
	te.name = s->name;
	te.namelen = s->len;
	te.cat = cat;
	te.catlen = strlen(cat);
	return chrome_emit(c, &te);
}

static const char *chrome_cpu_cat(const struct chrome_cpu_slice *s)
{
	return s->kind == CHROME_CPU_IRQ_ENTRY ? "irq" : "softirq";
}

/* The slice s on thread tid, ending at end, with n args. */
static int chrome_cpu_slice(struct sink_chrome *c, uint32_t tid,
			    const struct chrome_cpu_slice *s, uint64_t end,
			    const char *cat, const struct tl_arg *args,
			    size_t n)
{
	struct tl_event te;

	tl_event_init(&te, TL_SLICE);
	te.opened = true;
	te.pid = chrome_tid_pid(c, tid);
	te.tid = tid;
	te.ts = s->since;
	te.end = end;
	te.name = s->name;
	te.namelen = s->len;
	te.cat = cat;
	te.catlen = strlen(cat);
	te.args = args;
	te.nargs = n;
	return chrome_emit(c, &te);
}

static const char *const chrome_softirqs[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
	"SCHED", "HRTIMER", "RCU",
};

/* snprintf's count as a slice name's length, cut to fit. */
static uint8_t chrome_cpu_len(int n)
{
	if (n < 0)
		return 0;
	return (uint8_t)((size_t)n < CHROME_CPUNAME ? (size_t)n
						     : CHROME_CPUNAME - 1);
}

/* sched_switch: the slice of the task that ran ends; next_pid's begins. */
static int chrome_cpu_switch(struct sink_chrome *c,
			     const struct chrome_type *ct,
			     const struct event *ev, struct chrome_cpu *cpu,
			     uint32_t tid)
{
	struct value comm = { .kind = VALUE_NONE };
	uint64_t pid = 0, state = 0;
	struct tl_arg args[2];

	if (sink_field_u64(ev, ct->slot_b, &pid) < 0)
		return 1;
	/* handlers open lost their exits: they end here */
	tl_arg_str(&args[0], TL_K("repaired"),
		   TL_KEY("no exit before the next task switch"));
	while (cpu->depth) {
		if (cpu->depth-- > CHROME_IRQDEPTH)
			continue;
		if (chrome_cpu_slice(c, tid, &cpu->irq[cpu->depth], ev->ts,
				     chrome_cpu_cat(&cpu->irq[cpu->depth]),
				     args, 1) < 0)
			return -ENOMEM;
	}
	if (cpu->running) {
		tl_arg_u64(&args[0], TL_K("tid"), cpu->task.num);
		tl_arg_u64(&args[1], TL_K("end_state"),
			   sink_field_u64(ev, ct->slot_c, &state) == 0 ? state
								       : 0);
		if (chrome_cpu_slice(c, tid, &cpu->task, ev->ts, "sched", args,
				     2) < 0)
			return -ENOMEM;
	}
	cpu->running = pid != 0;	/* idle is not drawn */
	if (!cpu->running)
		return 0;
	if (ct->slot_a == SINK_NOSLOT ||
	    ev->src->ops->field(ev->src, ev, ct->slot_a, &comm) < 0)
		comm.kind = VALUE_NONE;
	cpu->task.since = ev->ts;
	cpu->task.num = pid;
	/* "comm:tid", as Perfetto names a thread slice */
	if (comm.kind == VALUE_STR)
		cpu->task.len = chrome_cpu_len(snprintf(cpu->task.name,
						  sizeof(cpu->task.name),
						  "%.*s:%" PRIu64,
						  (int)(comm.len < 32 ? comm.len : 32),
						  comm.s, pid));
	else
		cpu->task.len = chrome_cpu_len(snprintf(cpu->task.name,
						  sizeof(cpu->task.name),
						  "tid %" PRIu64, pid));
	return chrome_cpu_open(c, tid, &cpu->task, "sched");
}

/* An irq or softirq entry: a handler opens. */
static int chrome_cpu_enter(struct sink_chrome *c,
			    const struct chrome_type *ct,
			    const struct event *ev, struct chrome_cpu *cpu,
			    uint32_t tid)
{
	struct value name = { .kind = VALUE_NONE };
	struct chrome_cpu_slice *s;
	uint64_t num = 0;

	if (sink_field_u64(ev, ct->slot_a, &num) < 0)
		return 1;
	if (cpu->depth++ >= CHROME_IRQDEPTH)
		return 0;	/* deeper than kept: counted, not drawn */
	s = &cpu->irq[cpu->depth - 1];
	s->since = ev->ts;
	s->num = num;
	s->kind = ct->cpu_role;
	if (ct->cpu_role == CHROME_CPU_IRQ_ENTRY) {
		if (ct->slot_b == SINK_NOSLOT ||
		    ev->src->ops->field(ev->src, ev, ct->slot_b, &name) < 0 ||
		    name.kind != VALUE_STR || !name.len)
			s->len = chrome_cpu_len(snprintf(s->name, sizeof(s->name),
							 "irq %" PRIu64, num));
		else
			s->len = chrome_cpu_len(snprintf(s->name, sizeof(s->name),
							 "irq %" PRIu64 " %.*s", num,
							 (int)(name.len < 32 ? name.len : 32),
							 name.s));
	} else if (num < sizeof(chrome_softirqs) / sizeof(*chrome_softirqs)) {
		s->len = chrome_cpu_len(snprintf(s->name, sizeof(s->name),
						 "softirq %s", chrome_softirqs[num]));
	} else {
		s->len = chrome_cpu_len(snprintf(s->name, sizeof(s->name),
						 "softirq %" PRIu64, num));
	}
	return chrome_cpu_open(c, tid, s, chrome_cpu_cat(s));
}

/* An irq or softirq exit: the handler open on top ends. 1: none was. */
static int chrome_cpu_leave(struct sink_chrome *c,
			    const struct chrome_type *ct,
			    const struct event *ev, struct chrome_cpu *cpu,
			    uint32_t tid)
{
	uint8_t entry = ct->cpu_role == CHROME_CPU_IRQ_EXIT
				? CHROME_CPU_IRQ_ENTRY
				: CHROME_CPU_SOFTIRQ_ENTRY;
	const struct chrome_cpu_slice *s;
	uint64_t num = 0;

	if (!cpu->depth || sink_field_u64(ev, ct->slot_a, &num) < 0)
		return 1;
	if (cpu->depth > CHROME_IRQDEPTH) {
		cpu->depth--;
		return 0;
	}
	s = &cpu->irq[cpu->depth - 1];
	if (s->kind != entry || s->num != num)
		return 1;
	cpu->depth--;
	return chrome_cpu_slice(c, tid, s, ev->ts,
				entry == CHROME_CPU_IRQ_ENTRY ? "irq" : "softirq",
				NULL, 0) < 0 ? -ENOMEM : 0;
}

int chrome_cpu_event(struct sink_chrome *c, const struct chrome_type *ct,
		     const struct event *ev, struct diag *d)
{
	struct chrome_cpu *cpu;
	uint64_t key;
	uint32_t tid;
	int ret;

	if (chrome_cpu_key(c, ct, ev, &key) < 0 ||
	    chrome_thread(c, key, ev, &ct->st, &tid) < 0)
		return chrome_nomem(d);
	key = c->threads[tid - 1].key;	/* beyond the cap: the shared one */
	cpu = chrome_cpu_of(c, key);
	if (!cpu)
		return chrome_nomem(d);
	switch (ct->cpu_role) {
	case CHROME_CPU_SWITCH:
		ret = chrome_cpu_switch(c, ct, ev, cpu, tid);
		break;
	case CHROME_CPU_IRQ_ENTRY:
	case CHROME_CPU_SOFTIRQ_ENTRY:
		ret = chrome_cpu_enter(c, ct, ev, cpu, tid);
		break;
	default:
		ret = chrome_cpu_leave(c, ct, ev, cpu, tid);
		break;
	}
	if (ret < 0)
		return chrome_nomem(d);
	/* not drawn as a slice (a value missing, no entry open): an instant */
	return ret ? chrome_instant(c, ct, ev, key, NULL, d) : 0;
}

int chrome_cpu_close(struct sink_chrome *c)
{
	size_t i;

	for (i = 0; i < c->ncpus; i++) {
		struct chrome_cpu *cpu = &c->cpus[i];
		uint32_t t = sink_map_find(&c->thread_map, cpu->key);
		struct tl_arg arg;

		if (t == SINK_MAP_EMPTY)
			continue;
		tl_arg_str(&arg, TL_K("repaired"),
			   TL_KEY("exit after the trace end"));
		while (cpu->depth) {
			if (cpu->depth-- > CHROME_IRQDEPTH)
				continue;
			if (chrome_cpu_slice(c, t + 1, &cpu->irq[cpu->depth],
					     c->last_ts,
					     cpu->irq[cpu->depth].kind ==
							     CHROME_CPU_IRQ_ENTRY
						     ? "irq" : "softirq",
					     &arg, 1) < 0)
				return -ENOMEM;
		}
		if (!cpu->running)
			continue;
		cpu->running = false;
		tl_arg_u64(&arg, TL_K("tid"), cpu->task.num);
		if (chrome_cpu_slice(c, t + 1, &cpu->task, c->last_ts, "sched",
				     &arg, 1) < 0)
			return -ENOMEM;
	}
	return 0;
}

void chrome_cpu_fini(struct sink_chrome *c)
{
	sink_map_fini(&c->cpu_map);
	free(c->cpus);
}
