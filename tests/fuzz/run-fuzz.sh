#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build one libFuzzer target against src/ and run it.
#
#   tests/fuzz/run-fuzz.sh TARGET SECONDS
#
# TARGET: kvmtrace, classic, yaml, render, uftrace, tdformat, qemu, perf,
# merge or stats
# (tests/fuzz/fuzz-TARGET.c).
# Needs clang with libFuzzer (Debian: clang-14, libclang-rt-14-dev).
# Environment: BUILD_DIR (default build/fuzz of this checkout, so that two
# checkouts or worktrees never share one) holds config.h (configured
# there if missing), the binary and the working corpus; CC (default clang);
# FUZZ_RUNS, when set, stops the run after that many executions (SECONDS
# then stays a cap on the time); FUZZ_SANITIZE, the sanitizers (default
# address,undefined; "undefined" runs the perf target ten times as fast,
# its corpus then replayed under the default).
# Crashes go to tests/fuzz/crashes/TARGET/. With SECONDS 0 the script only
# builds the target and replays tests/fuzz/regress/TARGET-* through it.
set -eu

usage() {
	echo "usage: $0 TARGET SECONDS" >&2
	exit 2
}
[ $# -eq 2 ] || usage
target=$1
seconds=$2
case $target in kvmtrace|classic|yaml|render|uftrace|tdformat|qemu|perf|merge|stats) ;; *) usage ;; esac
case $seconds in ''|*[!0-9]*) usage ;; esac

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$top/build/fuzz}
cc=${CC:-clang}
fix=$top/tests/fixtures

mkdir -p "$build"
if [ ! -f "$build/config.h" ]; then
	(cd "$build" && "$top/configure" CC="$cc" >configure.log 2>&1) || {
		echo "$0: cannot configure in $build (see $build/configure.log)" >&2
		exit 1
	}
fi

if { [ "$target" = tdformat ] || [ "$target" = perf ]; } && ! grep -q '^#define HAVE_TRACECMD 1' "$build/config.h"; then
	echo "$0: built without libtracecmd: skipping the $target target" >&2
	exit 77
fi
if [ "$target" = yaml ] && ! grep -q '^#define HAVE_YAML 1' "$build/config.h"; then
	echo "$0: built without libyaml: skipping the yaml target" >&2
	exit 77
fi

srcs=
for f in "$top"/src/*.c "$top"/src/*/*.c "$top"/src/*/*/*.c; do
	case $f in
	*/main.c | */run-modes.c | */run-batch.c | */default-rules.c) ;;
	*/source-tracecmd.c | */tracecmd-*.c | */tracedat-*.c | */sources/tep/*.c | \
	*/sources/perf/*.c)
		grep -q '^#define HAVE_TRACECMD 1' "$build/config.h" &&
			srcs="$srcs $f" ;;
	*/symtab-elf.c)
		grep -q '^#define HAVE_LIBELF 1' "$build/config.h" &&
			srcs="$srcs $f" ;;
	*/rules-yaml.c)
		grep -q '^#define HAVE_YAML 1' "$build/config.h" &&
			srcs="$srcs $f" ;;
	*) srcs="$srcs $f" ;;
	esac
done
pkgs=
for p in libtracecmd libtraceevent libzstd zlib yaml-0.1 libelf; do
	pkg-config --exists "$p" 2>/dev/null && pkgs="$pkgs $p"
done
pcflags=
pclibs=
if [ -n "$pkgs" ]; then
	pcflags=$(pkg-config --cflags $pkgs)
	pclibs=$(pkg-config --libs $pkgs)
fi
# libiberty ships no .pc file (configure.ac)
grep -q '^#define HAVE_LIBIBERTY 1' "$build/config.h" && pclibs="$pclibs -liberty"

mkdir -p "$build/fuzz"
# the built-in rules, as the Makefile generates them, into a file of this
# run's own (two targets started at once share the build directory)
new=$(mktemp "$build/fuzz/rules-default.c.XXXXXX")
"${SHELL:-/bin/sh}" "$top/build-aux/text2c.sh" rules_default \
	"$top/formats/kvmtrace" >"$new"
