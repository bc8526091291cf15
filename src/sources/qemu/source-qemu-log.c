// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QEMU's log trace backend (-trace enable=PATTERN -D FILE): one line per
 * event, qemu_log("NAME " FORMAT "\n", ARGS...), with the stamp QEMU's
 * -msg timestamp=on puts before it:
 *
 *   NAME FORMATTED                                  no stamp
 *   TID@SEC.USEC:NAME FORMATTED                     QEMU 7.2 (gettimeofday)
 *   YYYY-MM-DDTHH:MM:SS[.ffffff]Z NAME FORMATTED    current QEMU (UTC)
 *
 * The arguments are read back through the event's format (qemu-format.c;
 * QEMU 7.2's vcpu events start with "cpu=%p "). A line that cannot be
 * read back (another message in the log, an event the dictionary lacks,
 * a reading that is not unique) is an event "log" whose `info` is its
 * text after the stamp; the input says so once, at its end. Stamped lines are on the wall clock (ns since the
 * epoch); a log without stamps has no time.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "outbuf.h"
#include "qemu.h"
#include "source.h"

#define QL_BUF_MIN	(1u << 16)
#define QL_LINE_MAX	(1u << 20)

struct ql_type {
	struct qemu_type q;		/* qe NULL: the log type */
	bool compiled;
	struct qemu_fmt *fmt;		/* owned: current QEMU's reading */
	struct qemu_fmt *fmt72;		/* owned: 7.2's, vcpu events */
};

struct ql_rec {
	const struct ql_type *t;
	bool args_ok;
	uint32_t first;			/* 1: a vcpu event without __cpu */
	const char *line;		/* the line without its new line */
	size_t line_len;
	const char *info;		/* what follows "NAME " */
	size_t info_len;
	struct qemu_values v;
};

struct qlog {
	struct qemu_in in;
	struct qemu_events *dict;	/* owned */
	struct ql_type *types;	/* owned: per dictionary event */
	struct ql_type logtype;	/* lines that are no event of the dictionary */
	struct ql_rec rec;
	uint64_t seq, lineno;
	uint64_t last_ts;
	uint64_t unreadable;	/* lines kept as text */
	uint64_t first_unreadable;	/* its line number */
	bool reported;
};

static bool ql_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static bool ql_word(unsigned char c)
{
	return ql_digit(c) || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '_';
}

