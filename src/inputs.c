// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Opening every input before the run, and the pass over them that
 * --tsc-offset auto needs (inputs.h).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inputs.h"

/* --clock declarations. */
static void inputs_declare_clock(const struct options *o, struct source *src,
				 const char *path)
{
	size_t i;

	for (i = 0; i < o->nclocks; i++) {
		const struct options_clock *c = &o->clocks[i];

		if (strlen(path) == c->len && !strncmp(path, c->path, c->len)) {
			src->clock = c->clock;
			src->clock_base = c->base;
			src->clock_user_set = true;
		}
	}
}

/* What a library wrote while opening src, each line with its name. */
static void inputs_note(const struct source *src,
			void (*say)(void *arg, const char *msg), void *arg)
{
	const char *p = src->note, *nl;
	struct diag d;

	while (p && *p) {
		nl = strchr(p, '\n');
		diag_set(&d, "%s: %.*s", src->name,
			 (int)(nl ? nl - p : (ptrdiff_t)strlen(p)), p);
		say(arg, d.msg);
		p = nl ? nl + 1 : NULL;
	}
}

int inputs_open(const struct options *o, struct symtab *syms,
		struct source **srcs, size_t *nsrcs,
		void (*say)(void *arg, const char *msg), void *arg,
		struct diag *d)
{
	static const struct options_input stdin_input = { .path = "-" };
	const struct options_input *in = o->ninputs ? o->inputs : &stdin_input;
	size_t n = inputs_count(o), i;
	int ret;

	for (i = 0; i < n; i++) {
		struct source *src = source_create(in[i].qemu_log ?
							   &source_qemu_log_ops : NULL,
						   in[i].path, (unsigned)i);

		if (!src)
			return -ENOMEM;
		srcs[(*nsrcs)++] = src;
		src->domain = in[i].domain;
		src->demangle = o->demangle;
		src->say = say;
		src->say_arg = arg;
		src->qemu_events = o->qemu_events;
		/* a terminal: say why nothing happens */
		if (!strcmp(in[i].path, "-") && isatty(STDIN_FILENO))
			say(arg, "reading a kvmtrace stream from standard input, which is a terminal: end it with Ctrl-D, or give a trace (kvmtrace_format --help)");
		/* the exits of host inputs name guest functions */
		if (in[i].domain == DOMAIN_HOST)
			src->guest_syms = syms;
		ret = in[i].qemu_log ? 0 : source_probe(src, d);
		if (ret == -ENOMEM)
			return ret;
		if (ret < 0)
			return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		ret = source_open(srcs[i], d);
		if (ret == -ENOMEM)
			return ret;
		/* a reader's -EMEDIUMTYPE: nothing in it this tool can use */
		if (ret == -EMEDIUMTYPE)
			return -EINVAL;
		if (ret < 0)
			return -EIO;
		inputs_declare_clock(o, srcs[i], in[i].path);
		inputs_note(srcs[i], say, arg);
		/* said: a reader may note more while it reads */
		free(srcs[i]->note);
		srcs[i]->note = NULL;
	}
	return 0;
}

void inputs_notes_end(struct source **srcs, size_t n,
		      void (*say)(void *arg, const char *msg), void *arg)
{
	size_t i;

	for (i = 0; i < n; i++) {
		inputs_note(srcs[i], say, arg);
		free(srcs[i]->note);
		srcs[i]->note = NULL;
	}
}

/*
 * The guest TSC offsets of --tsc-offset auto: every kvm_write_tsc_offset
 * in the host inputs, read in a pass of their own before the merge.
 */
int inputs_collect_offsets(struct source **srcs, size_t nsrcs,
			   struct render *render, struct clock *clock,
			   struct diag *d)
{
	size_t i, found = 0;
	int ret = 0;

	for (i = 0; i < nsrcs; i++) {
		const struct event_type *last = NULL;
		int32_t s_off = 0, s_vcpu = 0;
		bool have_vcpu = false;
		struct source *src;
		struct event ev;

		if (srcs[i]->domain != DOMAIN_HOST ||
		    !srcs[i]->ops->each_type)
			continue;
		src = source_reopen(srcs[i]);
		if (!src)
			return -ENOMEM;
		ret = source_open(src, d);
		while (ret >= 0 && (ret = src->ops->next(src, &ev, d)) > 0) {
			struct value off, vcpu;

			if (!ev.type->name ||
			    strcmp(ev.type->name, "kvm_write_tsc_offset"))
				continue;
			if (ev.type != last) {
				last = ev.type;
				if (render_field_slot(src, ev.type, "next_tsc_offset",
						      &s_off) < 0)
					continue;
				have_vcpu = render_field_slot(src, ev.type, "vcpu_id",
							      &s_vcpu) == 0;
			}
			if (render_value(render, NULL, &ev, s_off, &off) < 0 ||
			    off.kind != VALUE_INT)
				continue;
			if (have_vcpu && (render_value(render, NULL, &ev, s_vcpu,
						       &vcpu) < 0 ||
					  vcpu.kind != VALUE_INT))
				have_vcpu = false;
			/* next_tsc_offset is a u64 holding a signed offset */
			ret = clock_add_offset(clock, ev.ts,
					       (int64_t)(off.neg ? -off.u : off.u),
					       have_vcpu ? (uint32_t)vcpu.u : 0,
					       !have_vcpu);
			if (ret < 0)
				break;
			found++;
			ret = 1;
		}
		source_destroy(src);
		if (ret < 0)
			return ret;
	}
	if (!found) {
		diag_set(d, "--tsc-offset auto: no kvm:kvm_write_tsc_offset events in the host trace.dat inputs");
		for (i = 0; i < nsrcs; i++)
			if (srcs[i]->domain == DOMAIN_HOST)
				diag_add(d, " %s", srcs[i]->name);
		diag_add(d, "; record them (events/kvm/kvm_write_tsc_offset) or give --tsc-offset=N");
		return -ENOENT;
	}
	clock_finish(clock);
	return 0;
}