# (kept when unchanged, so that a built target stays up to date)
if cmp -s "$new" "$build/fuzz/rules-default.c"; then
	rm -f "$new"
else
	mv "$new" "$build/fuzz/rules-default.c"
fi
srcs="$srcs $build/fuzz/rules-default.c"
bin=$build/fuzz/fuzz-$target
# built again only when a source is newer than it
# shellcheck disable=SC2086
if [ -x "$bin" ] && [ -z "$(find $srcs "$here/fuzz-$target.c" "$here/fuzz-source.h" \
	"$top"/src/*.h "$top"/src/*/*.h "$top"/src/*/*/*.h -newer "$bin" 2>/dev/null)" ]; then
	echo "$0: $bin is up to date"
else
	echo "$0: building $bin"
	# shellcheck disable=SC2086
	"$cc" -std=gnu11 -g -O1 -fno-omit-frame-pointer \
		-fsanitize=fuzzer,${FUZZ_SANITIZE:-address,undefined} -fno-sanitize-recover=undefined \
		-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION \
		-include "$build/config.h" -I"$build" -I"$top/src" -I"$top/src/sources" -I"$top/src/rules" -I"$top/src/sinks" -I"$here" $pcflags \
		-o "$bin" "$here/fuzz-$target.c" $srcs $pclibs -lm -pthread
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
# leaks inside libtraceevent and libtracecmd are theirs (tests/lsan.supp)
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$top/tests/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

if [ "$seconds" -eq 0 ]; then
	set -- "$here"/regress/"$target"-*
	[ -e "$1" ] || exit 0
	exec "$bin" "$@"
fi

# Seed corpus from the fixtures.
seeds=$build/fuzz/seeds-$target
corpus=$build/fuzz/corpus-$target
rm -rf "$seeds"
mkdir -p "$seeds" "$corpus"
n=0
seed() {
	n=$((n + 1))
	cp "$1" "$seeds/$n"
}
case $target in
kvmtrace)
	for f in $(find "$fix" -type f \( -name '*.bin' -o -name '*.kvmtrace' \
		-o -name '*.kvmtrace.[0-9]*' \)); do
		# first byte: even = read as a file, odd = through a pipe on
		# stdin in chunks of (byte >> 1) + 1 (fuzz-kvmtrace.c)
		for b in 000 001 017 377; do
			n=$((n + 1))
			{ printf "\\$b"; cat "$f"; } >"$seeds/$n"
		done
	done ;;
classic)
	seed "$top/formats/kvmtrace"
	for f in $(find "$fix" -type f -name '*.formats'); do
		seed "$f"
	done ;;
yaml)
	for f in "$top"/formats/*.yaml $(find "$fix" -type f -name '*.yaml'); do
		seed "$f"
	done ;;
stats)
	# a selector byte (fuzz-stats.c), then a saved --stats=json
	for f in $(find "$fix" -type f -name '*.stats.json'); do
		for b in 000 003 025 032; do
			n=$((n + 1))
			{ printf "\\$b"; cat "$f"; } >"$seeds/$n"
		done
	done ;;
render)
	# one length byte, the template, then value bytes
	vals=$build/fuzz/render-values
	printf '\000\001\002\003\377\377\377\377\377\377\377\177\001\000\000\000\000\000\000\360\077\002\005hello\002\002\303\251' >"$vals"
	grep -h -v '^#' "$top/formats/kvmtrace" "$fix"/kvmtrace/*.formats 2>/dev/null |
		sed -n 's/^[^ \t]*[ \t][ \t]*//p' | cut -c1-255 | sort -u |
		while IFS= read -r t; do
			n=$((n + 1))
			len=$(printf '%s' "$t" | wc -c)
			{
				printf "\\$(printf '%03o' "$len")"
				printf '%s' "$t"
				cat "$vals" "$vals"
			} >"$seeds/r$n"
		done
	for t in '%(a)d %(b)#x %(c)-8s|%(d).3f' '%(x)+012.5e %(y)r %(z)c' \
		'%(s)10.2s %(s)a %(s)% %(n)#o %(n)X %(f)g %(f)G %(f)E %(f)F' \
		'%(w)*d' '%(k)ld %(k)hhu %(k)5%'; do
		n=$((n + 1))
		len=$(printf '%s' "$t" | wc -c)
		{
			printf "\\$(printf '%03o' "$len")"
			printf '%s' "$t"
			cat "$vals" "$vals" "$vals"
		} >"$seeds/h$n"
	done ;;