/* n digits at s as a number; false when they are not all digits */
static bool ql_num(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!ql_digit((unsigned char)s[i]))
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return true;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian). */
static int64_t ql_days(int64_t y, unsigned m, unsigned d)
{
	int64_t era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

/*
 * The stamp at the start of s: its length (the name follows), with *ts
 * and *tid; 0 when there is none. *wrap: its ns since 1970 do not fit
 * 64 bits (past 2554-07-21T23:34:33Z); *ts is then of no use.
 */
static size_t ql_stamp(const char *s, size_t len, uint64_t *ts,
		       uint64_t *tid, bool *has_tid, bool *wrap)
{
	uint64_t y, mo, d, h, mi, sec, frac = 0, usec, v;
	size_t i = 0, f;

	*has_tid = false;
	*wrap = false;
	/* TID@SEC.USEC: */
	while (i < len && ql_digit((unsigned char)s[i]))
		i++;
	if (i && i < 20 && i < len && s[i] == '@') {
		size_t a = i + 1, b;

		if (!ql_num(s, i, tid))
			return 0;
		for (b = a; b < len && ql_digit((unsigned char)s[b]); b++)
			;
		if (b == a || b - a > 12 || b >= len || s[b] != '.' ||
		    len - b < 8 || s[b + 7] != ':' ||
		    !ql_num(s + a, b - a, &sec) || !ql_num(s + b + 1, 6, &usec))
			return 0;
		*wrap = __builtin_mul_overflow(sec, 1000000000u, ts) ||
			__builtin_add_overflow(*ts, usec * 1000u, ts);
		*has_tid = true;
		return b + 8;
	}
	/* YYYY-MM-DDTHH:MM:SS[.f]Z */
	if (len < 21 || s[4] != '-' || s[7] != '-' || s[10] != 'T' ||
	    s[13] != ':' || s[16] != ':' || !ql_num(s, 4, &y) ||
	    !ql_num(s + 5, 2, &mo) || !ql_num(s + 8, 2, &d) ||
	    !ql_num(s + 11, 2, &h) || !ql_num(s + 14, 2, &mi) ||
	    !ql_num(s + 17, 2, &sec) || mo < 1 || mo > 12 || d < 1 ||
	    d > 31 || h > 23 || mi > 59 || sec > 60)
		return 0;
	i = 19;
	if (s[i] == '.') {
		for (f = ++i; i < len && ql_digit((unsigned char)s[i]); i++)
			if (i - f < 9)
				frac = frac * 10 + (uint64_t)(s[i] - '0');
		if (i == f)
			return 0;
		for (f = i - f; f < 9; f++)
			frac *= 10;
	}
	if (len - i < 2 || s[i] != 'Z' || s[i + 1] != ' ' || y < 1970)
		return 0;
	/* seconds fit (year 9999 at most); their ns may not */
	v = (uint64_t)ql_days((int64_t)y, (unsigned)mo, (unsigned)d) * 86400u +
	    h * 3600u + mi * 60u + sec;
	*wrap = __builtin_mul_overflow(v, 1000000000u, ts) ||
		__builtin_add_overflow(*ts, frac, ts);
	return i + 2;
}

bool source_qemu_log_probe(const unsigned char *head, size_t len)
{
	const char *s = (const char *)head;
	uint64_t ts, tid;
	bool has_tid, wrap;
	size_t n = ql_stamp(s, len, &ts, &tid, &has_tid, &wrap);

	return n && n < len && ql_word(head[n]);
}

/* Bytes of a named file a log without stamps is recognised by. */
#define QL_SNIFF	4096

static int ql_args(struct qlog *q, struct ql_rec *r);

/*
 * Does the first line of s (len bytes; complete when a new line ends it)
 * begin with an event of dict, and read back through its format? A line
 * cut by the end of what was read, or of an event whose format cannot be
 * read back, needs only the name and no "%(" (a rule's template).
 */
static bool ql_sniff_line(const struct qemu_events *dict, const char *s,
			  size_t len)
{
	const char *nl = memchr(s, '\n', len);
	size_t n = 0, ll = nl ? (size_t)(nl - s) : len;
	const struct qemu_event *qe;
	struct ql_type t = { 0 };
	struct ql_rec r = { 0 };
	int ret;

	while (n < ll && ql_word((unsigned char)s[n]))
		n++;
	if (!n || (n < ll && s[n] != ' '))
		return false;
	qe = qemu_events_find(dict, s, n);
	if (!qe || memmem(s, ll, "%(", 2))
		return false;
	if (!nl)
		return true;
	t.q.qe = qe;
	r.t = &t;
	r.info = s + n + (n < ll);
	r.info_len = ll - n - (n < ll);
	ret = ql_args(NULL, &r);
	if (ret >= 0 && !ret && t.fmt && !t.fmt->ok)
		ret = 1;	/* a format that cannot be read back says nothing */
	if (t.fmt)
		qemu_fmt_free(t.fmt);
	if (t.fmt72)
		qemu_fmt_free(t.fmt72);
	free(t.fmt);
	free(t.fmt72);
	return ret > 0;
}

bool source_qemu_log_unstamped(const char *path, const unsigned char *head,
			       size_t len, const char *events)
{
	char buf[QL_SNIFF];
	const char *s = (const char *)head;
	struct qemu_events *dict;
	struct diag d;
	struct stat st;
	size_t n = 0;
	bool ret;
	int fd;

	/* a regular file only: a FIFO opened and closed would lose data */
	if (path && strcmp(path, "-") && stat(path, &st) == 0 &&
	    S_ISREG(st.st_mode) &&
	    (fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) >= 0) {
		ssize_t got = pread(fd, buf, sizeof(buf), 0);

		close(fd);
		if (got >= 0) {
			s = buf;
			len = (size_t)got;
		}
	}
	if (!s)
		return false;
	/* blank lines before the first (a rule file's # comment is none) */
	while (n < len && (s[n] == '\n' || s[n] == '\r'))
		n++;
	if (n == len || !ql_word((unsigned char)s[n]))
		return false;
	/* a word and a blank or the end first: only then the dictionary */
	{
		size_t w = n;

		while (w < len && ql_word((unsigned char)s[w]))
			w++;
		if (w < len && s[w] != ' ' && s[w] != '\n')
			return false;
	}
	diag_init(&d);
	dict = qemu_events_load(events ? events : QEMU_EVENTS_DEFAULT, &d);
	if (!dict)
		return false;
	ret = ql_sniff_line(dict, s + n, len - n);
	qemu_events_free(dict);
	return ret;
}

static bool ql_probe(const char *path, const unsigned char *head, size_t len,
		     bool is_dir)
{
	return !is_dir && source_qemu_log_probe(head, len);
}

static void ql_close(struct source *src)
{
	struct qlog *q = src->priv;
	size_t i;

	if (!q)
		return;
	qemu_in_close(&q->in);
	for (i = 0; q->types && i < q->dict->n; i++) {
		if (q->types[i].fmt)
			qemu_fmt_free(q->types[i].fmt);
		if (q->types[i].fmt72)
			qemu_fmt_free(q->types[i].fmt72);
		free(q->types[i].fmt);
		free(q->types[i].fmt72);
	}
	free(q->types);
	qemu_events_free(q->dict);
	free(q);
	src->priv = NULL;
}

static int ql_first_stamped(struct source *src, struct qlog *q,
			    struct diag *d);

static int ql_open(struct source *src, const char *path, struct diag *d)
{
	struct qlog *q = calloc(1, sizeof(*q));
	struct stat st;
	int ret;

	if (!q) {
		diag_set(d, "%s: out of memory", src->name);
		return -ENOMEM;
	}
	src->priv = q;
	/*
	 * --qemu-log names the file without a probe: one missing, unreadable
	 * or a directory is a usage problem (exit 2)
	 */
	ret = qemu_in_open(&q->in, src, path, QL_BUF_MIN, d);
	if (ret < 0) {
		ret = ret == -ENOMEM ? -ENOMEM : -EMEDIUMTYPE;
		goto error;
	}
	if (path && fstat(q->in.fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		ret = -EMEDIUMTYPE;
		diag_set(d, "%s: is a directory, not a QEMU log", src->name);
		goto error;
	}
	ret = qemu_dict_load(src, &q->dict, d);
	if (ret < 0)
		goto error;
	q->types = qemu_types_new(q->dict, sizeof(*q->types));
	if (!q->types)
		goto nomem;
	q->logtype.q.t.name = "log";
	q->logtype.q.t.system = "qemu";
	src->ntypes = (uint32_t)q->dict->n + 1;
	/* stamped (the wall clock), or no time at all */
	ret = ql_first_stamped(src, q, d);
	if (ret < 0)
		goto error;
	src->clock = ret ? CLOCK_NS : CLOCK_COUNTER;
	src->clock_base = ret ? "wall" : NULL;
	return 0;
nomem:
	diag_set(d, "%s: out of memory", src->name);
	ret = -ENOMEM;
error:
	ql_close(src);
	return ret;
}

/* The next line at q->in.pos (without its new line); 0 at the end. */
static int ql_line(struct source *src, struct qlog *q, const char **line,
		   size_t *len, struct diag *d)
{
	struct qemu_in *in = &q->in;
	const unsigned char *nl;

	for (;;) {
		nl = memchr(in->buf + in->pos, '\n', in->len - in->pos);
		if (nl || in->eof)
			break;
		qemu_in_shift(in);
		if (in->len == in->cap) {
			unsigned char *b;

			if (in->cap >= QL_LINE_MAX) {
				diag_set(d, "%s: line %" PRIu64 " (offset 0x%" PRIx64 "): longer than %u bytes; not a QEMU log",
					 src->name, q->lineno + 1, in->off,
					 QL_LINE_MAX);
				return -EIO;
			}
			b = realloc(in->buf, in->cap * 2);
			if (!b) {
				diag_set(d, "%s: out of memory", src->name);
				return -ENOMEM;
			}
			in->buf = b;
			in->cap *= 2;
		}
		if (qemu_in_read(in, src->name, d) < 0)
			return -EIO;
	}
	if (q->in.pos == q->in.len)
		return 0;
	*line = (const char *)q->in.buf + q->in.pos;
	if (nl) {
		*len = (size_t)(nl - (q->in.buf + q->in.pos));
		q->in.pos += *len + 1;
	} else {
		*len = q->in.len - q->in.pos;
		q->in.pos = q->in.len;
	}
	q->lineno++;
	return 1;
}

/* Does the first line carry a stamp? 1, 0, or a negative errno. */
static int ql_first_stamped(struct source *src, struct qlog *q,
			    struct diag *d)
{
	const char *line;
	size_t len, pos = q->in.pos;
	uint64_t ts, tid;
	bool has_tid, wrap;
	int ret = ql_line(src, q, &line, &len, d);

	if (ret <= 0)
		return ret;
	q->in.pos = pos;	/* read again by ql_next(): the buffer kept it */
	q->lineno--;
	return ql_stamp(line, len, &ts, &tid, &has_tid, &wrap) != 0;
}

static int ql_compile(struct ql_type *t)
{
	const struct qemu_event *qe = t->q.qe;

	t->compiled = true;
	t->fmt = malloc(sizeof(*t->fmt));
	if (!t->fmt || qemu_fmt_compile(t->fmt, "", qe->fmt, qe->fmt_len) < 0)
		return -ENOMEM;
	if (!qe->vcpu)
		return 0;
	t->fmt72 = malloc(sizeof(*t->fmt72));
	if (!t->fmt72 ||
	    qemu_fmt_compile(t->fmt72, "cpu=%p ", qe->fmt, qe->fmt_len) < 0)
		return -ENOMEM;
	return 0;
}

/* The arguments of r's line through its event's format. */
static int ql_args(struct qlog *q, struct ql_rec *r)
{
	struct ql_type *t = (struct ql_type *)r->t;

	if (!t->compiled && ql_compile(t) < 0)
		return -ENOMEM;
	r->first = 0;
	if (t->fmt72 && qemu_fmt_read(t->fmt72, t->q.qe, 0, r->info,
				      r->info_len, &r->v) == 0)
		return 1;
	r->first = t->q.qe->vcpu;
	return qemu_fmt_read(t->fmt, t->q.qe, r->first, r->info, r->info_len,
			     &r->v) == 0;
}

static int ql_next(struct source *src, struct event *ev, struct diag *d)
{
	struct qlog *q = src->priv;
	struct ql_rec *r = &q->rec;
	uint64_t ts = 0, tid = 0;
	const char *line, *s;
	size_t len, n, rest;
	bool has_tid, wrap;
	int ret;

	ret = ql_line(src, q, &line, &len, d);
	if (ret <= 0) {
		/* said once, at the end: a note (source.h), not an error */
		if (ret == 0 && q->unreadable && !q->reported) {
			q->reported = true;
			free(src->note);
			if ((q->unreadable == 1 ?
				     asprintf(&src->note, "line %" PRIu64 " cannot be read back through the formats of %s; its text is the key info",
					      q->first_unreadable, q->dict->path) :
				     asprintf(&src->note, "line %" PRIu64 " and %" PRIu64 " more lines cannot be read back through the formats of %s; their text is the key info",
					      q->first_unreadable, q->unreadable - 1,
					      q->dict->path)) < 0)
				src->note = NULL;
		}
		return ret;
	}
	r->line = line;
	r->line_len = len;
	n = ql_stamp(line, len, &ts, &tid, &has_tid, &wrap);
	if (wrap) {
		/* as --tsc-mhz says it: bad data, not a time that wrapped */
		diag_set(d, "%s:%" PRIu64 ": the stamp %.*s is more nanoseconds since 1970 than 64 bits hold (it is past 2554-07-21T23:34:33Z); this input stops here",
			 src->name, q->lineno, (int)(n > 1 ? n - 1 : n), line);
		q->in.pos = q->in.len;
		q->in.eof = true;
		return -EIO;
	}
	ev->has_ts = n != 0;
	if (!n)
		ts = q->last_ts;
	q->last_ts = ts;
	s = line + n;
	rest = len - n;
	for (n = 0; n < rest && ql_word((unsigned char)s[n]); n++)
		;
	r->t = &q->logtype;
	r->info = line + (s - line);
	r->info_len = rest;
	r->args_ok = false;
	if (n && (n == rest || s[n] == ' ')) {
		const struct qemu_event *qe = qemu_events_find(q->dict, s, n);

		if (qe) {
			r->t = &q->types[qe - q->dict->v];
			r->info = s + n + (n < rest);
			r->info_len = rest - n - (n < rest);
			ret = ql_args(q, r);
			if (ret < 0) {
				diag_set(d, "%s: out of memory", src->name);
				return ret;
			}
			r->args_ok = ret;
			/* not read back: a line of text, as any other message */
			if (!ret) {
				r->t = &q->logtype;
				r->info = s;
				r->info_len = rest;
			}
		}
	}
	if (!r->args_ok && !q->unreadable++)
		q->first_unreadable = q->lineno;
	ev->ts = ts;
	ev->raw_ts = ts;
	ev->seq = q->seq++;
	ev->cpu = 0;
	ev->pid = (int64_t)tid;
	/* cpu_index -1 (DMA, MSI outside a vCPU) names none */
	ev->has_vcpu = r->args_ok && r->t->q.qe->cpu_arg >= (int)r->first &&
		       r->v.u[r->t->q.qe->cpu_arg] <= INT32_MAX;
	ev->vcpu = ev->has_vcpu ? (uint32_t)r->v.u[r->t->q.qe->cpu_arg] : 0;
	ev->type = &r->t->q.t;
	ev->src = src;
	ev->rec = r;
	return 1;
}

/* info: the text after the name, as an argument past the last */
#define QL_INFO		QEMU_FIELD(QEMU_MAX_ARGS, 0)

static int ql_bind(struct source *src, const struct event_type *t,
		   const char *key)
{
	const struct ql_type *lt = (const struct ql_type *)t;
	int ret = qemu_arg_bind(lt ? lt->q.qe : NULL, key);

	if (ret == -ENOENT && !strcmp(key, "info"))
		return QL_INFO;
	return ret;
}

static int ql_field(struct source *src, const struct event *ev, int index,
		    struct value *out)
{
	const struct ql_rec *r = ev->rec;

	if (index == QL_INFO) {
		value_set_str(out, r->info, r->info_len);
		return 0;
	}
	if (!r->args_ok)
		return -ENOENT;
	return qemu_arg_value(r->t->q.qe, r->first, &r->v, index, out);
}

static size_t ql_fields(struct source *src, const struct event_type *t,
			const char **names, size_t max)
{
	const struct ql_type *lt = (const struct ql_type *)t;
	size_t n = qemu_arg_names(lt ? lt->q.qe : NULL, names, max);

	if (n < max)
		names[n++] = "info";
	return n;
}

static int ql_each_type(struct source *src,
			int (*fn)(const struct event_type *t, void *arg),
			void *arg)
{
	struct qlog *q = src->priv;
	size_t i;
	int ret = fn(&q->logtype.q.t, arg);

	for (i = 0; ret >= 0 && i < q->dict->n; i++)
		ret = fn(&q->types[i].q.t, arg);
	return ret < 0 ? ret : 0;
}

/* Without rules: the line as QEMU wrote it. */
static int ql_render_default(struct source *src, const struct event *ev,
			     struct outbuf *o)
{
	const struct ql_rec *r = ev->rec;

	if (outbuf_put(o, r->line, r->line_len) < 0 ||
	    outbuf_put(o, "\n", 1) < 0)
		return -ENOMEM;
	return 0;
}

const struct source_ops source_qemu_log_ops = {
	.kind = "QEMU log",
	.program = "QEMU",
	.stream = true,
	.probe = ql_probe,
	.open = ql_open,
	.next = ql_next,
	.close = ql_close,
	.bind = ql_bind,
	.field = ql_field,
	.fields = ql_fields,
	.each_type = ql_each_type,
	.render_default = ql_render_default,
};
