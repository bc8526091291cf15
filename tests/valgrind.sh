#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# valgrind.sh ARGS… — run kvmtrace_format (KTF_VALGRIND_BIN) for `make
# check-valgrind`, which makes this script the $KTF of the CLI cases: under
# valgrind's memcheck, or natively when an earlier run of the same test
# read the same inputs with the same options (the rule below). Every
# memcheck run writes its report to KTF_VALGRIND_LOGS/vg.PID.log; an empty
# report is a clean run. Errors also make the exit status 1
# (--error-exitcode=1), but a case may expect status 1 anyway, or hide
# stderr, so `make check-valgrind` reads the reports. Leaks inside
# libtracecmd and libtraceevent are suppressed by name
# (tests/valgrind.supp); ours are errors.
#
# Which runs go under memcheck. Start-up alone costs memcheck about 0.45 s
# of CPU a process (a trace.dat case about 1 s, against 5 ms natively), so
# the stage's time is the count of runs. The distcheck stage of
# tests/check-all.sh runs every case under ASan and UBSan: our code's
# memory errors, in every run. What memcheck adds is the code that is not
# instrumented (libtraceevent, libtracecmd, libzstd, zlib, libelf,
# libyaml, libiberty) and reads of uninitialised memory. The libraries'
# paths depend on the bytes they parse; ours on the kind of input and the
# mode the options choose, much less on the template that prints. So a
# run goes under memcheck when it is the first run of its test (in the
# test's own order: a test runs its cases one after another; tests run in
# parallel, hence per test) with its key:
#   - a run that names a file a library parses (part(), below: a
#     trace.dat, a perf.data, an ELF file, a C++ or Rust uftrace
#     recording): the set of those files, by content. Each such file is
#     read under memcheck once in each test that reads it, whatever the
#     rules and options beside it;
#   - any other run (our code alone): the kinds of its inputs (binary,
#     text, YAML, uftrace, FIFO, pipe; standard input when it is a
#     regular file) and the names of its options, but for those that only
#     select or scale what is printed (-c, --events, --vcpu, --pid,
#     --time-range, --stats-top, --stats-sort, --host) and -o (written,
#     not read); values do not count (--stats=csv and --stats=json are
#     the one --stats). Each kind of input is read under memcheck once in
#     each mode (text, --chrome, --stats, --exits, ...) of each test.
# A later run with the same key runs natively: its case still checks its
# output, and the distcheck stage its memory. tests/hostile.sh sets
# KTF_VALGRIND_HOSTILE=1: there a perf.data and a YAML rule file count by
# content too, so each of its rows whose damaged input a library parses
# goes under memcheck. KTF_VALGRIND_TEST names the test
# (tests/valgrind-test.sh sets it); KTF_VALGRIND_ALL=1 puts every run
# under memcheck (`make check-valgrind KTF_VALGRIND_ALL=1`);
# KTF_VALGRIND_KEYS=1 writes each run's test and key to
# KTF_VALGRIND_LOGS/keys.

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
#
# No process but the program names an input in its arguments (a case
# counts the program's processes with pgrep -f, and a subshell of this
# script would be one more): the arguments first go to the environment,
# with builtins only, and the script starts again without them. Nothing is
# written outside KTF_VALGRIND_LOGS (a case counts the names in TMPDIR).
if [ -z "${KTF_VALGRIND_ARGC:-}" ]; then
	KTF_VALGRIND_ARGC=$#
	export KTF_VALGRIND_ARGC
	i=0
	for a; do
		i=$((i + 1))
		eval "KTF_VALGRIND_ARG$i=\$a"
		export "KTF_VALGRIND_ARG$i"
	done
	exec /bin/sh "$0"
fi
i=0
set --
while [ "$i" -lt "$KTF_VALGRIND_ARGC" ]; do
	i=$((i + 1))
	eval "set -- \"\$@\" \"\$KTF_VALGRIND_ARG$i\""
	unset "KTF_VALGRIND_ARG$i"
done
unset KTF_VALGRIND_ARGC
here=$(cd "$(dirname "$0")" && pwd)
logs=${KTF_VALGRIND_LOGS:?}
bin=${KTF_VALGRIND_BIN:?}

