#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# valgrind-test.sh COMMAND… TEST — the log compiler of `make
# check-valgrind`: run COMMAND… TEST (the usual log compiler and the test)
# with KTF_VALGRIND_TEST naming the test, so that tests/valgrind.sh keeps
# its choice of runs per test (a test runs its cases in a fixed order; the
# tests themselves run in parallel).
for t; do :; done
KTF_VALGRIND_TEST=$(printf '%s' "${t:?}" | sed 's|^.*tests/||; s|[^A-Za-z0-9._-]|_|g')
export KTF_VALGRIND_TEST
exec "$@"
