// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libtraceevent's text of kvm_emulate_insn, made by hand: its kvm plugin
 * (plugin_kvm.c, libtraceevent 1.5 to 1.8) prints it with five
 * tep_get_field_val() (a field looked up by name, strcmp() each) and
 * fifteen sprintf("%02x ") at most, the text of about 5,500 instructions
 * an event; in a kvm trace it is often the most frequent event (43 % of
 * the bench-table's trace.dat, whose %(info)s spends 75 % of its time in
 * tep_print_event()). Its handler prints
 *
 *	"%llx:%llx" csbase, rip; the guest function of rip when the kvm
 *	plugin can name one (tep_plugin_kvm_get_func(): a paired guest);
 *	": %s%s" the len bytes of insn, "%02x" each, a space between, and
 *	" FAIL" when failed is not 0,
 *
 * with udis86 absent (Debian's and the upstream default build). Only that
 * case is made here, checked once a type: the event's handler is the kvm
 * plugin's, its fields are the five numbers and the insn array of the
 * kernel's format; and each event: no guest names rips, len <= 15 and
 * within insn (past that the plugin writes and reads past its buffers),
 * the record whole. Anything else goes through tep_print_event() as
 * before.
 *
 * The plugin keeps the bytes' text in a static buffer, and an event of
 * len 0 (an emulation that failed before fetching a byte) leaves it as
 * it was: such an event prints the bytes of the one before it. So the
 * text of the bytes we made last is kept (tc->kt_last); when the plugin
 * printed one since (tc->kt_plugin), or none was made yet, an event of
 * len 0 goes to the plugin, whose buffer then holds what trace-cmd's
 * would. (Two inputs share the plugin's buffer in trace-cmd report, not
 * tc->kt_last here: a len 0 event after another input's may differ.)
 */
#include <dlfcn.h>
#include <errno.h>
#include <string.h>

#include "tracecmd.h"

enum { TC_KT_RIP, TC_KT_CSBASE, TC_KT_LEN, TC_KT_FLAGS, TC_KT_FAILED,
       TC_KT_INSN, TC_KT_NFIELDS };

/*
 * Is fn's code in libtraceevent's kvm plugin, built without udis86 (a
 * plugin built with it disassembles; it needs ud_init())?
 */
static bool tc_kt_plugin_kvm(const void *fn)
{
	const char *base;
	bool udis;
	Dl_info di;
	void *h;

	if (!dladdr(fn, &di) || !di.dli_fname)
		return false;
	base = strrchr(di.dli_fname, '/');
	base = base ? base + 1 : di.dli_fname;
	if (strcmp(base, "plugin_kvm.so"))
		return false;
	h = dlopen(di.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
	if (!h)
		return false;
	udis = dlsym(h, "ud_init") != NULL;
	dlclose(h);
	return !udis;
}

/* a number field tep_get_field_val() reads */
static bool tc_kt_number(const struct tep_format_field *f)
{
	return f && !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC |
				  TEP_FIELD_IS_RELATIVE)) &&
	       (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8);
}

void tc_kvmtext_bind(struct tc_type *t)
{
	static const char *const names[TC_KT_NFIELDS] = {
		"rip", "csbase", "len", "flags", "failed", "insn",
	};
	const struct tep_event *e = t->ev;
	int i;

	t->kt = TC_KT_NONE;
	if (!e || !e->system || !e->name || strcmp(e->system, "kvm") ||
	    strcmp(e->name, "kvm_emulate_insn") || !e->handler ||
	    (e->flags & (TEP_EVENT_FL_NOHANDLE | TEP_EVENT_FL_PRINTRAW |
			 TEP_EVENT_FL_FAILED)) ||
	    !tc_kt_plugin_kvm((const void *)e->handler))
		return;
	for (i = 0; i < TC_KT_NFIELDS; i++) {
		t->kt_f[i] = tep_find_field((struct tep_event *)e, names[i]);
		if (!t->kt_f[i])
			return;
		if (i < TC_KT_INSN && !tc_kt_number(t->kt_f[i]))
			return;
	}
	/* u8 insn[15]: tep_get_field_raw() gives its place and size */
	if (!(t->kt_f[TC_KT_INSN]->flags & TEP_FIELD_IS_ARRAY) ||
	    (t->kt_f[TC_KT_INSN]->flags &
	     (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_RELATIVE)))
		return;
	t->kt = TC_KT_EMULATE_INSN;
}

/* "%llx" of v at p; the end */
static char *tc_kt_hex(char *p, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	int n = (67 - __builtin_clzll(v | 1)) >> 2;
	char *end = p + n;

	while (n--) {
		p[n] = digits[v & 15];
		v >>= 4;
	}
	return end;
}

const char *tc_kvmtext(struct tc *tc, const struct tc_type *t,
		       const struct tep_record *rec, size_t *len)
{
	static const char digits[] = "0123456789abcdef";
	const char *data = rec->data;
	const struct tep_format_field *const *f = t->kt_f;
	uint64_t v[TC_KT_INSN];
	const unsigned char *insn;
	char *p = tc->kt_text;
	int i;

	if (tc_vm_names_rips())
		return NULL;
	for (i = 0; i < TC_KT_NFIELDS; i++)
		if ((uint64_t)f[i]->offset + (uint64_t)f[i]->size >
		    (uint64_t)rec->size)
			return NULL;
	for (i = 0; i < TC_KT_INSN; i++)
		v[i] = tc_read(tc, data + f[i]->offset, f[i]->size);
	if (v[TC_KT_LEN] > 15 || v[TC_KT_LEN] > (uint64_t)f[TC_KT_INSN]->size)
		return NULL;
	if (!v[TC_KT_LEN] && (tc->kt_plugin || !tc->kt_lastlen))
		return NULL;
	if (v[TC_KT_LEN]) {
		/* disassemble(): "%02x " each, the last space cut */
		insn = (const unsigned char *)data + f[TC_KT_INSN]->offset;
		for (i = 0; i < (int)v[TC_KT_LEN]; i++) {
			tc->kt_last[3 * i] = digits[insn[i] >> 4];
			tc->kt_last[3 * i + 1] = digits[insn[i] & 15];
			tc->kt_last[3 * i + 2] = ' ';
		}
		tc->kt_lastlen = (uint8_t)(3 * v[TC_KT_LEN] - 1);
		tc->kt_plugin = false;
	}
	p = tc_kt_hex(p, v[TC_KT_CSBASE]);
	*p++ = ':';
	p = tc_kt_hex(p, v[TC_KT_RIP]);
	*p++ = ':';
	*p++ = ' ';
	memcpy(p, tc->kt_last, tc->kt_lastlen);
	p += tc->kt_lastlen;
	if (v[TC_KT_FAILED]) {
		memcpy(p, " FAIL", 5);
		p += 5;
	}
	*len = (size_t)(p - tc->kt_text);
	return tc->kt_text;
}
