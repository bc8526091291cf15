// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The options of a trace.dat that kvmtrace_format reads itself
 * (trace-cmd.dat.v7(5)): the trace clock (TRACECLOCK, the top instance's
 * BUFFER option), DATE, the top instance's CPU table, and the host and
 * guest options libtracecmd also reads (TSC2NSEC, TIME_SHIFT, GUEST,
 * UNAME); the walk over an options section. The layouts around them are
 * tracedat-file.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracedat-int.h"

char *tracedat_parse_clock(const char *text, size_t len)
{
	size_t i = 0, start;

	/* the first word that starts with '[' (libtracecmd splits at ' ') */
	while (i < len && text[i]) {
		if (text[i] == '[' && (i == 0 || text[i - 1] == ' ')) {
			while (i < len && text[i] == '[')
				i++;
			start = i;
			while (i < len && text[i] && text[i] != ']' &&
			       text[i] != '[' && text[i] != ' ' &&
			       text[i] != '\n' && text[i] != '\t')
				i++;
			return i > start ? strndup(text + start, i - start)
					 : NULL;
		}
		i++;
	}
	return NULL;
}

void td_set_clock(struct tracedat_file *f, char *clock)
{
	free(f->clock);
	f->clock = clock;
	f->clock_option = true;
}

/*
 * A GUEST option as libtracecmd's trace_guest_load() reads it: name, u64
 * trace id, u32 vCPU count, per vCPU {u32 vcpu, u32 host pid}; one it
 * would refuse is left out.
 */
static void td_guest_option(struct tracedat_file *f, const unsigned char *p,
			    size_t len, bool big)
{
	const unsigned char *nul = memchr(p, '\0', len);
	struct tracedat_guest g = { 0 }, *v;
	size_t pos;
	uint32_t i, cpu;

	if (!nul)
		return;
	pos = (size_t)(nul - p) + 1;
	if (len - pos < 12)
		return;
	g.traceid = td_get(p + pos, 8, big);
	g.nvcpus = (uint32_t)td_get(p + pos + 8, 4, big);
	pos += 12;
	if (g.nvcpus > (len - pos) / 8)
		return;
	g.pids = calloc(g.nvcpus ? g.nvcpus : 1, sizeof(*g.pids));
	if (nul > p) {
		g.name = strndup((const char *)p, (size_t)(nul - p));
	} else if ((g.name = malloc(32))) {
		/* no name: the VM is its trace id (one VM, not one per thread) */
		snprintf(g.name, 32, "0x%016" PRIx64, g.traceid);
	}
	v = realloc(f->guests, (f->nguests + 1) * sizeof(*v));
	if (v)
		f->guests = v;
	if (!g.pids || !g.name || !v)
		goto drop;
	for (i = 0; i < g.nvcpus; i++, pos += 8) {
		cpu = (uint32_t)td_get(p + pos, 4, big);
		if (cpu >= g.nvcpus)
			goto drop;
		g.pids[cpu] = (int32_t)td_get(p + pos + 4, 4, big);
	}
	f->guests[f->nguests++] = g;
	return;
drop:
	free(g.pids);
	free(g.name);
}

/*
 * UNAME: "SYSNAME NODENAME RELEASE MACHINE" as trace-cmd record writes
 * uname(2)'s fields; the node name is the host's.
 */
static void td_uname(struct tracedat_file *f, const unsigned char *p,
		     size_t len)
{
	const unsigned char *end = p + len, *q;

	while (p < end && *p && *p != ' ')
		p++;
	while (p < end && *p == ' ')
		p++;
	for (q = p; q < end && *q && *q != ' '; q++)
		if (*q < 0x20 || *q == 0x7f)
			return;	/* no name at all */
	if (q == p || q - p > 255)
		return;
	free(f->hostname);
	f->hostname = strndup((const char *)p, (size_t)(q - p));
}

/* TIME_SHIFT, GUEST, TSC2NSEC and UNAME, as libtracecmd reads them. */
void td_host_option(struct tracedat_file *f, unsigned id,
		    const unsigned char *p, size_t len, bool big)
{
	if (id == TD_OPT_UNAME) {
		td_uname(f, p, len);
	} else if (id == TD_OPT_TSC2NSEC && len >= 16) {
		f->tsc2nsec_mult = (uint32_t)td_get(p, 4, big);
		f->tsc2nsec_shift = (uint32_t)td_get(p + 4, 4, big);
		f->tsc2nsec = f->tsc2nsec_mult != 0;
	} else if (id == TD_OPT_TIME_SHIFT && len >= 16) {
		tracedat_shift_free(f->shift);
		f->shift = tracedat_shift_parse(p, len, big);
	} else if (id == TD_OPT_GUEST) {
		td_guest_option(f, p, len, big);
	}
}


