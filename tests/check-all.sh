#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The whole test suite, as the README and CI run it, from a fresh clone:
# build, make check, make distcheck, the CLI cases under valgrind (make
# check-valgrind), and make check again in a build with AddressSanitizer
# and UBSan (--enable-sanitizers). Prints one closing line
# "tests: N passed, N failed, N skipped".
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ -x configure ] || autoreconf -fi
pass=0 fail=0 skip=0
# count FILE.trs...: add their TAP results to the totals
count() {
	for f in "$@"; do
		pass=$((pass + $(grep -c '^:test-result: PASS' "$f" || true)))
		fail=$((fail + $(grep -c -E '^:test-result: (FAIL|XPASS|ERROR)' "$f" || true)))
		skip=$((skip + $(grep -c '^:test-result: SKIP' "$f" || true)))
	done
}
mkdir -p build/check
cd build/check
"$top/configure" --enable-werror --quiet
make -j2 --no-print-directory
status=0
make -j2 --no-print-directory check || status=$?
count $(find . -name '*.trs')
if [ "$status" -ne 0 ]; then
	find . -name '*.log' ! -name config.log ! -name test-suite.log \
		-exec grep -l -E '^(not ok|ERROR)' {} + 2>/dev/null |
		while read -r l; do echo "== $l"; grep -E '^(not ok|#)' "$l" | head -40; done
fi
if [ "$status" -eq 0 ]; then
	make -j2 --no-print-directory distcheck \
		DISTCHECK_CONFIGURE_FLAGS=--enable-werror > distcheck.log 2>&1 ||
		{ tail -40 distcheck.log; echo "distcheck failed"; status=1; }
fi
if [ "$status" -eq 0 ] && command -v valgrind > /dev/null; then
	# the CLI cases and the hostile-input table again, under memcheck
	make --no-print-directory check-valgrind > valgrind.log 2>&1 || {
		grep -E '^(not ok|FAIL|ERROR|==|check-valgrind)' valgrind.log | head -60
		echo "make check-valgrind failed"
		status=1
	}
	tail -1 valgrind.log
	count $(find tests/cli tests -maxdepth 1 -name '*.trs')
fi
if [ "$status" -eq 0 ]; then
	mkdir -p "$top/build/asan"
	cd "$top/build/asan"
	"$top/configure" --enable-werror --enable-sanitizers --quiet
	make -j2 --no-print-directory > build.log 2>&1 || { tail -20 build.log; status=1; }
	if [ "$status" -eq 0 ]; then
		make -j2 --no-print-directory check > check.log 2>&1 || {
			grep -E '^(FAIL|ERROR)' check.log
			echo "make check under the sanitizers failed"
			status=1
		}
		count $(find . -name '*.trs')
	fi
fi
echo "tests: $pass passed, $fail failed, $skip skipped"
exit "$status"
