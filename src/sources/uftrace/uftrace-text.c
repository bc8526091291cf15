// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A uftrace record as `uftrace dump` prints it: the reader's
 * render_default, the text of events that no rule matches.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "outbuf.h"
#include "pyfmt.h"
#include "source.h"
#include "uftrace-int.h"

/* Decimal digits at p, exactly as many as needed. */
static size_t uft_dec(char *p, uint64_t v)
{
	return pyfmt_u64_dec(p, v);
}

/*
 * n bytes from s to p. Names are short: fixed-size copies that overlap
 * (and read nothing outside s[0..n)) beat a call to memcpy.
 */
static inline void uft_copy_name(char *p, const char *s, size_t n)
{
	uint64_t a, b;
	uint32_t x, y;

	if (n >= 8 && n <= 16) {
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(p, &a, 8);
		memcpy(p + n - 8, &b, 8);
	} else if (n > 16) {
		memcpy(p, s, n);
	} else if (n >= 4) {
		memcpy(&x, s, 4);
		memcpy(&y, s + n - 4, 4);
		memcpy(p, &x, 4);
		memcpy(p + n - 4, &y, 4);
	} else {
		while (n--)
			*p++ = *s++;
	}
}

/* Hex digits at p; may write 8 bytes past them (the line has slack). */
static size_t uft_hex(char *p, uint64_t v)
{
	return pyfmt_hex_put(p, v);
}

/*
 * The lines dump prints before a kernel record: the lost events the page
 * header counts (dump_raw_kernel_lost), and the time extend that opens a
 * file's first page (dump_raw_kernel_rstack), at the record's time less
 * the extend.
 */
static int uft_kernel_lines(const struct event *ev, const struct uft_cur *c,
			    struct outbuf *o)
{
	char line[160];
	uint64_t ts;
	int n, ret;

