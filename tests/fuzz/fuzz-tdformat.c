/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: an event format that lies, and a record, through
 * tracedat-guard and libtraceevent's printing (the `info` of a trace.dat
 * event): tdguard_record() must refuse every record a field of the format
 * lies outside of, and tdguard_info() must come back from whatever the
 * print fmt does (divide by zero, index out of range, recurse, loop) and
 * never let libtraceevent read past the record (text without its NUL:
 * regress/tdformat-failed-text-overread).
 *
 * Input: a little-endian u16 L, L bytes of record, then the text of an
 * event format as a trace.dat holds it ("name: …\nID: …\nformat:\n…\n
 * print fmt: …"). The record's common_type is set to the format's id, so
 * that libtraceevent finds the format. run-fuzz.sh seeds it with the
 * formats of the trace.dat fixtures.
 *
 * libtraceevent 1.7.1's format parser itself crashes on some formats; the
 * reader parses formats in a child process (tc_guarded_open()) and refuses
 * such files, so here a parse that faults only ends the input.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "diag.h"
#include "tracedat/tracedat-guard.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* signal handler state (the parse trap) */
static sigjmp_buf parse_env;

static void parse_fault(int sig)
{
	siglongjmp(parse_env, sig);
}

/* tep_parse_event(), or -2 when it faults (the reader's child would). */
static int parse_guarded(struct tep_handle *tep, const char *text, size_t n)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
	struct sigaction sa, old[4];
	volatile int ret = -1;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = parse_fault;
	sa.sa_flags = SA_NODEFER;
	for (i = 0; i < 4; i++)
		sigaction(sigs[i], &sa, &old[i]);
	if (sigsetjmp(parse_env, 0) == 0)
		ret = tep_parse_event(tep, text, n, "fuzz");
	else
		ret = -2;
	for (i = 0; i < 4; i++)
		sigaction(sigs[i], &old[i], NULL);
	return ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tep_format_field *type;
	struct tep_record rec;
	struct tep_handle *tep;
	struct tep_event *e;
	struct tdguard *g;
	struct trace_seq s;
	struct diag d;
	size_t len;
	char *text;
	void *buf;
	int ret;

	if (size < 2)
		return 0;
	len = (size_t)data[0] | (size_t)data[1] << 8;
	if (len > size - 2)
		len = size - 2;
	buf = malloc(len ? len : 1);
	text = malloc(size - 2 - len + 1);
	if (!buf || !text)
		goto end;
	memcpy(buf, data + 2, len);
	memcpy(text, data + 2 + len, size - 2 - len);
	text[size - 2 - len] = '\0';

	tep = tep_alloc();
	if (!tep)
		goto end;
	tep_set_loglevel(TEP_LOG_NONE);
	tep_set_long_size(tep, 8);
	tep_set_page_size(tep, 4096);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	ret = parse_guarded(tep, text, size - 2 - len);
	if (ret == -2)
		goto end;	/* half made: leaked, not freed */
	if (ret != 0 || !(e = tep_get_event(tep, 0))) {
		tep_free(tep);
		goto end;
	}
	type = tep_find_common_field(e, "common_type");
	if (type && type->offset >= 0 && type->size > 0 && type->size <= 8 &&
	    (size_t)type->offset + (size_t)type->size <= len) {
		uint64_t id = (uint64_t)e->id;

		memcpy((char *)buf + type->offset, &id, (size_t)type->size);
	}
	memset(&rec, 0, sizeof(rec));
	rec.data = buf;
	rec.size = (int)len;
	rec.ts = 1;
	g = tdguard_create("fuzz.dat", "trace.dat");
	if (g) {
		diag_init(&d);
		if (tdguard_record(g, tep, e, &rec, &d) == 0) {
			trace_seq_init(&s);
			tdguard_info(g, tep, e, &s, &rec);
			trace_seq_destroy(&s);
		}
		tdguard_destroy(g);
	}
	tep_free(tep);
end:
	free(buf);
	free(text);
	return 0;
}
