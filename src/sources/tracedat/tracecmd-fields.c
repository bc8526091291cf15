// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fields of trace.dat events for templates: every field of the event's
 * format, the pseudo-fields comm, id, info, common_comm, common_cpu,
 * common_name, and the host/guest keys vm, host_tid, vcpu (tracecmd-vm.c).
 *
 * Keys bind once per (event type, key) to a slot of a per-source table
 * holding the resolved tep_format_field; reading a field is a bounds check
 * and a load. The text libtraceevent prints for an event (`info`) is only
 * made when a template asks for it.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "symtab.h"
#include "tracecmd.h"
#include "tracedat-guard.h"

/*
 * The fields of the event's format shadow the pseudo-fields comm, id and
 * info, as they shadow cpu, pid and name (sched_wakeup has a comm and a
 * pid of its own, irq_handler_entry a name). common_comm, common_cpu and
 * common_name are never shadowed: the task's comm, the record's CPU, the
 * event's name (common_pid is the format's own).
 */
int tc_bind(struct source *src, const struct event_type *t,
		   const char *key)
{
	struct tc *tc = src->priv;
	struct tep_format_field *f = NULL;
	struct tep_event *ev = NULL;
	int ret;

	if (t && t != &tc->unknown && t->index < tc->ntypes)
		ev = tc->types[t->index].ev;
	/*
	 * guest_sym with --guest-syms: the exit's RIP field named from that
	 * table (symtab.h); without it, from a paired guest's kallsyms below
	 */
	if (src->guest_syms && ev && !strcmp(key, "guest_sym"))
		return tepf_bind_guest_rip(&tc->slots, ev);
	ret = tepf_bind_field(&tc->slots, ev,
			      tc->ntypes ? tc->types[0].ev : NULL, key);
	if (ret != -ENOENT)
		return ret;
	if (!strcmp(key, "comm") || !strcmp(key, "common_comm"))
		return tepf_slot(&tc->slots, TK_COMM, NULL);
	if (!strcmp(key, "common_cpu"))
		return tepf_slot(&tc->slots, TK_CPU, NULL);
	if (!strcmp(key, "common_name"))
		return tepf_slot(&tc->slots, TK_NAME, NULL);
	if (!strcmp(key, "id"))
		return tepf_slot(&tc->slots, TK_ID, NULL);
	if (!strcmp(key, "info"))
		return tepf_slot(&tc->slots, TK_INFO, NULL);
	/* host and guest (tracecmd-vm.c): none without a GUEST option */
	if (!tc->vm.name && !tc->vm.nthreads)
		return -ENOENT;
	if (!strcmp(key, "vm"))
		return tepf_slot(&tc->slots, TK_VM, NULL);
	if (!strcmp(key, "host_tid"))
		return tepf_slot(&tc->slots, TK_HOST_TID, NULL);
	if (!strcmp(key, "vcpu"))
		return tepf_slot(&tc->slots, TK_VCPU, NULL);
	if (!strcmp(key, "guest_sym")) {
		/* kvm_exit's guest_rip; kvm_entry's, kvm_emulate_insn's rip */
		if (ev)
			f = tep_find_field(ev, "guest_rip");
		if (ev && !f)
			f = tep_find_field(ev, "rip");
		return tepf_slot(&tc->slots, TK_GUEST_SYM, f);
	}
	return -ENOENT;
}

/*
 * The comm of pid through a small cache: tep_data_comm_from_pid() is a
 * binary search per call. Its strings stay put: libtraceevent keeps each
 * comm in its own allocation for the handle's life (tep_register_comm()
 * never replaces one). A pid without a comm ("<...>") is cached until a
 * comm may have been registered (tc_comm_changed(): tc_learn_one(), or
 * libtraceevent printing an event a plugin handles, as the sched_switch
 * plugin learns names as it prints, as in trace-cmd report); not at all
 * when tc->comm_gen is 0 (the live reader).
 */