	if (c->prec.klost) {
		n = snprintf(line, sizeof(line),
			     "%" PRIu64 ".%09" PRIu64 "  %.*s: [lost ]: %d events\n",
			     ev->ts / 1000000000u, ev->ts % 1000000000u,
			     (int)c->ktid_len, c->ktid_text, (int)c->prec.klost);
		ret = outbuf_put(o, line, (size_t)n);
		if (ret)
			return ret;
	}
	if (c->prec.has_kext) {
		ts = ev->ts - c->prec.kext;
		n = snprintf(line, sizeof(line),
			     "%" PRIu64 ".%09" PRIu64 "  %.*s: [time ] extend (+%" PRIu64 " nsec)\n",
			     ts / 1000000000u, ts % 1000000000u,
			     (int)c->ktid_len, c->ktid_text, c->prec.kext);
		ret = outbuf_put(o, line, (size_t)n);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * As `uftrace dump` prints a record (cmds/dump.c, without the hex dump
 * and the argument lines):
 *
 *   2639.490006229  15691: [entry] main(55831f624285) depth: 0
 *
 * with "<ADDR>" for a function without symbol, the event name for events,
 * and the depth as the record holds it, as dump prints it (rftrace writes
 * 0 everywhere, QEMU's plugin counts from 1): the depth of our own call
 * stack is the template key depth.
 */
int uft_render_default(struct source *src, const struct event *ev,
		       struct outbuf *o)
{
	static const char *const tag[UFT_NTYPES] = {
		"entry", "exit ", "lost ", "event",
	};
	struct uftrace *uf = src->priv;
	struct uft_cur *c = (struct uft_cur *)ev->rec;	/* cur, or of bcur */
	const struct uft_task *t = c->task;
	uint64_t sec = ev->raw_ts / 1000000000u;
	uint32_t ns = (uint32_t)(ev->raw_ts - sec * 1000000000u);
	char *p, *start, time[40];
	size_t timelen;

	if (c->is_text)
		return outbuf_put(o, uf->lone_text, uf->lone_len);
	/* dump_raw_inverted_time(): a time before the one before */
	if (c->rec.inverted && !c->perf) {
		static const char banner[] =
			"\n*************************************\n"
			"* inverted time - data seems broken *\n"
			"*************************************\n\n";
		int ret = outbuf_put(o, banner, sizeof(banner) - 1);

		/* a record dump does not show (uftrace-depth.c) */
		if (ret || c->hidden)
			return ret;
	}
	if (c->kern && (c->prec.klost || c->prec.has_kext)) {
		int ret = uft_kernel_lines(ev, c, o);

		if (ret)
			return ret;
	}
	/* 40 bytes of slack for the fixed-size copies of numbers */
	p = outbuf_reserve(o, 96 + c->symlen + 40 + 40);
	if (!p)
		return -ENOMEM;
	start = p;
	/* "%d.%09d": the seconds change seldom from line to line */
	if (sec != uf->sec_key) {
		uf->sec_len = uft_dec(uf->sec_text, sec);
		uf->sec_text[uf->sec_len++] = '.';
		uf->sec_key = sec;
	}
	uft_copy_name(p, uf->sec_text, uf->sec_len);
	p += uf->sec_len;
	*p++ = (char)('0' + ns / 100000000u);
	pyfmt_dec8(p, ns % 100000000u);
	p += 8;
	memcpy(p, "  ", 2);
	p += 2;
	timelen = (size_t)(p - start);
	if (c->rec.more)
		memcpy(time, start, timelen < sizeof(time) ? timelen : sizeof(time));
	if (c->kern) {
		uft_copy_name(p, c->ktid_text, c->ktid_len);
		p += c->ktid_len;
	} else {
		uft_copy_name(p, t->tid_text, t->tid_len);	/* "%5d" */
		p += t->tid_len;
	}
	memcpy(p, ": [", 3);
	p += 3;
	memcpy(p, tag[c->rec.type], 5);
	p += 5;
	memcpy(p, "] ", 2);
	p += 2;
	if (c->resolved) {
		uft_copy_name(p, c->symbol, c->symlen);
		p += c->symlen;
	} else {
		*p++ = '<';
		p += uft_hex(p, c->rec.addr);
		*p++ = '>';
	}
	*p++ = '(';
	if (c->kern && c->rec.type == UFT_EVENT) {
		/* dump_raw_kernel_event(): the id in decimal, the info text */
		p += uft_dec(p, c->rec.addr);
		*p++ = ')';
		*p++ = ' ';
		outbuf_commit(o, (size_t)(p - start));
		if (c->paylen) {
			int ret = outbuf_put(o, (const char *)c->pay, c->paylen);

			if (ret)
				return ret;
		}
		return outbuf_put(o, "\n", 1);
	}
	if (c->perf) {
		/* dump_raw_perf_event(): the id in decimal, no depth */
		p += uft_dec(p, c->rec.addr);
		*p++ = ')';
		*p++ = '\n';
		outbuf_commit(o, (size_t)(p - start));
		return 0;
	}
	/* a kernel record keeps 48 bits of the address (uftrace_record) */
	p += uft_hex(p, c->kern ? c->kraw : c->rec.addr);
	memcpy(p, ") depth: ", 9);
	p += 9;
	if (c->rec.depth < 10) {
		*p++ = (char)('0' + c->rec.depth);
	} else if (c->rec.depth < 100) {
		memcpy(p, pyfmt_dig2 + 2 * c->rec.depth, 2);
		p += 2;
	} else {
		p += uft_dec(p, c->rec.depth);
	}
	*p++ = '\n';
	outbuf_commit(o, (size_t)(p - start));
	/* the argument, return value or event data lines of the dump */
	if (c->rec.more && timelen <= sizeof(time))
		return c->rec.type == UFT_EVENT ?
			       uft_dump_event_data(uf, c, time, timelen, o) :
			       uft_dump_values(uf, c, time, timelen, o);
	return 0;
}
