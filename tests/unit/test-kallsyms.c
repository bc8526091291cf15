// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tc_parse_kallsyms() against libtraceevent's tep_parse_kallsyms(): the
 * same text into two handles, then the two tables compared: the one
 * tep_print_funcs() prints of the first (address, name, module, in the
 * order of the sorted table) against ours in the same form, and lookups
 * at and around every address (the second handle looks up through our
 * table, its function resolver). The texts: the usual lines with and
 * without modules, the lines libtraceevent skips ('$' names, types A and
 * a), lines of other shapes (white space, a "0x", 17 digits, a module
 * after spaces), a line it cannot read (it stops there), addresses that
 * fall (modules after the kernel, a run out of order) and a table of
 * pseudo-random symbols with repeated addresses in runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "tap.h"
#include "tracecmd.h"

/* what tep_print_funcs() prints of tep (it writes to stdout): malloc'd */
static char *funcs_text(struct tep_handle *tep)
{
	char path[] = "/tmp/ktf-test-kallsyms.XXXXXX", *text = NULL;
	int fd = mkstemp(path), saved;
	long len;
	FILE *f;

	if (fd < 0)
		return NULL;
	unlink(path);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	dup2(fd, STDOUT_FILENO);
	tep_print_funcs(tep);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	f = fdopen(fd, "r");
	if (!f)
		return NULL;
	len = lseek(fd, 0, SEEK_END);
	rewind(f);
	text = calloc(1, (size_t)len + 1);
	if (text && fread(text, 1, (size_t)len, f) != (size_t)len) {
		free(text);
		text = NULL;
	}
	fclose(f);
	return text;
}

/* our table as tep_print_funcs() prints libtraceevent's: malloc'd */
static char *our_funcs_text(const struct tc_funcs *fs)
{
	unsigned long long addr;
	const char *name, *mod;
	char *text = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	for (i = 0; (name = tc_funcs_at(fs, i, &addr, &mod)); i++) {
		fprintf(f, "%016llx %s", addr, name);
		if (mod)
			fprintf(f, " [%s]\n", mod);
		else
			fprintf(f, "\n");
	}
	fclose(f);
	return text;
}

/*
 * Do the two handles resolve addr alike (name, start, module as
 * tep_print_func_field() would not show it: name and start)? The size
 * tep_find_function_info() gives is 0 through a resolver.
 */
static bool same_at(struct tep_handle *a, struct tep_handle *b,
		    unsigned long long addr)
{
	unsigned long long sa = 0, sb = 0;
	const char *na = NULL, *nb = NULL;
	int fa = tep_find_function_info(a, addr, &na, &sa, NULL);
	int fb = tep_find_function_info(b, addr, &nb, &sb, NULL);

	if (fa != fb || tep_find_function_address(a, addr) !=
				tep_find_function_address(b, addr))
		return false;
	return !fa || (sa == sb && !strcmp(na, nb));
}

static void compare(struct tap *t, const char *text, const char *desc)
{
	struct tep_handle *a = tep_alloc(), *b = tep_alloc();
	struct tc_funcs fs = { 0 };
	unsigned long long addr;
	char *ta = NULL, *tb = NULL, *copy = strdup(text);
	const char *p;
	int ra, rb;
	bool ok;

	if (!a || !b || !copy) {
		tap_ok(t, false, "%s: out of memory", desc);
		goto out;
	}
	tep_set_loglevel(TEP_LOG_NONE);
	ra = tep_parse_kallsyms(a, text);
	rb = tc_parse_kallsyms(b, &fs, copy);	/* takes copy, cuts it up */
	copy = NULL;
	ta = funcs_text(a);
	tb = our_funcs_text(&fs);
	ok = ra == rb && ta && tb && !strcmp(ta, tb);
	/* every address the text names, and its neighbours */
	for (p = text; ok && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "") {
		if (sscanf(p, "%llx", &addr) != 1)
			continue;
		ok = same_at(a, b, addr) && same_at(a, b, addr - 1) &&
		     same_at(a, b, addr + 1);
	}
	if (!ok)
		tap_diag("returned %d and %d; tables:\n%s---\n%s", ra, rb,
			 ta ? ta : "(none)", tb ? tb : "(none)");
	tap_ok(t, ok, "%s", desc);
out:
	free(copy);
	free(ta);
	free(tb);
	tep_free(a);
	tep_free(b);
	tc_funcs_free(&fs);
}

