// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host and guest as trace-cmd records them (trace-cmd record -A on the
 * host, trace-cmd agent in the guest):
 *
 *  - every file has TRACEID (id 11, tracecmd_get_traceid());
 *  - the guest's TIME_SHIFT (id 12) names the host's trace id and the
 *    samples libtracecmd maps the guest's time stamps with when it opens
 *    the file: its records come out on the host's clock already. The
 *    guest's own time stamp (`guest_ts`) is read again from the record's
 *    page (tracecmd-rawts.c), or found back by inverting that mapping
 *    (tracedat-shift.c) where the page is not at hand;
 *  - the host's GUEST (id 13) names each guest, its trace id and the host
 *    thread of each vCPU: guest events get `vm`, `host_tid` and `vcpu`
 *    (their CPU), host events of a vCPU thread `vm` and `vcpu`, and
 *    `guest_sym`, their guest RIP (guest_rip, rip) named from the guest's
 *    kallsyms when that guest is an input.
 *
 * `trace-cmd report -i HOST -i GUEST` also names guest RIPs of the host's
 * kvm events with the guest's kallsyms: the kvm plugin of libtraceevent
 * calls tep_plugin_kvm_get_func() (a weak symbol it defines; the program
 * exports ours) for the host pid of the event. trace-cmd maps the vCPU
 * threads the first input's GUEST options name for the other inputs; so
 * do we (source_pair()).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "tracecmd.h"

/* A vCPU thread of the first input, and the guest whose symbols it uses. */
struct tc_kvm_entry {
	int32_t pid;
	struct tc *guest;	/* borrowed */
	struct tc *host;	/* borrowed */
};

/*
 * The kvm plugin calls tep_plugin_kvm_get_func() with the event and the
 * record only, so the map it needs lives at file scope: the one mutable
 * file-scope state of the program besides a signal handler's, because
 * libtraceevent hands its plugins no user data. Filled by source_pair(),
 * emptied by tc_vm_close() of any input it refers to.
 */
static struct {
	struct tc_kvm_entry *v;	/* owned, sorted by pid */
	size_t n;
} tc_kvm_map;

