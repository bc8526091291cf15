#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# perfetto.sh — --perfetto against --chrome, on every kind of input (TAP).
# For each case, the same command line runs once with --chrome and once
# with --perfetto -o FILE; FILE is decoded by `protoc --decode` with our
# own minimal .proto (tests/perfetto-check/ktf-perfetto.proto) and
# tests/perfetto-check/check-perfetto.py checks its structure (tracks
# described before use, interned ids defined before use, sequence flags,
# slices balanced and nested per track) and that it holds the JSON's
# timeline: the same processes, tracks, slices, instants, counter samples
# and args, times within 10 ns. Then what --perfetto refuses: a terminal
# without -o.
#
# Needs protoc (Debian's protobuf-compiler) and python3: skipped without.
set -u
: "${KTF:?}" "${KTF_SRCDIR:?}"
command -v protoc > /dev/null || { echo "1..0 # SKIP protoc not found"; exit 77; }
command -v python3 > /dev/null || { echo "1..0 # SKIP python3 not found"; exit 77; }
cd "$KTF_SRCDIR" || exit 99
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktf-perfetto.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
proto=tests/perfetto-check/ktf-perfetto.proto
check=tests/perfetto-check/check-perfetto.py
n=0
fail=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fail=1
	fi
}

skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

# same NAME NEEDS ARGS...: --chrome and --perfetto of ARGS hold one timeline
same() {
	name=$1 needs=$2
	shift 2
	if [ "$needs" = tracecmd ] && [ -z "${KTF_HAVE_TRACECMD:-}" ]; then
		skip "$name" "built without libtracecmd"
		return
	fi
	"$KTF" --chrome "$@" > "$tmp/$name.json" 2> "$tmp/$name.cerr"
	crc=$?
	"$KTF" --perfetto "$@" -o "$tmp/$name.pb" 2> "$tmp/$name.perr"
	prc=$?
	if [ "$crc" != "$prc" ] || ! cmp -s "$tmp/$name.cerr" "$tmp/$name.perr"; then
		echo "# $name: exit $crc and $prc, or standard error differs:"
		diff "$tmp/$name.cerr" "$tmp/$name.perr" | sed 's/^/# /'
		ok 1 "$name"
		return
	fi
	python3 "$check" --chrome "$tmp/$name.json" "$proto" "$tmp/$name.pb" \
		> "$tmp/$name.check" 2>&1
	r=$?
	sed 's/^/# /' "$tmp/$name.check"
	ok "$r" "$name"
}

same kvmtrace-c none -c 1000 tests/fixtures/sinks/exits.kvmtrace
same kvmtrace-ticks none --tsc-mhz 2400 tests/fixtures/kvmtrace/sample.bin
same kvmtrace-guest none -c 1000 --guest tests/fixtures/sinks/guest.kvmtrace \
	--tsc-offset 1000000000 tests/fixtures/sinks/exits.kvmtrace
same kvmtrace-truncated none -c 1000 tests/fixtures/sinks/truncated.kvmtrace
same kvmtrace-strings none -c 1000 tests/fixtures/exits/exits-elf.kvmtrace
same tracedat tracecmd -c 2400 tests/fixtures/tracedat/host-kvm-v7.dat
same tracedat-exits tracecmd --guest-syms tests/fixtures/exits/guest.kallsyms \
	tests/fixtures/exits/host-exits.dat
# exits without their entries (--events): marks, and one warning for both
same tracedat-exits-only tracecmd --events kvm:kvm_exit \
	tests/fixtures/exits/host-exits.dat
same tracedat-counter tracecmd tests/fixtures/tracedat/clock-counter-v6.dat
same tracedat-sched tracecmd -c 1000 tests/fixtures/tracedat/mixed-sched.dat
same cpu-nest tracecmd tests/fixtures/perfetto/cpu-nest.dat
same hostguest tracecmd -c 2400 tests/fixtures/hostguest/host7.dat \
	tests/fixtures/hostguest/guest-b7.dat
