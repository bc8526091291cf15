// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Mangled names in the simple form `uftrace dump` (uftrace 0.13) prints
 * them, through libiberty and uftrace-names.c's spelling. The C++ ones
 * are those of tests/fixtures/uftrace/ktf-names (g++ 12) and ktf-cxx;
 * the Rust one is a legacy name with a suffix after its hash, as LLVM's
 * ThinLTO writes it.
 */
#include <stdlib.h>
#include <string.h>

#include "sources/uftrace/uftrace-int.h"
#include "sources/uftrace/uftrace-demangle.h"
#include "tap.h"

static const struct {
	const char *raw;
	const char *want;
} cases[] = {
	{ "_GLOBAL__sub_I__ZN3ABC3fooEv", "_GLOBAL__sub_I_ABC::foo" },
	{ "_GLOBAL__sub_I__Z6taggedB5cxx11i", "_GLOBAL__sub_I_tagged::cxx11" },
	{ "_Z14std_string_retB5cxx11i", "std_string_ret::cxx11" },
	{ "_ZZ5outericEN5GuardC2Ei", "outer::Guard::Guard" },
	{ "_ZZ5outericEN5GuardD2Ev", "outer::Guard::~Guard" },
	{ "_ZN7DerivedCI24BaseEi", "Derived::Derived" },
	{ "_ZN7DerivedCI14BaseEi", "Derived::Derived" },
	{ "_ZN12_GLOBAL__N_16hiddenEi", "_GLOBAL__N_1::hidden" },
	{ "_ZZ4mainENKUliiE_clEii", "main::$_0::operator()" },
	{ "_ZZ4mainENKUliiE0_clEii", "main::$_1::operator()" },
	{ "_ZNSt6vectorIiSaIiEE9push_backERKi", "std::vector::push_back" },
	{ "_ZN3std6thread5local4fast12Key$LT$T$GT$14try_initialize17h0123456789abcdefE.llvm.1234",
	  "std::thread::local::fast::Key<T>::try_initialize" },
	{ "_ZN3std6thread5local4fast12Key$LT$T$GT$14try_initialize17h0123456789abcdefE",
	  "std::thread::local::fast::Key<T>::try_initialize" },
	{ "_GLOBAL__sub_I_main.cpp", NULL },
	{ "main", NULL },
};

int main(void)
{
	struct tap t = { 0 };
	size_t i, n = sizeof(cases) / sizeof(cases[0]);

	if (!UFT_HAVE_DEMANGLER) {
		printf("1..0 # SKIP built without libiberty\n");
		return 0;
	}
	tap_plan((int)n);
	for (i = 0; i < n; i++) {
		char *got = uft_simple_name(cases[i].raw);

		if (!tap_ok(&t, cases[i].want ? got && !strcmp(got, cases[i].want)
					      : !got,
			    "%s", cases[i].raw))
			tap_diag("got %s, want %s", got ? got : "(none)",
				 cases[i].want ? cases[i].want : "(none)");
		free(got);
	}
	return t.failed ? 1 : 0;
}
