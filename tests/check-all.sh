#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The whole test suite, as the README and CI run it, from a fresh clone
# (after the README's first command). Stages, each with a line of progress:
#
#   build      configure --enable-werror and make, in build/check
#   valgrind   the CLI cases and the hostile-input table, in build/check
#              (make check-valgrind): under memcheck each test's first run
#              with given inputs and options, the others natively
#              (tests/valgrind.sh says why)
#   native     the rest of `make check` (units, large generated inputs,
#              live, contrib) on the same build (make check-native): with
#              the stage before, the plain build's whole `make check`
#   distcheck  make distcheck with --enable-sanitizers: the tarball builds
#              under ASan and UBSan, the whole `make check` passes on it
#              (every run of every case, those valgrind chose out too),
#              installs and uninstalls. One build and one run of the suite
#              serve both: a plain distcheck and a separate ASan build ran
#              the same suite twice (big inputs included) for no more
#              checks than this.
#
# Each line ends with the stage's wall time and its CPU time (user and
# system of every process it ran), which does not grow when other work
# shares the CPUs. Details are printed for failures only (the logs stay in
# build/check). Ends with "tests: N passed, N failed, N skipped" and exits 1
# when anything failed. For quick work, `make check` in a build directory.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
pass=0 fail=0 skip=0 status=0
t_all=$(date +%s)

if [ -f config.status ]; then
	echo "check-all: $top is configured in the tree (config.status): run 'make distclean' there first; build in build/DIR instead" >&2
	exit 1
fi
if [ ! -x configure ]; then
	autoreconf -fi > /dev/null 2>&1 || { echo "check-all: autoreconf -fi failed" >&2; exit 1; }
fi

# count_trs FILE...: add the TAP results of .trs files to the totals
count_trs() {
	for f in "$@"; do
		pass=$((pass + $(grep -c '^:test-result: PASS' "$f")))
		fail=$((fail + $(grep -c -E '^:test-result: (FAIL|XPASS|ERROR)' "$f")))
		skip=$((skip + $(grep -c -E '^:test-result: (SKIP|XFAIL)' "$f")))
	done
}
# count_log LOG: add the results a `make check` printed (one line each)
count_log() {
	pass=$((pass + $(grep -c '^PASS: ' "$1")))
	fail=$((fail + $(grep -c -E '^(FAIL|XPASS|ERROR): ' "$1")))
	skip=$((skip + $(grep -c -E '^(SKIP|XFAIL): ' "$1")))
}
# failures DIR: the failed results and their diagnostics, from the logs
failures() {
	find "$1" -name '*.log' ! -name config.log ! -name 'test-suite*.log' \
		! -name '*build.log' ! -name 'check*.log' ! -name distcheck.log \
		-exec grep -l -E '^(not ok|Bail out!)' {} + 2> /dev/null |
	while read -r l; do
		echo "  == ${l#"$top"/}"
		grep -A8 -E '^(not ok|Bail out!)' "$l" | grep -v '^ok ' | head -40 |
			sed 's/^/    /'
	done
}
# cpu: cpu_s, the seconds of CPU (user and system) of every process this
# script has waited for so far (`times` in this shell, not in $(...): a
# subshell's count starts at 0)
cpu() {
	times > "$top/build/.check-all-times"
	cpu_s=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/)
		printf "%d\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' \
		"$top/build/.check-all-times")
}
# stage NAME: start a stage's progress line
stage() {
	t0=$(date +%s)
	cpu
	c0=$cpu_s
	printf '%-10s ... ' "$1"
}
# done_stage RESULT: finish it
done_stage() {
	cpu
	echo "$1 ($(($(date +%s) - t0)) s, $((cpu_s - c0)) s CPU)"
}

# ------------------------------------------------------------- build
mkdir -p build/check
cd build/check || exit 1
stage build
if "$top/configure" --enable-werror --quiet > build.log 2>&1 &&
   make -j2 --no-print-directory >> build.log 2>&1; then
	done_stage ok
else
	done_stage FAILED
	tail -30 build.log | sed 's/^/  /'
	echo "tests: $pass passed, $fail failed, $skip skipped (the build failed)"
	exit 1
fi

# ---------------------------------------------------------- valgrind
stage valgrind
if ! command -v valgrind > /dev/null; then
	done_stage "FAILED: valgrind not found (apt-get install valgrind)"
	status=1
	fail=$((fail + 1))
else
	find tests -name '*.trs' -exec rm -f {} +
	make -j2 --no-print-directory check-valgrind > valgrind.log 2>&1
	rc=$?
	f0=$fail
	count_trs $(find tests -name '*.trs')
	if [ "$rc" -eq 0 ]; then
		done_stage "ok, $(tail -1 valgrind.log | sed 's/^check-valgrind: //')"
	else
		done_stage FAILED
		status=1
		failures "$top/build/check/tests"
		grep -E '^(==|check-valgrind)' valgrind.log | head -40 | sed 's/^/  /'
		[ "$fail" -gt "$f0" ] || fail=$((fail + 1))
		echo "  (whole log: build/check/valgrind.log)"
	fi
fi

# ------------------------------------------------------------ native
stage native
find tests -name '*.trs' -exec rm -f {} +
make -j2 --no-print-directory check-native > native.log 2>&1
rc=$?
f0=$fail
count_log native.log
if [ "$rc" -eq 0 ]; then
	done_stage "ok, $(grep -c -E '^(PASS|SKIP|XFAIL): ' native.log) tests (units, large inputs, live, contrib)"
else
	done_stage FAILED
	status=1
	grep -E '^(FAIL|XPASS|ERROR): ' native.log | sed 's/^/  /'
	failures "$top/build/check/tests"
	[ "$fail" -gt "$f0" ] || fail=$((fail + 1))
	echo "  (whole log: build/check/native.log)"
fi

# --------------------------------------------------------- distcheck
stage distcheck
make -j2 --no-print-directory distcheck \
	DISTCHECK_CONFIGURE_FLAGS='--enable-werror --enable-sanitizers' \
	> distcheck.log 2>&1
rc=$?
f0=$fail
count_log distcheck.log
if [ "$rc" -eq 0 ]; then
	done_stage "ok, $(grep -c -E '^(PASS|SKIP|XFAIL): ' distcheck.log) tests under ASan and UBSan, on the tarball"
else
	done_stage FAILED
	status=1
	if [ "$fail" -gt "$f0" ]; then
		grep -E '^(FAIL|XPASS|ERROR): ' distcheck.log | sed 's/^/  /'
		failures "$top/build/check/$(ls -d kvmtrace_format-*/ 2> /dev/null | head -1)"
	else
		grep -E -i 'error|missing|not found|failed' distcheck.log | tail -15 | sed 's/^/  /'
		tail -10 distcheck.log | sed 's/^/  /'
		[ "$fail" -gt 0 ] || fail=$((fail + 1))	# the stage itself
	fi
	echo "  (whole log: build/check/distcheck.log)"
fi

cpu
echo "all stages: $(($(date +%s) - t_all)) s, $cpu_s s CPU"
rm -f "$top/build/.check-all-times"
echo "tests: $pass passed, $fail failed, $skip skipped"
[ "$status" -eq 0 ] && [ "$fail" -eq 0 ]