/* n pseudo-random lines, some addresses repeated, some with modules */
static char *random_table(unsigned n)
{
	static const char types[] = "TtWwDdBbRrAa";
	uint64_t x = 0x9e3779b97f4a7c15ull, addr = 0xffffffff81000000ull;
	char *text = malloc((size_t)n * 64 + 1), *p = text;
	unsigned i;

	if (!text)
		return NULL;
	for (i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		if (x >> 60)
			addr += (x >> 40) & 0xfff;	/* 1 in 16 repeats */
		if (!((x >> 24) & 1023))		/* a new run, lower */
			addr -= (x >> 34) & 0xfffff;
		p += sprintf(p, "%016llx %c fn_%u", (unsigned long long)addr,
			     types[(x >> 20) % (sizeof(types) - 1)], i);
		if (((x >> 30) & 7) == 0)
			p += sprintf(p, "\t[mod%u]", (unsigned)(x >> 50) & 15);
		*p++ = '\n';
	}
	*p = '\0';
	return text;
}

#define TEST_PLAN 7

int main(void)
{
	struct tap t = { 0 };
	char *big;

	tap_plan(TEST_PLAN);
	compare(&t,
		"ffffffff81000000 T _stext\n"
		"ffffffff81000100 t helper\n"
		"ffffffff81000100 T helper_alias\n"
		"ffffffffc0001000 t mod_fn\t[kvm]\n"
		"ffffffffc0002000 T Mod_Fn\t[kvm_intel]\n"
		"ffffffffc0003000 d data\t[kvm]\n",
		"the usual lines, with and without modules");
	compare(&t,
		"ffffffff81000000 T first\n"
		"\n\n"
		"ffffffff81000010 t $a\n"
		"0000000000000000 A fixed_percpu_data\n"
		"0000000000001000 a local_abs\n"
		"FFFFFFFF81000020 T upper_hex\n"
		"ffffffff81000030 T last",
		"skipped lines, empty lines, upper-case digits, no last newline");
	compare(&t,
		"  ffffffff81000000 T leading_space\n"
		"0xffffffff81000010 T with_0x\n"
		"ffffffff81000020  T two_spaces\n"
		"ffffffff81000030 T  two_after\n"
		"ffffffff81000040\tT tab_between\n"
		"ffffffff81000050 T name\t[ spaced]\n"
		"ffffffff81000060 T name2 [notmod]\n"
		"ffffffff81000070 T name3\t[]\n"
		"ffffffff81000080 T name4\t[m] extra\n"
		"ffffffff81000090 T name5\r\n"
		"1ffffffff810000a0 T seventeen\n"
		"ffffffff810000b0 Tjoined\n",
		"lines of other shapes");
	compare(&t,
		"ffffffffc0002000 t m2_fn\t[m2]\n"
		"ffffffffc0002000 t m2_alias\t[m2]\n"
		"ffffffffc0002100 t m2_last\t[m2]\n"
		"ffffffff81000000 T _stext\n"
		"ffffffff81000000 T startup_64\n"
		"ffffffff81000100 T helper\n"
		"ffffffff81000100 T helper2\n"
		"ffffffff81000100 T helper3\n"
		"ffffffffc0001000 t m1_fn\t[m1]\n"
		"ffffffffc0002000 t m1_at_m2\t[m1]\n"
		"ffffffff81000100 T helper4\n"
		"ffffffff81000000 T again\n"
		"ffffffffc0003000 t m3\t[m3]\n",
		"runs out of order, functions at one address across runs");
	compare(&t,
		"ffffffff81000000 T before\n"
		"ffffffff81000010 T\n"
		"ffffffff81000020 T after\n",
		"a line without a name: both stop there");
	compare(&t,
		"ffffffff81000000 T before\n"
		"not a line\n"
		"ffffffff81000020 T after\n",
		"a line without an address: both stop there");
	big = random_table(20000);
	if (big)
		compare(&t, big, "20000 pseudo-random symbols");
	else
		tap_ok(&t, false, "20000 pseudo-random symbols: out of memory");
	free(big);
	if (t.n != TEST_PLAN)
		tap_diag("planned %d tests, ran %d", TEST_PLAN, t.n);
	return 0;
}