static int tc_kvm_cmp(const void *a, const void *b)
{
	const struct tc_kvm_entry *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* Called by libtraceevent's kvm plugin (plugin_kvm.c: add_rip_function()). */
const char *tep_plugin_kvm_get_func(struct tep_event *event,
				    struct tep_record *record,
				    unsigned long long *val);
const char *tep_plugin_kvm_get_func(struct tep_event *event,
				    struct tep_record *record,
				    unsigned long long *val)
{
	struct tc_kvm_entry key = { 0 }, *e;
	struct tep_handle *tep;
	const char *func;

	if (!tc_kvm_map.n)
		return NULL;
	key.pid = tep_data_pid(event->tep, record);
	e = bsearch(&key, tc_kvm_map.v, tc_kvm_map.n, sizeof(key), tc_kvm_cmp);
	if (!e)
		return NULL;
	tep = e->guest->tep;
	tc_need_kallsyms(e->guest);
	func = tep_find_function(tep, *val);
	if (func)
		*val = tep_find_function_address(tep, *val);
	return func;
}

bool tc_vm_names_rips(void)
{
	return tc_kvm_map.n != 0;
}

void tc_vm_close(struct tc *tc)
{
	size_t i;

	for (i = 0; i < tc_kvm_map.n; i++)
		if (tc_kvm_map.v[i].guest == tc || tc_kvm_map.v[i].host == tc)
			break;
	if (i < tc_kvm_map.n) {
		free(tc_kvm_map.v);
		tc_kvm_map.v = NULL;
		tc_kvm_map.n = 0;
	}
	free(tc->vm.threads);
	tc->vm.threads = NULL;
	tc->vm.nthreads = 0;
	free(tc->vm.sym);
	tc->vm.sym = NULL;
	tc_raw_destroy(tc->raw);
	tc->raw = NULL;
}

static int tc_thread_cmp(const void *a, const void *b)
{
	const struct tc_thread *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* The vCPU threads of a host, from its GUEST options; the last one wins. */
static int tc_vm_threads(struct tc *tc)
{
	const struct tracedat_file *f = &tc->file;
	size_t i, n = 0, k, j;
	uint32_t v;

	for (i = 0; i < f->nguests; i++)
		n += f->guests[i].nvcpus;
	if (!n)
		return 0;
	tc->vm.threads = calloc(n, sizeof(*tc->vm.threads));
	if (!tc->vm.threads)
		return -ENOMEM;
	/* later options first, so that the stable pass below keeps them */
	for (i = f->nguests; i-- > 0;)
		for (v = 0; v < f->guests[i].nvcpus; v++)
			tc->vm.threads[tc->vm.nthreads++] = (struct tc_thread){
				.pid = f->guests[i].pids[v], .vcpu = v,
				.vm = f->guests[i].name,
				.traceid = f->guests[i].traceid,
			};
	/* sort by pid; of equal pids keep the first (the latest option) */
	for (i = 1; i < n; i++) {
		struct tc_thread t = tc->vm.threads[i];

		for (j = i; j > 0 && tc_thread_cmp(&tc->vm.threads[j - 1], &t) > 0; j--)
			tc->vm.threads[j] = tc->vm.threads[j - 1];
		tc->vm.threads[j] = t;
	}
	for (i = k = 0; i < n; i++)
		if (!k || tc->vm.threads[k - 1].pid != tc->vm.threads[i].pid)
			tc->vm.threads[k++] = tc->vm.threads[i];
	tc->vm.nthreads = k;
	return 0;
}

static const struct tc_thread *tc_vm_thread(const struct tc *tc, int64_t pid)
{
	struct tc_thread key = { .pid = (int32_t)pid };

	if (!tc->vm.nthreads || pid != (int64_t)key.pid)
		return NULL;
	return bsearch(&key, tc->vm.threads, tc->vm.nthreads, sizeof(key),
		       tc_thread_cmp);
}

/* What host's GUEST options say of the guest with trace id id. */
static const struct tracedat_guest *tc_vm_guest(const struct tc *host,
						uint64_t id)
{
	size_t i;

	/* libtracecmd keeps the last option of a trace id */
	for (i = host->file.nguests; i-- > 0;)
		if (host->file.guests[i].traceid == id)
			return &host->file.guests[i];
	return NULL;
}

void tc_vm_event(struct tc *tc, struct event *ev)
{
	const struct tc_thread *t;
	uint64_t raw;

	/*
	 * read again from the page (the counter as recorded, TSC2NSEC or
	 * not), else found back through the mapping (not through TSC2NSEC's
	 * ns: then the host's ns)
	 */
	if (tc->vm.invert && tc->file.shift) {
		if (tc_raw_ts(tc, ev->rec, &raw) == 0)
			ev->raw_ts = raw;
		else if (!tc->file.tsc2nsec)
			ev->raw_ts = tracedat_shift_invert(tc->file.shift,
							   ev->cpu, ev->ts);
	}
	if (tc->vm.name) {
		ev->has_vcpu = true;
		ev->vcpu = ev->cpu;
	} else if ((t = tc_vm_thread(tc, ev->pid))) {
		ev->has_vcpu = true;
		ev->vcpu = t->vcpu;
	}
}

/* A host event's guest RIP as the kvm plugin names it: func or func+0xN. */
static int tc_vm_sym(struct tc *tc, const struct tc_thread *t,
		     const struct tep_format_field *f, const struct event *ev,
		     struct value *out)
{
	const struct tep_record *rec = ev->rec;
	unsigned long long rip, start;
	const char *func;
	int n;

	if (!t->guest || !f || f->size != 8 ||
	    (size_t)f->offset + 8 > (size_t)(rec->size > 0 ? rec->size : 0))
		return -ENOENT;
	rip = tc_read(tc, (const char *)rec->data + f->offset, 8);
	tc_need_kallsyms(t->guest);
	func = tep_find_function(t->guest->tep, rip);
	if (!func)
		return -ENOENT;
	start = tep_find_function_address(t->guest->tep, rip);
	for (;;) {
		n = rip != start ? snprintf(tc->vm.sym, tc->vm.symcap, "%s+0x%llx",
					    func, rip - start)
				 : snprintf(tc->vm.sym, tc->vm.symcap, "%s", func);
		if (n >= 0 && (size_t)n < tc->vm.symcap)
			break;
		if (n < 0)
			return -ENOENT;
		free(tc->vm.sym);
		tc->vm.symcap = (size_t)n + 32;
		tc->vm.sym = malloc(tc->vm.symcap);
		if (!tc->vm.sym) {
			tc->vm.symcap = 0;
			return -ENOENT;
		}
	}
	value_set_str(out, tc->vm.sym, (size_t)n);
	return 0;
}

int tc_vm_field(struct tc *tc, enum tc_kind kind,
		const struct tep_format_field *f, const struct event *ev,
		struct value *out)
{
	const struct tc_thread *t = NULL;

	if (!tc->vm.name || kind == TK_GUEST_SYM) {
		t = tc_vm_thread(tc, ev->pid);
		if (!t)
			return -ENOENT;
	}
	switch (kind) {
	case TK_VM:
		if (t)
			value_set_str(out, t->vm, strlen(t->vm));
		else
			value_set_str(out, tc->vm.name, strlen(tc->vm.name));
		return 0;
	case TK_HOST_TID:
		if (t || ev->cpu >= tc->vm.nvcpus)
			return -ENOENT;
		value_set_s64(out, tc->vm.pids[ev->cpu]);
		return 0;
	case TK_VCPU:
		/* a guest event's vCPU is its CPU */
		value_set_u64(out, t ? t->vcpu : ev->cpu);
		return 0;
	case TK_GUEST_SYM:
		return tc_vm_sym(tc, t, f, ev, out);
	default:
		return -ENOENT;
	}
}

/*
 * The largest difference of the CPUs' host times for one guest time, over
 * the times of every sample.
 */
static int64_t tc_vm_spread(const struct tracedat_shift *s, uint32_t *ncpus)
{
	uint64_t spread = 0, t, h, hmin, hmax;
	uint32_t c, d, j;

	*ncpus = 0;
	for (c = 0; c < s->ncpus; c++)
		*ncpus += s->n[c] > 0;
	for (c = 0; c < s->ncpus; c++)
		for (j = 0; j < s->n[c]; j++) {
			t = s->s[c][j].time;
			hmin = UINT64_MAX;
			hmax = 0;
			for (d = 0; d < s->ncpus; d++) {
				if (!s->n[d])
					continue;
				h = tracedat_shift_apply(s, d, t);
				hmin = h < hmin ? h : hmin;
				hmax = h > hmax ? h : hmax;
			}
			if (hmax - hmin > spread)
				spread = hmax - hmin;
		}
	return (int64_t)spread;
}

static const char *tc_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

int source_pair(struct source **srcs, size_t n, struct diag *note)
{
	struct source *first = NULL;
	size_t i, j, k, ndat = 0;
	int width = 0, iwidth = 0, ret;
	bool tagged = false;

	for (i = 0; i < n; i++) {
		struct tc *tc = srcs[i]->priv;

		if (srcs[i]->ops != &source_tracecmd_ops || !tc)
			continue;
		if (!first)
			first = srcs[i];
		ndat++;
		j = strlen(tc_basename(srcs[i]->path));
		if ((int)j > width)
			width = (int)j;
		/* instance buffers: their names count too (trace-cmd
		 * report's max_file_size; a single input's own does not) */
		for (k = 1; k < (size_t)tc->nbufs; k++) {
			tagged = true;
			j = strlen(tc->bufs[k].name);
			if ((int)j > iwidth)
				iwidth = (int)j;
		}
	}
	if (ndat < 2 || iwidth > width)
		width = iwidth;
	/*
	 * every input: its name in front of its lines, or its buffer's; a
	 * host: its threads
	 */
	for (i = 0; i < n; i++) {
		struct tc *tc = srcs[i]->priv;

		if (srcs[i]->ops != &source_tracecmd_ops || !tc)
			continue;
		if (ndat > 1)
			tc->vm.prefix = tc_basename(srcs[i]->path);
		if (ndat > 1 || tagged) {
			tc->vm.width = width;
			tc->vm.tagged = true;
		}
		ret = tc_vm_threads(tc);
		if (ret < 0)
			return ret;
	}
	/* a guest: libtracecmd shifted it onto its host's clock */
	for (i = 0; i < n; i++) {
		struct tc *tc = srcs[i]->priv, *host = NULL;
		const struct tracedat_guest *g;
		struct source *src = srcs[i];

		if (src->ops != &source_tracecmd_ops || !tc)
			continue;
		if (!tc->file.shift)
			continue;
		src->domain = DOMAIN_GUEST;
		src->align.self_shifted = true;
		src->align.host_traceid = tc->file.shift->peer;
		src->align.spread = tc_vm_spread(tc->file.shift,
						 &src->align.ncpus);
		if (tc->file.tsc2nsec)	/* in ns, as its time stamps */
			src->align.spread = (int64_t)(((unsigned __int128)
				src->align.spread * tc->file.tsc2nsec_mult) >>
				tc->file.tsc2nsec_shift);
		tc->vm.invert = true;
		for (j = 0; j < n; j++)
			if (j != i && srcs[j]->ops == &source_tracecmd_ops &&
			    srcs[j]->priv &&
			    tracecmd_get_traceid(((struct tc *)srcs[j]->priv)->handle) ==
				    tc->file.shift->peer)
				break;
		if (j == n) {
			diag_add(note, "%s%s: its TIME_SHIFT names host trace id 0x%016" PRIx64 ", which no input has; its time stamps are on that host's clock, as libtracecmd shifts them",
				 note->len ? "\n" : "", src->name,
				 tc->file.shift->peer);
			continue;
		}
		src->align.host = srcs[j];
		host = srcs[j]->priv;
		/* on the host's clock, in ns when TSC2NSEC converted it */
		if (tc->file.tsc2nsec)
			src->clock = CLOCK_NS;
		else if (host->file.tsc2nsec)
			src->clock = CLOCK_TSC;
		else
			src->clock = srcs[j]->clock;
		for (k = 0; k < host->vm.nthreads; k++)
			if (host->vm.threads[k].traceid ==
			    tracecmd_get_traceid(tc->handle))
				host->vm.threads[k].guest = tc;
		g = tc_vm_guest(host, tracecmd_get_traceid(tc->handle));
		if (g) {
			tc->vm.name = g->name;
			tc->vm.pids = g->pids;
			tc->vm.nvcpus = g->nvcpus;
			src->align.vm = g->name;
		}
	}
	/* the kvm plugin's vCPU map: the first input is the host */
	if (ndat < 2)
		return 0;
	for (i = 0; i < n; i++) {
		struct tc *hc = first->priv, *gc = srcs[i]->priv;
		const struct tracedat_guest *g;
		struct tc_kvm_entry *e;
		uint32_t v;

		if (srcs[i] == first || srcs[i]->ops != &source_tracecmd_ops ||
		    !gc)
			continue;
		g = tc_vm_guest(hc, tracecmd_get_traceid(gc->handle));
		if (!g || !g->nvcpus)
			continue;
		e = realloc(tc_kvm_map.v, (tc_kvm_map.n + g->nvcpus) * sizeof(*e));
		if (!e)
			return -ENOMEM;
		tc_kvm_map.v = e;
		for (v = 0; v < g->nvcpus; v++)
			tc_kvm_map.v[tc_kvm_map.n++] = (struct tc_kvm_entry){
				.pid = g->pids[v], .guest = gc, .host = hc,
			};
	}
	if (tc_kvm_map.n)
		qsort(tc_kvm_map.v, tc_kvm_map.n, sizeof(*tc_kvm_map.v),
		      tc_kvm_cmp);
	return 0;
}