uftrace)
	# info, task.txt, then "NAME\nCONTENT" per other file (fuzz-uftrace.c)
	for d in "$fix"/uftrace/* "$fix"/uftrace-gen/*; do
		[ -d "$d" ] || continue
		n=$((n + 1))
		{
			cat "$d/info" 2>/dev/null || true
			printf '\n==KTF-FILE==\n'
			cat "$d/task.txt" 2>/dev/null || true
			# (the maps: a function has a symbol, the readers' fast
			# paths run)
			for f in "$d"/sid-*.map "$d"/*.sym "$d"/*.dbg "$d"/*.dat; do
				[ -f "$f" ] || continue
				case $f in */perf-cpu*) continue ;; esac
				printf '\n==KTF-FILE==\n%s\n' "${f##*/}"
				head -c 16384 "$f"
			done
		} >"$seeds/u$n"
	done ;;
tdformat)
	# the event formats of the fixtures, with records (fuzz-tdformat.c)
	python3 "$here/seed-tdformat.py" "$seeds" "$fix"/tracedat/*.dat ;;
qemu)
	# mode byte, trace-events, separator, trace (fuzz-qemu.c): the test
	# dictionary and, for the logs, the lines of QEMU's own it names
	for f in "$fix"/qemu/*.bin "$fix"/qemu/*.qlog "$fix"/qemu-log/*.qlog; do
		for b in 000 001 002 077; do
			n=$((n + 1))
			{
				printf "\\$b"
				cat "$fix/qemu/trace-events"
				case $f in *.qlog)
					[ -f /usr/share/qemu/trace-events-all ] &&
					sed -n 's/^[^ ]*[ @:.0-9TZ-]*\([a-z_0-9]*\) .*/^\1(/p' "$f" |
						sort -u | grep -f - /usr/share/qemu/trace-events-all || true ;;
				esac
				printf '\n==KTF-FILE==\n'
				head -n 40 "$f"
			} >"$seeds/q$n"
		done
	done ;;
merge)
	# scripts of fake inputs (fuzz-merge.c): 2 to 17 of them, of each
	# kind, their times mostly ties and small steps, now and then a jump,
	# a step back, a time without a stamp, an input that fails
	python3 - "$seeds" <<'PY'
import os, random, sys
for k in (2, 3, 4, 5, 8, 9, 16, 17):
    for v in range(3):
        r = random.Random(k * 10 + v)
        head = [k - 1, v, r.choice((127, 4, 63))]
        ins, times = [], []
        for i in range(k):
            ins += [r.randrange(256) if v else 0, r.randrange(64, 256),
                    r.randrange(256) if v == 2 and i == 1 else 255]
            times += [r.choice((0, 1, 2, 3) * 20 + (200, 241, 254)) if v
                      else r.randrange(4) for _ in range(ins[-2])]
        with open(os.path.join(sys.argv[1], "m%d-%d" % (k, v)), "wb") as f:
            f.write(bytes(head + ins + times))
PY
	;;
perf)
	# the perf.data fixtures of 64 KiB or less (the generated ones, the
	# recordings of perf kvm stat and perf sched)
	for f in "$fix"/perf/*.data; do
		if [ "$(wc -c <"$f")" -le 65536 ]; then seed "$f"; fi
	done ;;
esac

crashes=$here/crashes/$target
mkdir -p "$crashes"
runs=${FUZZ_RUNS:--1}
case $runs in -1|[1-9]*) ;; *) usage ;; esac
echo "$0: running $bin for ${seconds}s ($(ls "$seeds" | wc -l) seeds, runs $runs)"
# (qemu: a dictionary and a trace of 8 KiB read back line by line)
maxlen=65536
[ "$target" = qemu ] && maxlen=8192
"$bin" -max_len="$maxlen" -max_total_time="$seconds" -runs="$runs" -timeout=10 \
	-print_final_stats=1 -artifact_prefix="$crashes/" \
	"$corpus" "$seeds"
