// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The timeline (timeline.h) as Chrome trace-event JSON objects, one per
 * line after {"traceEvents":[ (the document's end, with its metadata, is
 * chrome_footer()'s):
 *
 *   X  {"name":N,"cat":C,"ph":"X","ts":µs,"dur":µs,"pid":P,"tid":T,"args":{…}}
 *   i  {"name":N,"cat":C,"ph":"i","s":"t","ts":µs,"pid":P,"tid":T,"args":{…}}
 *   B  {"name":N,"cat":C,"ph":"B","ts":µs,"pid":P,"tid":T}
 *   E  {"ph":"E","ts":µs,"pid":P,"tid":T}
 *   C  {"name":N,"cat":C,"ph":"C","ts":µs,"pid":P,"args":{N:value}}
 *   M  process_name, process_sort_index, thread_name, thread_sort_index
 *
 * "args" is left out when there are none (but for instants).
 *
 * A double holds µs with three decimals exactly up to 2^53 ns (104 days):
 * a timeline past 2^52 ns at its first time stamp (the wall clock) is
 * written from a base, that stamp's whole second, which the metadata
 * keeps (ts_base_ns); stamps before it are negative.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chrome.h"
#include "copy-short.h"
#include "outbuf.h"
#include "timeline.h"

/*
 * Time stamps come in order, or nearly: the digits of ns / 10^5 (µs but
 * for the last two digits before the point) are those of the stamp
 * before more often than not, kept here as text.
 */
#define JSON_US_STEP	100000u
struct json_us_text {
	uint64_t hi;		/* ns / JSON_US_STEP, > 0; 0: none yet */
	uint32_t len;
	char text[16];		/* its digits; 16 bytes are copied */
};

struct tl_json {
	struct tl_enc enc;
	uint64_t objects;	/* written: the next one needs a comma */
	struct json_us_text us;
};

#define JSON_LIT(p, s) chrome_lit(p, s, sizeof(s) - 1)

/*
 * n bytes of s that are not a constant (a type's head, an argument's
 * key): copy_short(), a call of memcpy for each was 3 % of --chrome's
 * instructions
 */
static inline char *json_copy(char *p, const char *s, size_t n)
{
	copy_short(p, s, n);
	return p + n;
}

/* inline: a call per number was a tenth of the encoder's time */
static inline char *json_dec(char *p, uint64_t v)
{
	unsigned n;

	/* pid, tid, vCPU: one or two digits, no length to work out */
	if (v < 100) {
		if (v < 10) {
			*p = (char)('0' + v);
			return p + 1;
		}
		memcpy(p, pyfmt_dig2 + 2 * v, 2);
		return p + 2;
	}
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/*
	 * 9 or 10 digits (a random u32, kvmtrace's data words): the one or
	 * two above the low 8, then those 8 at once (pyfmt_dec8_swar(): no
	 * table, no loop)
	 */
	if (v >= 100000000 && v < 10000000000ull) {
		uint64_t q = v / 100000000, d;

		d = pyfmt_dec8_swar((uint32_t)(v - q * 100000000)) +
		    0x3030303030303030ull;
		if (q < 10) {
			*p++ = (char)('0' + q);
		} else {
			memcpy(p, pyfmt_dig2 + 2 * q, 2);
			p += 2;
		}
		memcpy(p, &d, 8);
		return p + 8;
	}
#endif
	n = pyfmt_dec_len(v);
	pyfmt_dec_back(p + n, v);
	return p + n;
}

/* sink_put_us() inline: ns / 1000 with three decimals */
static inline char *json_put_us(char *p, uint64_t ns)
{
	unsigned f = (unsigned)(ns % 1000);

	p = json_dec(p, ns / 1000);
	*p++ = '.';
	*p++ = (char)('0' + f / 100);
	memcpy(p, pyfmt_dig2 + 2 * (f % 100), 2);
	return p + 2;
}

static char *json_s64(char *p, int64_t v)
{
	if (v < 0)
		*p++ = '-';
	return json_dec(p, v < 0 ? -(uint64_t)v : (uint64_t)v);
}

/*
 * json_put_us() of ns >= JSON_US_STEP: the digits of ns / JSON_US_STEP
 * (those of the stamp before, or made and kept), then "dd.ddd". A third
 * of the instructions of an instant's time stamp went to its digits.
 */
static inline __attribute__((always_inline)) char *
json_put_us_step(struct json_us_text *u, char *p, uint64_t ns)
{
	uint64_t hi = ns / JSON_US_STEP;
	unsigned lo = (unsigned)(ns - hi * JSON_US_STEP), f = lo % 1000;

	if (__builtin_expect(hi != u->hi, 0)) {
		u->len = pyfmt_dec_len(hi);
		pyfmt_dec_back(u->text + u->len, hi);
		u->hi = hi;
	}
	/* ns < 2^64: hi has 15 digits at most */
	memcpy(p, u->text, 16);
	p += u->len;
	memcpy(p, pyfmt_dig2 + 2 * (lo / 1000), 2);
	p[2] = '.';
	p[3] = (char)('0' + f / 100);
	memcpy(p + 4, pyfmt_dig2 + 2 * (f % 100), 2);
	return p + 6;
}

/* ns from the base: µs with three decimals, maybe negative (inline: 15
 * instructions a call) */
static inline __attribute__((always_inline)) char *
json_us(struct tl_enc *e, char *p, uint64_t ns)
{
	if (!e->base_set) {
		e->base_set = true;
		if (ns >= 1ull << 52)
			e->ts_base = ns - ns % 1000000000u;
	}
	if (ns < e->ts_base) {
		*p++ = '-';
		return json_put_us(p, e->ts_base - ns);
	}
	ns -= e->ts_base;
	if (ns >= JSON_US_STEP) {
		struct tl_json *j = container_of(e, struct tl_json, enc);

		return json_put_us_step(&j->us, p, ns);
	}
	return json_put_us(p, ns);
}

/* A time stamp: µs with three decimals, or ticks (inline: a call
 * each was 5 instructions a record) */
static inline __attribute__((always_inline)) char *
json_ts(struct tl_enc *e, char *p, uint64_t ts)
{
	if (e->time->ns)
		return json_us(e, p, sink_time_ns(e->time, ts));
	return json_dec(p, ts);
}

/* "ts":from,"dur":to-from, both ends rounded alike so that slices nest. */
static char *json_span(struct tl_enc *e, char *p, uint64_t from, uint64_t to)
{
	const struct sink_time *t = e->time;
	uint64_t a = from, b = to;

	if (t->ns) {
		a = sink_time_ns(t, from);
		b = sink_time_ns(t, to);
	}
	if (b < a)
		b = a;
	p = JSON_LIT(p, "\"ts\":");
	p = t->ns ? json_us(e, p, a) : json_dec(p, a);
	p = JSON_LIT(p, ",\"dur\":");
	return t->ns ? json_put_us(p, b - a) : json_dec(p, b - a);
}

static char *json_pid_tid(char *p, uint32_t pid, uint32_t tid)
{
	p = JSON_LIT(p, ",\"pid\":");
	p = json_dec(p, pid);
	p = JSON_LIT(p, ",\"tid\":");
	return json_dec(p, tid);
}

static char *json_sep(struct tl_json *j, char *p)
{
	if (j->objects++)
		*p++ = ',';
	*p++ = '\n';
	return p;
}

/* "0x" and v in lower-case hex (at most 18 bytes, 8 more may change) */
static size_t json_hex(char *p, uint64_t v)
{
	p[0] = '0';
	p[1] = 'x';
	return 2 + pyfmt_hex_put(p + 2, v);
}

static char *json_value(char *p, const struct value *v, bool hex)
{
	/* most are numbers: data words, ids, reasons */
	if (v->kind == VALUE_INT && !hex && !v->neg)
		return json_dec(p, v->u);
	if (hex && v->kind == VALUE_INT && !v->neg) {
		*p++ = '"';
		p += json_hex(p, v->u);
		*p++ = '"';
		return p;
	}
	switch (v->kind) {
	case VALUE_INT:
		if (v->neg && v->u)
			*p++ = '-';
		return json_dec(p, v->u);
	case VALUE_FLOAT:
		if (v->f != v->f || v->f - v->f != 0)	/* nan, inf */
			return JSON_LIT(p, "null");
		return p + snprintf(p, 32, "%.17g", v->f);
	case VALUE_STR:
		return p + sink_json_str(p, v->s, v->len);
	case VALUE_NONE:
		break;
	}
	return JSON_LIT(p, "null");
}

/* The bytes an event may take. */
static size_t json_need(const struct tl_event *ev)
{
	size_t i, n = CHROME_SLACK + SINK_JSON_BOUND(ev->namelen) +
		      SINK_JSON_BOUND(ev->catlen) + ev->jheadlen;

	if (ev->jargs)
		return n + ev->jargs;
	for (i = 0; i < ev->nargs; i++) {
		const struct tl_arg *a = &ev->args[i];

		n += TL_ARGBOUND(a->k);
		if (a->v.kind == VALUE_STR)
			n += SINK_JSON_BOUND(a->v.len);
	}
	return n;
}

/* ,"args":{"key":value,…} (the separator before each key written
 * after its value, the last one turned into the brace) */
static char *json_args(char *p, const struct tl_event *ev)
{
	const struct tl_arg *a = ev->args, *end = a + ev->nargs;

	if (a == end) {
		if (ev->args_always)
			p = JSON_LIT(p, ",\"args\":{}");
		return p;
	}
	p = JSON_LIT(p, ",\"args\":{");
	if (ev->args_uint) {
		for (; a < end; a++) {
			memcpy(p, a->k->jkey, 16);
			p += a->k->jkeylen;
			p = json_dec(p, a->v.u);
			*p++ = ',';
		}
		p[-1] = '}';
		return p;
	}
	for (; a < end; a++) {
		const struct tl_key *k = a->k;

		if (k->jkey && k->jkeylen <= 16) {
			/* 16 bytes may be read at jkey (timeline.h) */
			memcpy(p, k->jkey, 16);
			p += k->jkeylen;
		} else if (k->jkey) {
			p = json_copy(p, k->jkey, k->jkeylen);
			if (k->whole) {
				*p++ = ',';
				continue;
			}
		} else {
			p += sink_json_str(p, k->key, k->keylen);
			*p++ = ':';
		}
		p = json_value(p, &a->v, a->hex);
		*p++ = ',';
	}
	p[-1] = '}';
	return p;
}

static char *json_name_cat(char *p, const struct tl_event *ev)
{
	if (ev->jname)
		return json_copy(p, ev->jname, ev->jnamelen);
	p = JSON_LIT(p, "{\"name\":");
	p += sink_json_str(p, ev->name, ev->namelen);
	p = JSON_LIT(p, ",\"cat\":");
	return p + sink_json_str(p, ev->cat, ev->catlen);
}

static int json_event(struct tl_enc *e, const struct tl_event *ev)
{
	struct tl_json *j = container_of(e, struct tl_json, enc);
	char *p, *start, num[40];

	if (ev->ph == TL_OPEN)
		return 0;	/* the "X" at its end says it all */
	p = start = outbuf_reserve(e->out, json_need(ev));
	if (!p)
		return -ENOMEM;
	p = json_sep(j, p);
	switch (ev->ph) {
	case TL_SLICE:
		p = json_name_cat(p, ev);
		p = JSON_LIT(p, ",\"ph\":\"X\",");
		p = json_span(e, p, ev->ts, ev->end);
		break;
	case TL_INSTANT:
		if (ev->jhead) {
			p = json_copy(p, ev->jhead, ev->jheadlen);
		} else {
			p = json_name_cat(p, ev);
			p = JSON_LIT(p, ",\"ph\":\"i\",\"s\":\"t\",\"ts\":");
		}
		p = json_ts(e, p, ev->ts);
		break;
	case TL_BEGIN:
		p = json_name_cat(p, ev);
		p = JSON_LIT(p, ",\"ph\":\"B\",\"ts\":");
		p = json_ts(e, p, ev->ts);
		break;
	case TL_END:
		p = JSON_LIT(p, "{\"ph\":\"E\",\"ts\":");
		p = json_ts(e, p, ev->ts);
		break;
	case TL_OPEN:
		break;
	case TL_COUNTER:
		p = json_name_cat(p, ev);
		p = JSON_LIT(p, ",\"ph\":\"C\",\"ts\":");
		p = json_ts(e, p, ev->ts);
		p = JSON_LIT(p, ",\"pid\":");
		p = json_dec(p, ev->pid);
		p = JSON_LIT(p, ",\"args\":{");
		p += sink_json_str(p, ev->name, ev->namelen);
		*p++ = ':';
		snprintf(num, sizeof(num), "%.15g", ev->value);
		p = chrome_lit(p, num, strlen(num));
		p = JSON_LIT(p, "}}");
		goto done;
	}
	p = json_pid_tid(p, ev->pid, ev->tid);
	p = json_args(p, ev);
	*p++ = '}';
done:
	outbuf_commit(e->out, (size_t)(p - start));
	e->bytes += (uint64_t)(p - start);
	return 0;
}

/* A metadata event: {"name":what,"ph":"M","pid":P,"tid":T,"args":{…}}. */
static int json_meta(struct tl_enc *e, const char *what, uint32_t pid,
		     uint32_t tid, const char *key, const char *s, size_t slen,
		     int64_t num)
{
	struct tl_json *j = container_of(e, struct tl_json, enc);
	size_t n = strlen(what) + strlen(key) + SINK_JSON_BOUND(slen) +
		   CHROME_SLACK;
	char *p = outbuf_reserve(e->out, n), *start = p;

	if (!p)
		return -ENOMEM;
	p = json_sep(j, p);
	p = JSON_LIT(p, "{\"name\":\"");
	p = chrome_lit(p, what, strlen(what));
	p = JSON_LIT(p, "\",\"ph\":\"M\"");
	p = json_pid_tid(p, pid, tid);
	p = JSON_LIT(p, ",\"args\":{\"");
	p = chrome_lit(p, key, strlen(key));
	p = JSON_LIT(p, "\":");
	p = s ? p + sink_json_str(p, s, slen) : json_s64(p, num);
	p = JSON_LIT(p, "}}");
	outbuf_commit(e->out, (size_t)(p - start));
	e->bytes += (uint64_t)(p - start);
	return 0;
}

static int json_process(struct tl_enc *e, uint32_t pid, const char *name,
			size_t len, int64_t sort)
{
	if (json_meta(e, "process_name", pid, 0, "name", name, len, 0) < 0 ||
	    json_meta(e, "process_sort_index", pid, 0, "sort_index", NULL, 0,
		      sort) < 0)
		return -ENOMEM;
	return 0;
}

static int json_thread(struct tl_enc *e, uint32_t pid, uint32_t tid,
		       const char *name, size_t len, int64_t sort)
{
	if (json_meta(e, "thread_name", pid, tid, "name", name, len, 0) < 0 ||
	    json_meta(e, "thread_sort_index", pid, tid, "sort_index", NULL, 0,
		      sort) < 0)
		return -ENOMEM;
	return 0;
}

static int json_begin(struct tl_enc *e)
{
	e->bytes += 16;
	return outbuf_put(e->out, "{\"traceEvents\":[", 16) < 0 ? -ENOMEM : 0;
}

static void json_destroy(struct tl_enc *e)
{
	free(container_of(e, struct tl_json, enc));
}

static const struct tl_enc_ops tl_json_ops = {
	.name = "chrome",
	.begin = json_begin,
	.process = json_process,
	.thread = json_thread,
	.event = json_event,
	.destroy = json_destroy,
};

struct tl_enc *tl_json_create(struct outbuf *out, const struct sink_time *t)
{
	struct tl_json *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->enc.ops = &tl_json_ops;
	j->enc.out = out;
	j->enc.time = t;
	return &j->enc;
}
