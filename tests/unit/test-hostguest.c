// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The host/guest options as kvmtrace_format reads them (tracedat-file.c,
 * tracedat-shift.c) against libtracecmd's public API, on the fixtures of
 * tests/gen/gen-hostguest.py:
 *
 *   - every GUEST option of a host equals tracecmd_get_guest_cpumap() for
 *     its trace id, and each guest's tracecmd_get_traceid() is named there;
 *   - every record of a guest: tracedat_shift_apply() of the record's time
 *     in the recording the guest was made from equals the time libtracecmd
 *     hands out (its own interpolation), and tracedat_shift_invert() of
 *     that time gives the recording's time back (guest_ts).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "diag.h"
#include "tap.h"
#include "tracedat/tracedat-file.h"

#define FIX "tests/fixtures/hostguest/"
#define REC "tests/fixtures/tracedat/"

static char *path(const char *dir, const char *name)
{
	const char *src = getenv("KTF_SRCDIR");
	char *p;

	if (asprintf(&p, "%s/%s%s", src ? src : ".", dir, name) < 0)
		abort();
	return p;
}

static struct tracecmd_input *open_tc(const char *p)
{
	struct tracecmd_input *h = tracecmd_open(p, TRACECMD_FL_LOAD_NO_PLUGINS);

	if (!h) {
		fprintf(stderr, "cannot open %s\n", p);
		exit(99);
	}
	return h;
}

static void guests(struct tap *t, const char *host, const char *const *gs)
{
	char *hp = path(FIX, host);
	struct tracecmd_input *h = open_tc(hp);
	struct tracedat_file f;
	struct diag d;
	size_t i;
	int k;

	diag_init(&d);
	tap_ok(t, tracedat_file_read(host, hp, &f, &d) == 0 && f.nguests > 0,
	       "%s: GUEST options read", host);
	for (i = 0; i < f.nguests; i++) {
		const struct tracedat_guest *g = &f.guests[i];
		const int *pids = NULL;
		const char *name = NULL;
		bool same;
		int n = -1;

		same = tracecmd_get_guest_cpumap(h, g->traceid, &name, &n,
						 &pids) == 0 &&
		       !strcmp(name, g->name) && n == (int)g->nvcpus;
		for (k = 0; same && k < n; k++)
			same = pids[k] == g->pids[k];
		tap_ok(t, same, "%s: GUEST %s (%u vCPUs) as libtracecmd has it",
		       host, g->name, g->nvcpus);
	}
	for (; *gs; gs++) {
		char *gp = path(FIX, *gs);
		struct tracecmd_input *g = open_tc(gp);
		unsigned long long id = tracecmd_get_traceid(g);

		for (i = 0; i < f.nguests && f.guests[i].traceid != id; i++)
			;
		tap_ok(t, i < f.nguests, "%s: trace id %#llx in %s's GUEST",
		       *gs, id, host);
		tracecmd_close(g);
		free(gp);
	}
	tracedat_file_free(&f);
	tracecmd_close(h);
	free(hp);
}

static void shifted(struct tap *t, const char *guest, const char *orig)
{
	char *gp = path(FIX, guest), *op = path(REC, orig);
	struct tracecmd_input *g = open_tc(gp), *o = open_tc(op);
	unsigned long n = 0, bad_apply = 0, bad_invert = 0;
	struct tracedat_file f;
	struct diag d;
	int cpu, ncpus;

	diag_init(&d);
	if (tracedat_file_read(guest, gp, &f, &d) < 0 || !f.shift) {
		tap_ok(t, false, "%s: TIME_SHIFT read", guest);
		return;
	}
	ncpus = tep_get_cpus(tracecmd_get_tep(o));
	for (cpu = 0; cpu < ncpus; cpu++) {
		struct tep_record *a, *b;

		while ((a = tracecmd_read_data(o, cpu))) {
			b = tracecmd_read_data(g, cpu);
			if (!b) {
				tracecmd_free_record(a);
				bad_apply++;
				break;
			}
			n++;
			if (tracedat_shift_apply(f.shift, (uint32_t)cpu, a->ts) != b->ts)
				bad_apply++;
			if (tracedat_shift_invert(f.shift, (uint32_t)cpu, b->ts) != a->ts)
				bad_invert++;
			tracecmd_free_record(a);
			tracecmd_free_record(b);
		}
	}
	tap_ok(t, n > 0 && !bad_apply,
	       "%s: %lu records at the host time libtracecmd gives (%lu differ)",
	       guest, n, bad_apply);
	tap_ok(t, n > 0 && !bad_invert,
	       "%s: guest_ts of %lu records is the recording's time (%lu differ)",
	       guest, n, bad_invert);
	tracedat_file_free(&f);
	tracecmd_close(g);
	tracecmd_close(o);
	free(gp);
	free(op);
}

int main(void)
{
	static const char *const g7[] = { "guest-a6.dat", "guest-b7.dat", NULL };
	static const char *const g6[] = { "guest-c7.dat", NULL };
	struct tap t = { 0 };

	tap_plan(16);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	guests(&t, "host7.dat", g7);
	guests(&t, "host6.dat", g6);
	shifted(&t, "guest-b7.dat", "host-kvm-tsc-change.dat");
	shifted(&t, "guest-c7.dat", "tc-syscalls.dat");
	shifted(&t, "orphan7.dat", "tc-syscalls.dat");
	shifted(&t, "guest-a6.dat", "tc-syscalls.dat");
	return t.failed ? 1 : 0;
}