const char *tc_comm_lookup(struct tc *tc, int64_t pid, size_t *len)
{
	struct tc_comm *c = &tc->comms[(uint64_t)pid % TC_COMM_CACHE];
	const char *comm;

	comm = tep_data_comm_from_pid(tc->tep, (int)pid);
	*len = strlen(comm);
	if (strcmp(comm, "<...>")) {
		c->miss = 0;
	} else if (tc->comm_gen) {
		c->miss = tc->comm_gen;
	} else {
		return comm;
	}
	c->comm = comm;
	c->len = *len;
	c->pid = pid;
	return comm;
}

bool tc_learn_pid(struct tc *tc, const struct tep_format_field *cf,
		  const struct tep_format_field *pf,
		  const struct tep_record *rec, int64_t *pid)
{
	size_t size = rec->size > 0 ? (size_t)rec->size : 0;

	if (!cf || !pf || cf->offset < 0 || cf->size <= 0 || pf->offset < 0 ||
	    (pf->size != 1 && pf->size != 2 && pf->size != 4 && pf->size != 8) ||
	    (size_t)pf->offset + (size_t)pf->size > size ||
	    (size_t)cf->offset >= size)
		return false;
	*pid = tc_sext(tc_read(tc, (const char *)rec->data + pf->offset,
			       pf->size), pf->size);
	return true;
}

void tc_learn_text(const struct tep_format_field *cf,
		   const struct tep_record *rec, char comm[TC_LEARN_TEXT])
{
	size_t size = (size_t)rec->size, n = (size_t)cf->size;

	if (n > size - (size_t)cf->offset)
		n = size - (size_t)cf->offset;
	if (n > TC_LEARN_TEXT - 1)
		n = TC_LEARN_TEXT - 1;
	memcpy(comm, (const char *)rec->data + cf->offset, n);
	comm[n] = '\0';
}

/*
 * The plugin's write_and_save_comm(): at most the field's size of text.
 * cf, pf: the comm and pid fields (tc_learn_fields()).
 */
static void tc_learn_one(struct tc *tc, const struct tep_format_field *cf,
			 const struct tep_format_field *pf,
			 struct tep_record *rec)
{
	uint64_t *known;
	char comm[TC_LEARN_TEXT];
	int64_t pid;

	if (!tc_learn_pid(tc, cf, pf, rec, &pid))
		return;
	/* a pid seen registered stays so: no lookup again */
	known = &tc->learned[(uint64_t)pid % TC_LEARNED];
	if (*known == (uint64_t)pid + 1)
		return;
	/*
	 * a saved comm stays; asking first also turns libtraceevent's list
	 * of saved comms into its sorted table, which tep_register_comm()
	 * then checks for the pid (a comm registered into the list is added
	 * beside the saved one, and a lookup may find either)
	 */
	if (tep_is_pid_registered(tc->tep, (int)pid)) {
		*known = (uint64_t)pid + 1;
		return;
	}
	tc_learn_text(cf, rec, comm);
	if (tep_register_comm(tc->tep, comm, (int)pid) == 0) {
		*known = (uint64_t)pid + 1;
		tc_comm_changed(tc);
	}
}

void tc_learn_fields(struct tc_type *t)
{
	static const char *const names[][4] = {
		[TC_LEARN_SWITCH] = { "prev_comm", "prev_pid", "next_comm",
				      "next_pid" },
		[TC_LEARN_WAKEUP] = { "comm", "pid", NULL, NULL },
	};
	int i;

	memset(t->learn_f, 0, sizeof(t->learn_f));
	if (t->learn == TC_LEARN_NONE)
		return;
	for (i = 0; i < 4 && names[t->learn][i]; i++)
		t->learn_f[i] = tep_find_any_field(t->ev, names[t->learn][i]);
}

void tc_learn_comms(struct tc *tc, const struct tc_type *t,
		    struct tep_record *rec)
{
	switch (t->learn) {
	case TC_LEARN_SWITCH:
		tc_learn_one(tc, t->learn_f[0], t->learn_f[1], rec);
		tc_learn_one(tc, t->learn_f[2], t->learn_f[3], rec);
		break;
	case TC_LEARN_WAKEUP:
		tc_learn_one(tc, t->learn_f[0], t->learn_f[1], rec);
		break;
	case TC_LEARN_NONE:
		break;
	}
}

