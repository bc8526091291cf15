// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QEMU's traces, the parts under the readers: trace-events lines as
 * tracetool reads them, log lines read back through their formats (one
 * reading, none, or more than one), and Python's repr() of bytes as
 * simpletrace.py prints strings.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "qemu.h"
#include "tap.h"

static const char dict_text[] =
	"# comment\n"
	"  # indented comment\n"
	"\n"
	"kvm_run_exit(int cpu_index, uint32_t reason) \"cpu_index %d, reason %d\"\n"
	"disable  foo_str(const char *name, void*p, const char* s2) \"name %s p %p s2 %s\"\n"
	"vcpu guest_cpu_reset(void) \"\"\n"
	"sizes(uint64_t a, int64_t b, unsigned int c, bool d, size_t e, long f) \"a 0x%\" PRIx64 \" b %\"PRId64\" c %u d %d e %zu f %ld\"\n"
	"hexint(int v, uint8_t w) \"v 0x%x w %#x\"\n"
	"twostr(const char *a, const char *b) \"a %s b %s\"\n"
	"quoted(const char *s) \"s '%s' \\\"q\\\"\"\n"
	"kvm_run_exit(int cpu_index, uint32_t reason, int again) \"cpu %d reason %d again %d\"\n";

static struct qemu_events *load(const char *text, struct diag *d)
{
	char path[] = "/tmp/ktf-qemu-dict.XXXXXX";
	int fd = mkstemp(path);
	struct qemu_events *e;

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		return NULL;
	close(fd);
	e = qemu_events_load(path, d);
	unlink(path);
	return e;
}

static int read_line(const struct qemu_event *qe, const char *prefix,
		     uint32_t first, const char *line, struct qemu_values *v)
{
	struct qemu_fmt f;
	int ret;

	if (qemu_fmt_compile(&f, prefix, qe->fmt, qe->fmt_len) < 0)
		return -ENOMEM;
	ret = qemu_fmt_read(&f, qe, first, line, strlen(line), v);
	qemu_fmt_free(&f);
	return ret;
}

static bool repr_is(const char *s, size_t len, const char *want)
{
	char buf[256], *end;

	if (qemu_bytes_repr_len((const unsigned char *)s, len) != strlen(want))
		return false;
	end = qemu_bytes_repr(buf, (const unsigned char *)s, len);
	return (size_t)(end - buf) == strlen(want) && !memcmp(buf, want, strlen(want));
}

