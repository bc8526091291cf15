#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# valgrind.sh ARGS… — run kvmtrace_format (KTF_VALGRIND_BIN) under
# valgrind's memcheck for `make check-valgrind`, which makes this script
# the $KTF of the CLI cases. Every run writes its report to
# KTF_VALGRIND_LOGS/vg.PID.log; an empty report is a clean run. Errors
# also make the exit status 1 (--error-exitcode=1), but a case may expect
# status 1 anyway, or hide stderr, so `make check-valgrind` reads the
# reports. Leaks inside libtracecmd and libtraceevent are suppressed by
# name (tests/valgrind.supp); ours are errors.
#
# A trace.dat is opened in a child process that goes on as the program
# (src/sources/tracedat/tracecmd-open.c), so children are checked too. A child
# that libtraceevent or libtracecmd crashed while opening a corrupt file
# leaves a report the guard expects: `make check-valgrind` sets those
# apart (tests/valgrind-reports.sh).
#
# Origins of uninitialised values are tracked only with KTF_VALGRIND_ORIGINS=1
# (`make check-valgrind KTF_VALGRIND_ORIGINS=1`, or the one case again):
# they make every run about 1.7 times slower (host-kvm-v7.dat: 5.6 s
# against 9.4 s) and change no verdict, only what a report says of where
# the value came from.
here=$(cd "$(dirname "$0")" && pwd)
origins=no
[ "${KTF_VALGRIND_ORIGINS:-0}" = 1 ] && origins=yes
exec valgrind --quiet --error-exitcode=1 --leak-check=full \
	--show-leak-kinds=definite,indirect,possible \
	--errors-for-leak-kinds=definite,indirect,possible \
	--track-origins=$origins --suppressions="$here/valgrind.supp" \
	--log-file="${KTF_VALGRIND_LOGS:?}/vg.%p.log" \
	"${KTF_VALGRIND_BIN:?}" "$@"