# part WORD: what an argument adds to the key. A file that a library
# parses, by its content (cksum): a trace.dat (libtracecmd, libtraceevent,
# libzstd, zlib), an ELF file (libelf), a uftrace directory whose symbols
# are mangled C++ or Rust names (libiberty), a perf.data of version 1. A
# perf.data (PERFILE2) by its byte order, header size (a pipe's is 16)
# and feature bits: what libraries see of it are the event formats
# (HEADER_TRACING_DATA: libtraceevent) and compressed records
# (HEADER_COMPRESSED: libzstd), which those bits announce; the rest is our
# reader. Any other file, by its kind alone: a kvmtrace stream, a QEMU
# trace or log, a kallsyms or counters file (binary or text), a uftrace
# directory of C names (our code alone), and a rule file, classic (text)
# or YAML: a rule file is templates (libyaml runs under memcheck in each
# test's first run with a YAML rule file and its kinds of input and
# options, beside no library-parsed file). With KTF_VALGRIND_HOSTILE=1
# (tests/hostile.sh: each row a damaged input) a perf.data and a YAML
# rule file count by their content too. A FIFO, a device: their kind; a
# word that names nothing (an option's value): nothing.
part() {
	case $1 in
	*.yaml|*.yml)
		if [ "${KTF_VALGRIND_HOSTILE:-0}" = 1 ] && [ -f "$1" ]; then
			echo "yaml:$(cksum < "$1")"
		else
			echo yaml
		fi
		return ;;
	esac
	if [ -d "$1" ]; then
		if cat "$1"/*.sym 2> /dev/null | grep -q -E '^[0-9a-f]+ +[A-Za-z] +_[ZR]'; then
			echo "uftrace:$(cd "$1" && find . -type f | LC_ALL=C sort |
				while IFS= read -r f; do echo "$f $(cksum < "$f")"; done |
				cksum)"
		else
			echo uftrace
		fi
	elif [ -f "$1" ]; then
		case $(od -An -tx1 -N8 < "$1" | tr -d ' \n') in
		1708447472616369*) echo "tracedat:$(cksum < "$1")" ;;
		50455246494c4532*|32454c4946524550*)
			if [ "${KTF_VALGRIND_HOSTILE:-0}" = 1 ]; then
				echo "perf:$(cksum < "$1")"
			else
				echo "perf:$(od -An -tx1 -N16 < "$1" | tr -d ' \n'):$(
					od -An -tx1 -j72 -N32 < "$1" | tr -d ' \n')"
			fi ;;
		5045524646494c45*|454c494646524550*) echo "perf:$(cksum < "$1")" ;;
		7f454c46*) echo "elf:$(cksum < "$1")" ;;
		*)	if [ -s "$1" ] && LC_ALL=C grep -q -v -a '^[[:print:][:space:]]*$' "$1"; then
				echo binary
			else
				echo text
			fi ;;
		esac
	elif [ -p "$1" ]; then
		echo fifo
	elif [ -e "$1" ]; then
		echo other
	fi
}

if [ "${KTF_VALGRIND_ALL:-0}" != 1 ]; then
	key=
	for a in "$@"; do
		case $a in
		# options that select or scale what is printed, and -o's file
		-c*|--mhz|--mhz=*|--events|--events=*|--vcpu|--vcpu=*|--pid|--pid=*|\
		--time-range|--time-range=*|--stats-top|--stats-top=*|\
		--stats-sort|--stats-sort=*|--host|--host=*|-o|--output|\
		--output=*|-) continue ;;
		--*=*) key="$key
${a%%=*}"; a=${a#*=} ;;
		-?*) key="$key
$a"; continue ;;
		esac
		p=$(part "$a")
		[ -z "$p" ] || key="$key
$p"
	done
	in=$(readlink /proc/$$/fd/0 2> /dev/null)
	case $in in
	/*) key="$key
<$(part "$in")" ;;
	*) key="$key
<${in%%:*}" ;;	# pipe:[N], socket:[N]: their kind
	esac
	# a run that reads a file a library parses: those files alone
	case $key in
	*:*) key=$(printf '%s\n' "$key" | grep : | sed 's/^<//') ;;
	esac
	# a set: the order of options and inputs does not count
	key=$(printf '%s\n' "$key" | LC_ALL=C sort | grep . | tr '\n' ' ')
	id=$(printf '%s\n' "$key" | cksum | tr ' ' .)
	mkdir -p "$logs/seen"
	[ -n "${KTF_VALGRIND_KEYS:-}" ] && printf '%s\t%s\t%s\n' "${KTF_VALGRIND_TEST:-any}" "$key" "$*" >> "$logs/keys"
	if ! mkdir "$logs/seen/${KTF_VALGRIND_TEST:-any}.$id" 2> /dev/null; then
		: > "$logs/native.$$"
		exec "$bin" "$@"
	fi
fi

origins=no
[ "${KTF_VALGRIND_ORIGINS:-0}" = 1 ] && origins=yes
exec valgrind --quiet --error-exitcode=1 --leak-check=full \
	--show-leak-kinds=definite,indirect,possible \
	--errors-for-leak-kinds=definite,indirect,possible \
	--track-origins=$origins --suppressions="$here/valgrind.supp" \
	--log-file="$logs/vg.%p.log" \
	"$bin" "$@"
