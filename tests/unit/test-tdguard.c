// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tracedat-guard against what libtraceevent reads printing an event: a
 * format it could not parse (no print fmt: TEP_EVENT_FL_FAILED) has its
 * fields printed raw, and a fixed-size text array with "%s", to its NUL.
 * A record whose array holds no NUL before the record's end, followed in
 * memory by other bytes ('Z' here, then a NUL), must print only what the
 * record holds (tdguard_info() hands libtraceevent a copy padded with
 * zeros); one with its NUL prints from the record itself, as before; so
 * a __data_loc array of u8 (text to libtraceevent, not to the guard's
 * record check). The tdformat fuzz target found the read past the record
 * (ASan).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "diag.h"
#include "tap.h"
#include "tracedat-guard.h"

/* an event format's head: its name and id, then the common fields */
#define HEAD(name, id)                                                      \
	"name: " name "\n"                                                  \
	"ID: " #id "\n"                                                      \
	"format:\n"                                                          \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"        \
	"\n"

static const char fmt_text[] = HEAD("textrun", 7)
	"\tfield:char name[4];\toffset:8;\tsize:4;\tsigned:0;\n";

static const char dyn_text[] = HEAD("dynrun", 8)
	"\tfield:__data_loc u8[] blob;\toffset:8;\tsize:4;\tsigned:0;\n";

/* the same field printed by a print fmt, as __get_str() */
static const char str_text[] = HEAD("strrun", 9)
	"\tfield:__data_loc u8[] blob;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"b=%s\", __get_str(blob)\n";

/*
 * ftrace's bprint (trace_printk()): its arguments in buf, read by the
 * format the printk table names for fmt ("x=%s", registered at 0x1000)
 */
static const char bprint_text[] = HEAD("bprint", 6)
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:const char * fmt;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:u32 buf[];\toffset:24;\tsize:0;\tsigned:0;\n"
	"\n"
	"print fmt: \"%ps: %s\", (void *)REC->ip, REC->fmt\n";

/*
 * The info of a 12-byte record of event 7 whose name is text (4 bytes),
 * or (ids 8, 9) of a 16-byte one whose blob, at 12, is text, or (id 6)
 * of a 28-byte bprint record whose buf is text
 */
static char *info_of(struct tep_handle *tep, struct tep_event *e,
		     const char text[4], int *rec_ret)
{
	unsigned char mem[64];
	struct tep_record rec;
	struct tdguard *g;
	struct trace_seq s;
	struct diag d;
	uint16_t type;
	int32_t pid = 42;
	char *out;

	/* after the record: bytes that are not its own, then a NUL */
	memset(mem, 'Z', sizeof(mem));
	mem[sizeof(mem) - 1] = '\0';
	memset(mem, 0, 12);
	type = (uint16_t)e->id;
	memcpy(mem, &type, 2);
	memcpy(mem + 4, &pid, 4);
	memset(&rec, 0, sizeof(rec));
	rec.data = mem;
	if (e->id == 6) {
		uint64_t ip = 0, fmt = 0x1000;

		memcpy(mem + 8, &ip, 8);
		memcpy(mem + 16, &fmt, 8);
		memcpy(mem + 24, text, 4);
		rec.size = 28;
	} else if (e->id != 7) {
		uint32_t loc = 4u << 16 | 12;	/* 4 bytes at 12 */

		memcpy(mem + 8, &loc, 4);
		memcpy(mem + 12, text, 4);
		rec.size = 16;
	} else {
		memcpy(mem + 8, text, 4);
		rec.size = 12;
	}
	rec.ts = 1;
	g = tdguard_create("test.dat", "trace.dat");
	if (!g)
		return NULL;
	diag_init(&d);
	*rec_ret = tdguard_record(g, tep, e, &rec, &d);
	trace_seq_init(&s);
	tdguard_info(g, tep, e, &s, &rec);
	trace_seq_terminate(&s);
	out = strdup(s.buffer ? s.buffer : "");
	trace_seq_destroy(&s);
	tdguard_destroy(g);
	return out;
}

/*
 * Event id of format text, parsed into tep (failed: libtraceevent could
 * not parse it, or could), then a record of it holding bytes (4): its
 * info must be expect exactly, and the record fit its format
 */
static void check(struct tap *t, struct tep_handle *tep, const char *text,
		  size_t len, int id, bool failed, const char bytes[4],
		  const char *expect, const char *what)
{
	struct tep_event *e;
	char *out;
	int ret = -1;

	tep_parse_event(tep, text, len, id == 6 ? "ftrace" : "test");
	e = tep_find_event(tep, id);
	if (!e || !(e->flags & TEP_EVENT_FL_FAILED) != !failed) {
		tap_ok(t, false, "%s: the format of event %d as expected", what, id);
		return;
	}
	out = info_of(tep, e, bytes, &ret);
	tap_ok(t, ret == 0 && out && !strcmp(out, expect),
	       "%s: '%s' (record %d)", what, out ? out : "(none)", ret);
	free(out);
}

int main(void)
{
	struct tap t = { 0 };
	struct tep_handle *tep = tep_alloc();

	tap_plan(6);
	if (!tep)
		return 99;
	tep_set_loglevel(TEP_LOG_NONE);
	tep_set_long_size(tep, 8);
	tep_set_page_size(tep, 4096);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	/* no print fmt: every field printed raw, char name[4] with "%s" */
	check(&t, tep, fmt_text, sizeof(fmt_text) - 1, 7, true, "ABCD",
	      "[FAILED TO PARSE] name=ABCD",
	      "a name without its NUL stops at the record's end");
	check(&t, tep, fmt_text, sizeof(fmt_text) - 1, 7, true, "AB\0D",
	      "[FAILED TO PARSE] name=AB", "a name with its NUL prints to it");
	check(&t, tep, fmt_text, sizeof(fmt_text) - 1, 7, true, "WXY",
	      "[FAILED TO PARSE] name=WXY", "three letters and a NUL");
	/* a __data_loc u8[]: text to libtraceevent, not to the guard */
	check(&t, tep, dyn_text, sizeof(dyn_text) - 1, 8, true, "EFGH",
	      "[FAILED TO PARSE] blob=EFGH",
	      "a __data_loc u8[] without its NUL, printed raw");
	check(&t, tep, str_text, sizeof(str_text) - 1, 9, false, "IJKL",
	      "b=IJKL", "the same printed by __get_str()");
	/* bprint: a string argument with strdup(), to its NUL */
	tep_register_print_string(tep, "\"x=%s\\n\"", 0x1000);
	check(&t, tep, bprint_text, sizeof(bprint_text) - 1, 6, false, "MNOP",
	      "0x0: x=MNOP", "a bprint string argument without its NUL");
	tep_free(tep);
	return t.failed ? 1 : 0;
}