/*
 * The libtraceevent plugins (1.7) that print without looking a function
 * up: they import none of tep_find_function*(), tep_print_func_field()
 * and tep_print_event() (`nm -D --undefined-only`). The kvm plugin names
 * guest RIPs through tep_plugin_kvm_get_func() (tracecmd-vm.c), which
 * loads the guest's kallsyms itself.
 */
static const char *const tc_plugins_nosyms[] = {
	"plugin_cfg80211.so", "plugin_futex.so", "plugin_jbd2.so",
	"plugin_kvm.so", "plugin_mac80211.so", "plugin_sched_switch.so",
	"plugin_scsi.so", "plugin_tlb.so", "plugin_xen.so",
};

/* Is fn's code in one of tc_plugins_nosyms? */
static bool tc_plugin_nosyms(const void *fn)
{
	const char *base;
	Dl_info di;
	size_t i;

	if (!dladdr(fn, &di) || !di.dli_fname)
		return false;
	base = strrchr(di.dli_fname, '/');
	base = base ? base + 1 : di.dli_fname;
	for (i = 0; i < sizeof(tc_plugins_nosyms) / sizeof(*tc_plugins_nosyms); i++)
		if (!strcmp(base, tc_plugins_nosyms[i]))
			return true;
	return false;
}

/* Does a print arg call a function (one a plugin registered), at any depth? */
static bool tc_arg_calls(const struct tep_print_arg *a, unsigned depth)
{
	for (; a; a = a->next) {
		if (depth > 64)
			return true;
		switch (a->type) {
		case TEP_PRINT_FUNC:
			return true;
		case TEP_PRINT_TYPE:
			if (tc_arg_calls(a->typecast.item, depth + 1))
				return true;
			break;
		case TEP_PRINT_FLAGS:
			if (tc_arg_calls(a->flags.field, depth + 1))
				return true;
			break;
		case TEP_PRINT_SYMBOL:
			if (tc_arg_calls(a->symbol.field, depth + 1))
				return true;
			break;
		case TEP_PRINT_HEX:
		case TEP_PRINT_HEX_STR:
			if (tc_arg_calls(a->hex.field, depth + 1) ||
			    tc_arg_calls(a->hex.size, depth + 1))
				return true;
			break;
		case TEP_PRINT_INT_ARRAY:
			if (tc_arg_calls(a->int_array.field, depth + 1) ||
			    tc_arg_calls(a->int_array.count, depth + 1) ||
			    tc_arg_calls(a->int_array.el_size, depth + 1))
				return true;
			break;
		case TEP_PRINT_OP:
			if (tc_arg_calls(a->op.left, depth + 1) ||
			    tc_arg_calls(a->op.right, depth + 1))
				return true;
			break;
		case TEP_PRINT_DYNAMIC_ARRAY:
		case TEP_PRINT_DYNAMIC_ARRAY_LEN:
			if (tc_arg_calls(a->dynarray.index, depth + 1))
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}

/*
 * May libtraceevent look a function up in kallsyms printing an event of
 * type t? It does for %pS, %ps, %pF and %pf in the print fmt
 * (print_arg_pointer() of event-parse.c), in the text of bprint and
 * print events, and wherever a plugin's handler or print function may.
 * When unsure: yes.
 */
static bool tc_needs_syms(const struct tep_event *e)
{
	const char *f;

	if (!e || !e->print_fmt.format)
		return true;
	if (e->flags & (TEP_EVENT_FL_ISFTRACE | TEP_EVENT_FL_ISPRINT |
			TEP_EVENT_FL_ISBPRINT | TEP_EVENT_FL_ISFUNCENT |
			TEP_EVENT_FL_ISFUNCRET | TEP_EVENT_FL_FAILED))
		return true;
	if (e->handler && !tc_plugin_nosyms((const void *)e->handler))
		return true;
	for (f = strchr(e->print_fmt.format, '%'); f; f = strchr(f, '%')) {
		f++;
		if (*f == '%') {
			f++;
			continue;
		}
		/* print_arg_pointer(): the letter after the 'p' */
		f += strspn(f, "-+ #0123456789.*lhzjtL");
		if (*f == 'p' && f[1] && strchr("sSfF", f[1]))
			return true;
	}
	return tc_arg_calls(e->print_fmt.args, 0);
}

/*
 * How the text of type t is made: by hand (kvm_emulate_insn), from its
 * print fmt compiled, or by tep_print_event(). A type whose comms a
 * plugin learns as it prints (sched_switch) is not compiled.
 */
static void tc_text_bind(struct tc *tc, struct tc_type *t)
{
	tc_kvmtext_bind(t);
	if (t->kt != TC_KT_NONE || t->learn != TC_LEARN_NONE)
		return;
	t->pf = tc_pfmt_create(tc, t->ev);
	if (t->pf)
		t->kt = TC_KT_PFMT;
}

/* libtraceevent's text of ev's record, without the newline some formats end in. */
const char *tc_info(struct tc *tc, const struct event *ev, size_t *len)
{
	struct tep_record *rec = (struct tep_record *)ev->rec;
	struct tc_type *t = ev->type == &tc->unknown ? NULL
						    : &tc->types[ev->type->index];
	struct tep_event *e;

	if (tc->kallsyms.fd >= 0 || tc->proc_kallsyms) {
		if (t && t->syms == TC_SYMS_UNKNOWN)
			t->syms = tc_needs_syms(t->ev) ? TC_SYMS_YES : TC_SYMS_NO;
		if (!t || t->syms == TC_SYMS_YES)
			tc_need_kallsyms(tc);
	}
	bool cur = tc_is_cur(tc, rec);

	if (t && !tc->cur_short && cur) {
		const char *text;

		if (t->kt == TC_KT_UNKNOWN)
			tc_text_bind(tc, t);
		if (t->kt == TC_KT_PFMT) {
			text = tc_pfmt_text(t->pf, rec, len);
			if (text) {
				tc->cur_info = true;
				if (*len && text[*len - 1] == '\n')
					(*len)--;
				return text;
			}
		} else if (t->kt != TC_KT_NONE) {
			text = tc_kvmtext(tc, t, rec, len);
			if (text) {
				tc->cur_info = true;
				return text;
			}
			tc->kt_plugin = true;	/* its buffer changes */
		}
	} else if (t) {
		if (t->kt == TC_KT_UNKNOWN)
			tc_text_bind(tc, t);
		if (t->kt == TC_KT_EMULATE_INSN)
			tc->kt_plugin = true;
	}
	trace_seq_reset(&tc->info);
	/*
	 * tdguard_record() found every field of a good record inside it;
	 * one shorter than its format goes through a padded copy
	 */
	e = NULL;
	if (__builtin_expect(tc->cur_short || !cur, 0) && t)
		e = t->ev;
	/* a plugin's handler may register comms (sched_switch does) */
	if (!t || t->ev->handler)
		tc_comm_changed(tc);
	/* libtracecmd's function graph plugin reads on through its iterators */
	if (__builtin_expect(tc->pages != NULL, 1) && t &&
	    t->ev == tc->pages_fgraph)
		tc_pages_stop(tc);
	if (tdguard_info(tc->guard, tc->tep, e, &tc->info, rec) < 0)
		tc->guard_hit = true;	/* tc_next() asks the guard */
	if (cur)
		tc->cur_info = true;
	/* the comm a template reads after the info: as tc_field() finds it */
	if ((!t || t->ev->handler) && tc->want_comm && rec == &tc->view.r)
		tc->view.comm = tc_comm(tc, tc->view.pid, &tc->view.comm_len);
	if (tc->info.state != TRACE_SEQ__GOOD || !tc->info.buffer) {
		*len = 0;
		return "";
	}
	*len = tc->info.len;
	if (*len && tc->info.buffer[*len - 1] == '\n')
		(*len)--;
	return tc->info.buffer;
}

int tc_field(struct source *src, const struct event *ev, int index,
		    struct value *out)
{
	struct tep_record *rec = (struct tep_record *)ev->rec;
	struct tc *tc = src->priv;
	const char *data = rec->data, *comm;
	struct tepf_slot *s;
	size_t len;
	struct value rip;

	if (symtab_is_field(index))
		return tc_field(src, ev, index & ~SYMTAB_FIELD, &rip) == 0 &&
				       rip.kind == VALUE_INT
			       ? symtab_field(src->guest_syms, rip.u, out)
			       : -ENOENT;
	if (index < 0 || (size_t)index >= tc->slots.n)
		return -ENOENT;
	s = &tc->slots.v[index];
	if (s->kind < TEPF_OWN)
		return tepf_fetch(s, data, rec->size > 0 ? (size_t)rec->size : 0,
				  tc->swap, TEPF_ARRAY_SHORT | TEPF_DYN_TO_NUL,
				  out);
	switch ((enum tc_kind)s->kind) {
	case TK_COMM:
		comm = tc_comm(tc, ev->pid, &len);
		value_set_str(out, comm, len);
		return 0;
	case TK_CPU:
		value_set_u64(out, ev->cpu);
		return 0;
	case TK_NAME:
		comm = ev->type->name ? ev->type->name : "UNKNOWN";
		value_set_str(out, comm, strlen(comm));
		return 0;
	case TK_ID:
		if (ev->type == &tc->unknown && tc->type_size &&
		    tc->type_off + tc->type_size <= rec->size)
			value_set_u64(out, tc_read(tc, data + tc->type_off,
						   tc->type_size));
		else
			value_set_u64(out, ev->type->id);
		return 0;
	case TK_INFO:
		comm = tc_info(tc, ev, &len);
		value_set_str(out, comm, len);
		return 0;
	case TK_VM:
	case TK_HOST_TID:
	case TK_VCPU:
	case TK_GUEST_SYM:
		return tc_vm_field(tc, (enum tc_kind)s->kind, s->f, ev, out);
	}
	return -ENOENT;
}

/*
 * The task's comm (TK_COMM) is read by the renderer from tc->view, which
 * tc_next() fills once it is asked for
 */
int tc_field_at(struct source *src, int index, size_t *offset,
		size_t *len_offset)
{
	struct tc *tc = src->priv;

	if (index < 0 || (size_t)index >= tc->slots.n ||
	    tc->slots.v[index].kind != TK_COMM)
		return SOURCE_AT_NONE;
	/* bound as the current event is rendered: its comm too */
	if (!tc->want_comm && tc->cur)
		tc->view.comm = tc_comm(tc, tc->view.pid, &tc->view.comm_len);
	tc->want_comm = true;
	/* ev->rec points at view.r */
	*offset = offsetof(struct tc_view, comm);
	*len_offset = offsetof(struct tc_view, comm_len);
	return SOURCE_AT_STR;
}

int tc_each_type(struct source *src,
		 int (*fn)(const struct event_type *t, void *arg),
		 void *arg)
{
	struct tc *tc = src->priv;
	uint32_t i;
	int ret;

	for (i = 0; i < tc->ntypes; i++) {
		ret = fn(&tc->types[i].t, arg);
		if (ret < 0)
			return ret;
	}
	return 0;
}

size_t tc_fields(struct source *src, const struct event_type *t,
		 const char **names, size_t max)
{
	static const char *const pseudo[] = {
		"comm", "id", "info", "common_comm", "common_cpu", "common_name",
		"vm", "host_tid", "vcpu", "guest_sym",
	};
	struct tc *tc = src->priv;
	const struct tep_format_field *f;
	struct tep_event *ev = NULL;
	size_t n = 0, i, npseudo;

	if (t && t != &tc->unknown && t->index < tc->ntypes)
		ev = tc->types[t->index].ev;
	if (ev)
		for (f = ev->format.fields; f && n < max; f = f->next)
			names[n++] = f->name;
	/* vm, host_tid, vcpu, guest_sym last: only a host or guest has them */
	npseudo = sizeof(pseudo) / sizeof(pseudo[0]);
	if (!tc->vm.name && !tc->vm.nthreads)
		npseudo -= 4;
	for (i = 0; i < npseudo && n < max; i++)
		if (!ev || !tep_find_field(ev, pseudo[i]))	/* shadowed */
			names[n++] = pseudo[i];
	for (f = ev ? ev->format.common_fields : tc->any; f && n < max;
	     f = f->next)
		names[n++] = f->name;
	return n;
}