int main(void)
{
	const struct qemu_event *qe;
	struct qemu_values v;
	struct qemu_events *e;
	struct tap t = { 0 };
	struct diag d;

	tap_plan(31);
	diag_init(&d);
	e = load(dict_text, &d);
	tap_ok(&t, e != NULL, "the dictionary loads (%s)", d.msg);
	if (!e)
		return 1;
	tap_ok(&t, e->n == 8, "8 events, comments and blank lines skipped (%zu)", e->n);
	qe = qemu_events_find(e, "kvm_run_exit", 12);
	tap_ok(&t, qe && qe->nargs == 3 && qe->lineno == 11,
	       "a name defined twice: the last definition wins");
	qe = qemu_events_find(e, "foo_str", 7);
	tap_ok(&t, qe && qe->nargs == 3 && !strcmp(qe->args[1].name, "p") &&
		       qe->args[0].kind == QEMU_ARG_STR &&
		       qe->args[1].kind == QEMU_ARG_U64 &&
		       qe->args[2].kind == QEMU_ARG_STR,
	       "disable; char *, void*p and const char* s2 as tracetool splits them");
	qe = qemu_events_find(e, "guest_cpu_reset", 15);
	tap_ok(&t, qe && qe->vcpu && qe->nargs == 1 &&
		       !strcmp(qe->args[0].name, "__cpu"),
	       "vcpu: the implicit void *__cpu first");
	qe = qemu_events_find(e, "sizes", 5);
	tap_ok(&t, qe && qe->args[0].kind == QEMU_ARG_U64 &&
		       qe->args[1].kind == QEMU_ARG_S64 &&
		       qe->args[2].kind == QEMU_ARG_U64 &&
		       qe->args[3].kind == QEMU_ARG_U64 &&
		       qe->args[4].kind == QEMU_ARG_U64 &&
		       qe->args[5].kind == QEMU_ARG_S64,
	       "signed and unsigned C types");
	tap_ok(&t, qemu_events_find(e, "kvm_run", 7) == NULL &&
		       qemu_events_find(e, "nosuch", 6) == NULL,
	       "a prefix of a name, or another name, is not found");

	qe = qemu_events_find(e, "kvm_run_exit", 12);
	tap_ok(&t, read_line(qe, "", 0, "cpu 1 reason 17 again -3", &v) == 0 &&
		       v.u[0] == 1 && v.u[1] == 17 && v.u[2] == (uint64_t)-3,
	       "a line read back: %%d, negative %%d");
	tap_ok(&t, read_line(qe, "", 0, "cpu 1 reason 17 again", &v) == -EINVAL,
	       "a line that does not fit: none");
	tap_ok(&t, read_line(qe, "", 0, "cpu 1 reason 17 again 3 ", &v) == -EINVAL,
	       "trailing text: none");
	tap_ok(&t, read_line(qe, "", 0, "cpu x reason 17 again 3", &v) == -EINVAL,
	       "letters for %%d: none");
	qe = qemu_events_find(e, "foo_str", 7);
	tap_ok(&t, read_line(qe, "", 0, "name hpet p (nil) s2 two words", &v) == 0 &&
		       v.slen[0] == 4 && !memcmp(v.s[0], "hpet", 4) &&
		       v.u[1] == 0 && v.slen[2] == 9,
	       "%%s, %%p (nil), a last %%s to the end");
	tap_ok(&t, read_line(qe, "", 0, "name  p 0x7f00 s2 ", &v) == 0 &&
		       v.slen[0] == 0 && v.u[1] == 0x7f00 && v.slen[2] == 0,
	       "empty strings, %%p in hex");
	tap_ok(&t, read_line(qe, "", 0, "name a p 0x1 s2 b p 0x2 s2 c", &v) == -EAGAIN,
	       "two readings fit: ambiguous");
	qe = qemu_events_find(e, "twostr", 6);
	tap_ok(&t, read_line(qe, "", 0, "a x b y b z", &v) == -EAGAIN,
	       "%%s then %%s with the literal inside: ambiguous");
	tap_ok(&t, read_line(qe, "", 0, "a x y b z", &v) == 0 && v.slen[0] == 3,
	       "%%s with blanks, one reading");
	qe = qemu_events_find(e, "sizes", 5);
	tap_ok(&t, read_line(qe, "", 0,
			     "a 0xffffffffffffffff b -9223372036854775808 c 4294967295 d 1 e 18446744073709551615 f -1",
			     &v) == 0 &&
		       v.u[0] == UINT64_MAX && v.u[1] == 1ull << 63 &&
		       v.u[2] == 4294967295u && v.u[4] == UINT64_MAX &&
		       v.u[5] == UINT64_MAX,
	       "PRIx64, PRId64 macros, %%zu, %%ld at their limits");
	qe = qemu_events_find(e, "hexint", 6);
	tap_ok(&t, read_line(qe, "", 0, "v 0xffffffea w 0xff", &v) == 0 &&
		       (int64_t)v.u[0] == -22 && v.u[1] == 255,
	       "an int printed with %%x is its signed value; %%#x");
	tap_ok(&t, read_line(qe, "", 0, "v 0x1f w 0", &v) == 0 && v.u[1] == 0,
	       "%%#x of 0 prints 0");
	qe = qemu_events_find(e, "quoted", 6);
	tap_ok(&t, read_line(qe, "", 0, "s 'it's' \"q\"", &v) == 0 &&
		       v.slen[0] == 4,
	       "escaped quotes in the format");
	qe = qemu_events_find(e, "guest_cpu_reset", 15);
	tap_ok(&t, read_line(qe, "cpu=%p ", 0, "cpu=0x55d0c3b1f000 ", &v) == 0 &&
		       v.u[0] == 0x55d0c3b1f000ull,
	       "7.2's vcpu prefix cpu=%%p");
	tap_ok(&t, read_line(qe, "", 1, "", &v) == 0,
	       "current QEMU's vcpu event: no __cpu");

	tap_ok(&t, repr_is("hpet", 4, "b'hpet'"), "b'hpet'");
	tap_ok(&t, repr_is("", 0, "b''"), "b''");
	tap_ok(&t, repr_is("it's", 4, "b\"it's\""), "a ' alone: double quotes");
	tap_ok(&t, repr_is("a'b\"c", 5, "b'a\\'b\"c'"), "both quotes: ' escaped");
	tap_ok(&t, repr_is("\t\n\r\\", 4, "b'\\t\\n\\r\\\\'"), "\\t \\n \\r \\\\");
	tap_ok(&t, repr_is("\x00\x1f\x7f\x80\xff", 5, "b'\\x00\\x1f\\x7f\\x80\\xff'"),
	       "other bytes as \\xNN");
	qemu_events_free(e);

	diag_init(&d);
	e = load("ok(int a) \"a %d\"\nbad(int a, ) \"x\"\n", &d);
	tap_ok(&t, !e && errno == EINVAL && strstr(d.msg, ":2:11: empty argument"),
	       "an empty argument: refused with its line and column (%s)", d.msg);
	diag_init(&d);
	e = load("bogus prop(int a) \"a %d\"\n", &d);
	tap_ok(&t, !e && strstr(d.msg, ":1:1: unknown property"),
	       "an unknown property: refused at its column (%s)", d.msg);
	diag_init(&d);
	e = load("ok(int a) \"a %d\"\n  x(int a) junk\n", &d);
	tap_ok(&t, !e && strstr(d.msg, ":2:12: text after the arguments"),
	       "text after the arguments: its column, the line's leading blanks counted (%s)",
	       d.msg);
	return t.failed ? 1 : 0;
}
