// SPDX-License-Identifier: GPL-2.0-or-later
/* The distance of typos that "did you mean" offers (rules-names.c). */
#include <stdio.h>
#include <string.h>

#include "rules-names.h"
#include "tap.h"

struct dist_case {
	const char *a, *b;
	size_t want;
};

static const struct dist_case cases[] = {
	{ "kvm_exit", "kvm_exit", 0 },
	{ "kvm_exti", "kvm_exit", 1 },		/* a swap is one edit */
	{ "VMEXTI", "VMEXIT", 1 },
	{ "kvm_usrspace_exit", "kvm_userspace_exit", 1 },
	{ "kvm_entry", "ccm_entry", 2 },
	{ "kvm_exti", "kvm_eoi", 2 },
	{ "kvm_io_exit", "kvm_run_exit", 3 },
	{ "ab", "ba", 1 },
	{ "abc", "ca", 3 },			/* no edit inside a swap */
	{ "", "abc", 3 },
};

int main(void)
{
	size_t n = sizeof(cases) / sizeof(cases[0]), i;
	struct tap t = { 0 };
	char longer[200];

	tap_plan((int)n + 5);
	for (i = 0; i < n; i++) {
		size_t d = rules_names_dist(cases[i].a, cases[i].b, 100);
		size_t back = rules_names_dist(cases[i].b, cases[i].a, 100);

		tap_ok(&t, d == cases[i].want && back == d,
		       "%s ~ %s: %zu (got %zu, back %zu)", cases[i].a,
		       cases[i].b, cases[i].want, d, back);
	}
	tap_ok(&t, rules_names_dist("kvm_io_exit", "kvm_run_exit", 3) == 3,
	       "at the cap: the cap");
	memset(longer, 'a', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	tap_ok(&t, rules_names_dist(longer, longer, 5) == 5,
	       "names of 128 bytes or more: the cap");
	/* one edit in four characters, one for the shortest */
	tap_ok(&t, rules_names_cap("VMEXTI") == 2 && rules_names_cap("abc") == 1,
	       "short names: one edit (cap %zu)", rules_names_cap("VMEXTI"));
	tap_ok(&t, rules_names_cap("kvm_entry") == 3,
	       "kvm_entry: two edits, and ccm_entry is two away: the system decides");
	tap_ok(&t, rules_names_cap("kvm:kvm_entry") == 4 &&
		   rules_names_dist("kvm:kvm_entry", "qemu:ccm_entry", 4) == 4,
	       "kvm:kvm_entry against qemu:ccm_entry: beyond");
	return t.failed ? 1 : 0;
}