same hostguest-anon tracecmd -c 2400 tests/fixtures/hostguest/host7-anon.dat \
	tests/fixtures/hostguest/guest-b7.dat
same hostguest-orphan tracecmd -c 2400 tests/fixtures/hostguest/orphan7.dat
same rftrace-guest tracecmd -c 2400 tests/fixtures/tracedat/host-kvm-tsc-change.dat \
	--guest tests/fixtures/uftrace-gen/rftrace --tsc-offset auto
same uftrace none tests/fixtures/uftrace-gen/synth
same uftrace-cut none --time-range 5000000000135~5000000001200 \
	tests/fixtures/uftrace-gen/synth
same uftrace-sched none tests/fixtures/uftrace/ktf-strargs
same uftrace-strings none tests/fixtures/sinks/strings-uftrace
same perf tracecmd tests/fixtures/perf/gen-le.data
same perf-counters tracecmd --tsc-mhz=1000 \
	--counters=tests/fixtures/perfstat/stat-x-hash.txt tests/fixtures/perf/gen-le.data
same qemu-simple none --qemu-events=tests/fixtures/qemu/trace-events \
	tests/fixtures/qemu/simple.bin
same qemu-log none tests/fixtures/qemu-log/kvm72.qlog
same qemu-log-iso none tests/fixtures/qemu-log/kvm-iso.qlog
same qemu-merge tracecmd --qemu-events=tests/fixtures/qemu/trace-events \
	tests/fixtures/qemu/host-mono.dat tests/fixtures/qemu/simple-mono.bin
same empty none -c 1000 /dev/null
# random bytes as a kvmtrace stream: past the caps (4096 tracks), stamps
# near 2^64 ns
python3 -c "import random, sys; r = random.Random(1); sys.stdout.buffer.write(bytes(r.getrandbits(8) for _ in range(300000)))" > "$tmp/random.bin"
same random none -c 1000 "$tmp/random.bin"
# a generated stream (tests/gen/gen-kvmtrace -r): the encoder's fast
# packet at its edges: a thousand names of unknown ids interned in their
# own packets (iids of two bytes past 127), five args an instant, an
# exit's rip a ten-byte varint, stamps across many 2 ms steps
if [ -x "${KTF_BUILDDIR:-.}/tests/gen/gen-kvmtrace" ]; then
	"${KTF_BUILDDIR:-.}/tests/gen/gen-kvmtrace" -n 20000 -s 7 -r \
		> "$tmp/gen.bin"
	same kvmtrace-gen none -c 2400 "$tmp/gen.bin"
else
	skip kvmtrace-gen "no tests/gen/gen-kvmtrace"
fi

# standard output a pipe: the trace goes there
"$KTF" --perfetto -c 1000 tests/fixtures/sinks/exits.kvmtrace | cat > "$tmp/pipe.pb"
cmp -s "$tmp/pipe.pb" "$tmp/kvmtrace-c.pb"
ok $? "pipe: the same bytes as -o FILE"

# a terminal without -o: refused (exit 2), before any output
python3 - "$KTF" > "$tmp/tty.out" 2>&1 <<'EOF'
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1], "--perfetto", "-c", "1000",
                           "tests/fixtures/sinks/exits.kvmtrace"])
out = b""
while True:
    try:
        b = os.read(fd, 4096)
    except OSError:
        break
    if not b:
        break
    out += b
_, st = os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace"))
sys.exit(os.WEXITSTATUS(st))
EOF
r=$?
grep -q -- "-o FILE" "$tmp/tty.out" && [ "$r" -eq 2 ]
ok $? "a terminal without -o: exit 2 ($r), says -o FILE"
sed 's/^/# /' "$tmp/tty.out"

# -o keeps its guarantees: never an input
"$KTF" --perfetto -c 1000 tests/fixtures/sinks/exits.kvmtrace \
	-o tests/fixtures/sinks/exits.kvmtrace > /dev/null 2> "$tmp/clobber.err"
r=$?
[ "$r" -eq 2 ]
ok $? "-o an input: refused (exit $r)"

echo "1..$n"
exit $fail
