// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The line `trace-cmd report` prints for an event, the default rendering
 * of a trace.dat event; with the input's name in front when several
 * trace.dat files are read, as `trace-cmd report -i A -i B` prints it.
 */
#include <errno.h>
#include <string.h>

#include "outbuf.h"
#include "pyfmt.h"
#include "tracecmd.h"

/*
 * trace-cmd report -i A -i B: "%*s: ", the input's name right-aligned in
 * vm.width, before what it prints; nothing with one input
 */
static char *tc_prefix(const struct tc *tc, char *p)
{
	size_t plen, i;

	plen = tc->vm.prefix ? strlen(tc->vm.prefix) : 0;
	if (!plen)
		return p;
	for (i = plen; i < (size_t)tc->vm.width; i++)
		*p++ = ' ';
	memcpy(p, tc->vm.prefix, plen);
	return (char *)memcpy(p + plen, ": ", 2) + 2;
}

/*
 * trace-cmd report with instance buffers, or -i A -i B (print_handle_file()):
 * "%*s: " and the record's buffer name (instances) or input name, or
 * "%*s  " for the top buffer of a single input
 */
static char *tc_tag(const struct tc *tc, const struct tep_record *rec,
		    char *p)
{
	const char *name = tc->vm.prefix;
	size_t plen, i;

	if (!tc->vm.tagged)
		return p;
	if (tc_is_cur(tc, rec) && tc_cur_buf(tc) > 0)
		name = tc->bufs[tc_cur_buf(tc)].name;
	plen = name ? strlen(name) : 0;
	for (i = plen; i < (size_t)tc->vm.width; i++)
		*p++ = ' ';
	if (name)
		memcpy(p, name, plen);
	return (char *)memcpy(p + plen, name ? ": " : "  ", 2) + 2;
}

/*
 * As `trace-cmd report` prints it (tracecmd/trace-read.c: "%16s-%-5d
 * [%03d]", then " %6.1000d:" for the clocks it knows as nanoseconds, else
 * "%12d:", then " NAME: " padded to 20, then the info):
 *
 *        guest-8051  [001]  5944.565697: kvm_pio:              pio_write ...
 */
int tc_render_default(struct source *src, const struct event *ev,
		      struct outbuf *o)
{
	static const char tc_spaces[20] = "                    ";
	struct tep_record *rec = (struct tep_record *)ev->rec;
	struct tc *tc = src->priv;
	const char *name = ev->type->name ? ev->type->name : "UNKNOWN";
	size_t clen, nlen = strlen(name), ilen, i;
	const char *comm = tc_comm(tc, ev->pid, &clen);
	const char *info = tc_info(tc, ev, &ilen);
	uint64_t pidmag;
	char *p, *start;

	p = outbuf_reserve(o, 64 + clen + 16 + 80 + nlen + 24 + ilen + 2 +
				   2 * ((size_t)tc->vm.width + 2));
	if (!p)
		return -ENOMEM;
	start = p;
	p = tc_tag(tc, rec, p);
	if (rec->missed_events) {
		memcpy(p, "CPU:", 4);
		p += 4;
		p += pyfmt_u64_dec(p, ev->cpu);
		if (rec->missed_events > 0) {
			memcpy(p, " [", 2);
			p += 2;
			p += pyfmt_u64_dec(p, (uint64_t)rec->missed_events);
			memcpy(p, " EVENTS DROPPED]\n", 17);
			p += 17;
		} else {
			memcpy(p, " [EVENTS DROPPED]\n", 18);
			p += 18;
		}
	}
	/* "%16s": 16 spaces stored at once (o has room), the comm over them */
	memcpy(p, tc_spaces, 16);
	if (clen < 16)
		p += 16 - clen;
	memcpy(p, comm, clen);
	p += clen;
	*p++ = '-';
	/* %-5d */
	i = 0;
	if (ev->pid < 0)
		p[i++] = '-';
	pidmag = ev->pid < 0 ? -(uint64_t)ev->pid : (uint64_t)ev->pid;
	i += pyfmt_u64_dec(p + i, pidmag);
	memcpy(p + i, tc_spaces, 8);
	p += i < 5 ? 5 : i;
	memcpy(p, " [", 2);
	p += 2;
	p += pyfmt_u64_dec_w(p, ev->cpu, 3, '0');
	*p++ = ']';
	if (tc->usecs) {
		/*
		 * libtraceevent 1.7: microseconds, rounded, always as s.us
		 * ("%5llu.%06llu"; older ones printed "%12llu" below 1 s)
		 */
		uint64_t us = (rec->ts + 500) / 1000;

		*p++ = ' ';
		p += pyfmt_u64_dec_w(p, us / 1000000, 5, ' ');
		*p++ = '.';
		p += pyfmt_u64_dec_w(p, us % 1000000, 6, '0');
	} else {
		p += pyfmt_u64_dec_w(p, rec->ts, 12, ' ');
	}
	memcpy(p, ": ", 2);
	p += 2;
	memcpy(p, name, nlen);
	p += nlen;
	memcpy(p, ": ", 2);
	p += 2;
	memcpy(p, tc_spaces, 20);
	if (nlen < 20)
		p += 20 - nlen;
	memcpy(p, info, ilen);
	p += ilen;
	*p++ = '\n';
	outbuf_commit(o, (size_t)(p - start));
	return 0;
}


/*
 * What `trace-cmd report` prints before the events of an input: "cpus=N"
 * (tracecmd_cpus(), the CPU count of the file, CPUs without data
 * included), after "%*s: " and the file's name when several are read.
 */
int tc_render_header(struct source *src, struct outbuf *o)
{
	struct tc *tc = src->priv;
	size_t plen = tc->vm.prefix ? strlen(tc->vm.prefix) : 0;
	char *p, *start;

	p = outbuf_reserve(o, plen + (size_t)tc->vm.width + 40);
	if (!p)
		return -ENOMEM;
	start = p;
	p = tc_prefix(tc, p);
	memcpy(p, "cpus=", 5);
	p += 5;
	p += pyfmt_u64_dec(p, (uint64_t)tc->ncpus);
	*p++ = '\n';
	outbuf_commit(o, (size_t)(p - start));
	return 0;
}
