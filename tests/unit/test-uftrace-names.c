// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Mangled names in the simple form `uftrace dump` (uftrace 0.13) prints
 * them, through libiberty and uftrace-names.c's spelling. The C++ ones
 * are those of tests/fixtures/uftrace/ktf-names (g++ 12) and ktf-cxx;
 * the Rust one is a legacy name with a suffix after its hash, as LLVM's
 * ThinLTO writes it. Issue 38's (uftrace 0.13's own spellings, checked
 * against its dump: tests/gen/gen-uftrace-names.py) follow them.
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
	{ "_ZNSo6sentryC1ERSo", "std::basic_ostream::sentry::sentry" },
	{ "_ZNSi6ignoreEl", "std::basic_istream::ignore" },
	{ "_ZNSdaSEOSd", "std::basic_iostream::operator=" },
	{ "_ZNSs7reserveEm", "std::basic_string<>::reserve" },
	{ "_ZNSsC1EPKcRKSaIcE", "std::basic_string<>::basic_string<>" },
	{ "_ZNSsD1Ev", "std::basic_string<>::~basic_string<>" },
	{ "_ZNSbIwSt11char_traitsIwESaIwEEC1Ev", "std::basic_string::basic_string" },
	{ "_ZNK5boost9function0IvEcvMNS1_5dummyEFvvEEv",
	  "boost::function0::operator(cast)" },
	{ "_ZNK2cv6StringcvNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEB5cxx11Ev",
	  "cv::String::operator(cast)::cxx11" },
	{ "_ZNSt8ios_base7failureB5cxx11D0Ev", "std::ios_base::failure::cxx11::~cxx11" },
	{ "_ZThn16_NSt7__cxx1118basic_stringstreamIcSt11char_traitsIcESaIcEED0Ev",
	  "std::__cxx11::basic_stringstream::~basic_stringstream" },
	{ "_ZTv0_n24_NSt13basic_fstreamIcSt11char_traitsIcEED1Ev",
	  "std::basic_fstream::~basic_fstream" },
	{ "_ZGTtNKSt11logic_error4whatEv", "std::logic_error::what" },
	{ "_ZN44_$LT$$RF$T$u20$as$u20$core..fmt..Display$GT$3fmt17hc2e7d4b03e27f5b3E",
	  "_<&T as core..fmt..Display>::fmt" },
	{ "_ZN4core3num23_$LT$impl$u20$usize$GT$11checked_mul17hb0c552a4ddf441b8E.llvm.8",
	  "core::num::_<impl usize>::checked_mul" },
	{ "_ZN42_$LT$$u21$$u20$as$u20$core..fmt..Debug$GT$3fmt17h017da54df1eca3bcE",
	  "_<$u21$$u20$as$u20$core..fmt..Debug$GT$::fmt" },
	{ "_ZN3ktf11a$u5c$b$LT$17h0123456789abcdefE", "ktf::aa$u5c$b$LT$" },
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