/*
 * Each option of an options section (its content p[0..n), found at offset
 * at of the file), up to and with DONE, to fn. Returns 0, what fn
 * returned when negative, or -EIO with d set.
 */
int td_options_each(const struct td_reader *r, unsigned char *p,
		    size_t n, uint64_t at, td_option_fn fn, void *arg,
		    struct diag *d)
{
	size_t pos = 0;

	for (;;) {
		uint64_t id, len;
		int ret;

		if (n - pos < 6) {
			diag_set(d, "%s: corrupt trace.dat (version 7): the options section at offset 0x%" PRIx64 " ends without its DONE option",
				 r->name, at);
			return -EIO;
		}
		id = td_get(p + pos, 2, r->big);
		len = td_get(p + pos + 2, 4, r->big);
		pos += 6;
		if (len > n - pos) {
			diag_set(d, "%s: corrupt trace.dat (version 7): option %" PRIu64 " of the options section at offset 0x%" PRIx64 " claims %" PRIu64 " bytes; %zu are left",
				 r->name, id, at, len, n - pos);
			return -EIO;
		}
		ret = fn(arg, (unsigned)id, p + pos, (size_t)len);
		if (ret < 0)
			return ret;
		if (id == TD_OPT_DONE)
			return 0;
		pos += (size_t)len;
	}
}

/*
 * A BUFFER option (version 7): u64 offset, name, clock, then page size,
 * CPU count and table. Where its clock and what follows it start; false
 * when the strings do not end inside it.
 */
bool td_buffer_strings(const unsigned char *p, size_t len,
		       size_t *clock, size_t *after)
{
	const unsigned char *nul;

	if (len < 9)
		return false;
	nul = memchr(p + 8, '\0', len - 8);			/* name */
	if (!nul)
		return false;
	*clock = (size_t)(nul - p) + 1;
	nul = memchr(p + *clock, '\0', len - *clock);		/* clock */
	if (!nul)
		return false;
	*after = (size_t)(nul - p) + 1;
	return true;
}

/*
 * The top instance's CPU table in its BUFFER option (after the strings):
 * u32 page size, u32 count, per CPU u32 cpu, u64 offset, u64 size. Kept
 * when whole (the first such option only).
 */
static void td_buffer_cpus(struct tracedat_file *f, const unsigned char *p,
			   size_t len, bool big)
{
	uint64_t n, i;

	if (f->cpus || len < 8)
		return;
	n = td_get(p + 4, 4, big);
	if (n > (len - 8) / 20)
		return;
	f->cpus = calloc(n ? (size_t)n : 1, sizeof(*f->cpus));
	if (!f->cpus)
		return;
	for (i = 0; i < n; i++) {
		const unsigned char *e = p + 8 + 20 * i;

		f->cpus[i] = (struct tracedat_cpu){
			(uint32_t)td_get(e, 4, big), td_get(e + 4, 8, big),
			td_get(e + 12, 8, big) };
	}
	f->ncpus = (uint32_t)n;
}

/* What the clock reading takes from each option. */
int td_clock_option(void *arg, unsigned id, unsigned char *p,
		    size_t len)
{
	struct td_clock_walk *w = arg;
	size_t clock, after;

	switch (id) {
	case TD_OPT_DONE:
		w->next = len >= 8 ? td_get(p, 8, w->r->big) : 0;
		break;
	case TD_OPT_TRACECLOCK:
		td_set_clock(w->f, tracedat_parse_clock((const char *)p, len));
		break;
	case TD_OPT_DATE:
		w->f->date = true;
		break;
	case TD_OPT_BUFFER:
		/* the top instance ("") names the clock if TRACECLOCK did not */
		if (!w->f->clock && td_buffer_strings(p, len, &clock, &after) &&
		    !p[8] && after - clock > 1)
			w->f->clock = strndup((const char *)p + clock,
					      after - clock - 1);
		if (td_buffer_strings(p, len, &clock, &after) && !p[8])
			td_buffer_cpus(w->f, p + after, len - after,
				       w->r->big);
		break;
	case TD_OPT_TSC2NSEC:
	case TD_OPT_TIME_SHIFT:
	case TD_OPT_GUEST:
	case TD_OPT_UNAME:
		td_host_option(w->f, id, p, len, w->r->big);
		break;
	}
	return 0;
}
