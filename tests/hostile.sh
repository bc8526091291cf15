#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# hostile.sh — hostile inputs, one table, TAP out. Each row makes a damaged
# input in a scratch directory and runs $KTF on it (from the top of the
# source tree; KTF and KTF_SRCDIR as for tests/cli/run.sh). A row passes
# when:
#   - the exit status is the one the row names (1 bad data, 2 bad usage or
#     rule file; never a signal, never a sanitizer's 23),
#   - standard error holds "kvmtrace_format: " and the row's pattern (ERE),
#     which names the file and the place (offset, LINE:COL or line),
#   - nothing hangs (each run has `timeout 120`; valgrind is slow),
#   - standard output holds the good events before the damage: for rows
#     with a reference (REF), exactly that text; for kvmtrace streams the
#     reference is the 2008 tool's logic (tests/gen/ref_kvmtrace_format.py).
# Leaks and memory errors: the sanitizer build runs this file in make
# check, and make check-valgrind runs it with tests/valgrind.sh as $KTF:
# every row whose input a library parses (trace.dat, perf.data, YAML rule
# files, ELF, C++/Rust uftrace) under memcheck (KTF_VALGRIND_HOSTILE=1),
# the others (kvmtrace cuts, QEMU, classic rule files: our code, which the
# sanitizer build checks at every row) under memcheck once per kind of
# input and options.
set -u
: "${KTF:?}" "${KTF_SRCDIR:?}"
cd "$KTF_SRCDIR" || exit 99
T=$(mktemp -d "${TMPDIR:-/tmp}/ktf-hostile.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
KTF_VALGRIND_HOSTILE=1
export T KTF KTF_VALGRIND_HOSTILE
fix=tests/fixtures
n=0
fail=0

# row NAME RC ERE REF CMD: run CMD (sh words; $KTF, $T), check as above
# (RC 0: a clean run, standard error empty).
# REF: a file whose content stdout must equal, or - for no check.
row() {
	name=$1 want=$2 ere=$3 ref=$4
	shift 4
	n=$((n + 1))
	timeout 120 sh -c "$*" >"$T/out" 2>"$T/err"
	rc=$?
	bad=
	[ "$rc" = "$want" ] || bad="$bad status $rc (want $want)"
	if [ "$want" = 0 ]; then
		[ ! -s "$T/err" ] || bad="$bad a message"
	else
		grep -q '^kvmtrace_format: ' "$T/err" || bad="$bad no message"
		grep -q -E -e "$ere" "$T/err" || bad="$bad message lacks /$ere/"
	fi
	if grep -q -E 'Sanitizer|runtime error:' "$T/err"; then
		bad="$bad sanitizer report"
	fi
	if [ "$ref" != - ] && ! cmp -s "$ref" "$T/out"; then
		bad="$bad stdout differs from $ref"
	fi
	if [ -z "$bad" ]; then
		echo "ok $n - $name"
		head -n 1 "$T/err" | cut -c 1-200 | sed 's/^/# /'
	else
		fail=$((fail + 1))
		echo "not ok $n - $name:$bad"
		head -c 600 "$T/err" | sed 's/^/# /'
		echo	# a cut line ends here, not in the next result
	fi
}

# A directory copy of a uftrace fixture to damage.
ufcopy() {
	rm -rf "$T/uf"
	cp -R "$fix/uftrace/plain" "$T/uf"
}

# ------------------------------------------------------------ kvmtrace
# Truncation at every byte of a small stream (the first 120 bytes of
# sample.bin: four records and most of a fifth), from standard input and
# by name: each cut prints what the 2008 logic prints for it, then says
# where the record broke.
head -c 120 "tests/fixtures/kvmtrace/sample.bin" >"$T/small.bin"
len=0
whole=0
while [ "$len" -le 120 ]; do
	head -c "$len" "$T/small.bin" >"$T/cut.bin"
	python3 tests/gen/ref_kvmtrace_format.py formats/kvmtrace \
		<"$T/cut.bin" >"$T/ref.out" 2>"$T/ref.err"
	refrc=$?
	if [ "$refrc" -eq 0 ]; then
		# a cut at a record boundary is a good, shorter stream
		n=$((n + 1))
		$KTF formats/kvmtrace <"$T/cut.bin" >"$T/out" 2>"$T/err"
		if [ $? -eq 0 ] && cmp -s "$T/ref.out" "$T/out" && [ ! -s "$T/err" ]; then
			echo "ok $n - kvmtrace cut at byte $len (a record boundary)"
		else
			fail=$((fail + 1))
			echo "not ok $n - kvmtrace cut at byte $len (a record boundary)"
		fi
		whole=$len
		len=$((len + 1))
		continue
	fi
	off=$(sed -n 's/.*offset \(0x[0-9a-f]*\): truncated.*/\1/p' "$T/ref.err")
	row "kvmtrace cut at byte $len, stdin" 1 \
		"^kvmtrace_format: <stdin>: offset $off: truncated record \\(" \
		"$T/ref.out" '$KTF formats/kvmtrace < "$T/cut.bin"'
	len=$((len + 1))
done
# the same cut 3 bytes into the last record, read by name
head -c "$((whole + 3))" "$T/small.bin" >"$T/named.bin"
python3 tests/gen/ref_kvmtrace_format.py formats/kvmtrace <"$T/named.bin" \
	>"$T/named.ref" 2>/dev/null
row "kvmtrace cut, read by name" 1 \
	"^kvmtrace_format: $T/named.bin: offset $(printf '0x%x' "$whole"): truncated record \\(" \
	"$T/named.ref" '$KTF formats/kvmtrace "$T/named.bin"'
head -c "$whole" "$T/small.bin" >"$T/whole.bin"

# n_data 7 in the last record: it needs 7 words, the stream ends first
python3 - "$T/whole.bin" "$T/ndata7.bin" <<'EOF'
import struct, sys
data = open(sys.argv[1], "rb").read()
# a record: event 0x00020002 with n_data 7 and a TSC, but only 2 words
hdr = (1 << 31) | (7 << 28) | 0x20002
open(sys.argv[2], "wb").write(data + struct.pack("<IIIQII", hdr, 42, 0, 10**12, 1, 2))
EOF
python3 tests/gen/ref_kvmtrace_format.py formats/kvmtrace \
	<"$T/ndata7.bin" >"$T/ndata7.ref" 2>/dev/null
row "kvmtrace n_data 7 in the last record" 1 \
	"<stdin>: offset $(printf '0x%x' "$whole"): truncated record \\(48 bytes needed, 28 left\\)" \
	"$T/ndata7.ref" '$KTF formats/kvmtrace < "$T/ndata7.bin"'

row "kvmtrace: missing input" 2 \
	"$T/nothere.bin: cannot open: No such file" - \
	'$KTF formats/kvmtrace "$T/nothere.bin"'
mkdir -p "$T/adir"
row "kvmtrace: a directory as input" 2 \
	"$T/adir: a directory without a uftrace .info. file" - \
	'$KTF formats/kvmtrace "$T/adir"'

# ------------------------------------------------------------ rule files
printf '0x00020002 %%(tsc)d %%(event)x %%(\n' >"$T/open.formats"
row "rules: '%(' at the end of a line" 2 \
	"open.formats:1:[0-9]+: " - '$KTF "$T/open.formats" < "$T/small.bin"'
printf '0x00020002 %%(1)99999d\n' >"$T/width.formats"
row "rules: a huge width (limit 4096)" 2 \
	'width.formats:1:[0-9]+: .*4096' - '$KTF "$T/width.formats" < "$T/small.bin"'
printf '0x00020002 %%(1).99999d\n' >"$T/prec.formats"
row "rules: a huge precision (limit 4096)" 2 \
	'prec.formats:1:[0-9]+: .*4096' - '$KTF "$T/prec.formats" < "$T/small.bin"'
printf '0x00020002 %%(1)*d\n' >"$T/star.formats"
row "rules: '*' width" 2 \
	'star.formats:1:[0-9]+: ' - '$KTF "$T/star.formats" < "$T/small.bin"'
python3 -c '
import random, sys
r = random.Random(8)
open(sys.argv[1], "wb").write(bytes(r.randrange(256) for _ in range(4096)))' \
	"$T/junk.formats"
row "rules: 4 KiB of binary junk" 2 \
	'junk.formats:[0-9]+:[0-9]+: ' - '$KTF -f "$T/junk.formats" < "$T/small.bin"'
printf '0x00020002 a\000b %%(tsc)d\n' >"$T/nul.formats"
row "rules: a NUL byte in a template" 2 \
	'nul.formats:1:[0-9]+: ' - '$KTF "$T/nul.formats" < "$T/small.bin"'
python3 -c '
import sys
open(sys.argv[1], "w").write("0x00020002 " + "x" * (10 << 20) + " %(nope)d\n")' \
	"$T/long.formats"
row "rules: a 10 MB line with an unknown key at its end" 2 \
	'long.formats:1:1048577[0-9]: unknown key .nope.' - \
	'$KTF "$T/long.formats" < "$T/small.bin"'
python3 -c '
import sys
open(sys.argv[1], "w").write("# " + "y" * (10 << 20) + "\n0x00020002 %(nope\n")' \
	"$T/longc.formats"
row "rules: a 10 MB comment, then an error on line 2" 2 \
	'longc.formats:2:[0-9]+: ' - '$KTF "$T/longc.formats" < "$T/small.bin"'
row "rules: missing file" 2 \
	"$T/none.formats: no such file" - \
	'$KTF "$T/none.formats" < "$T/small.bin"'
row "rules: a directory" 2 \
	"$T/adir: .*directory" - '$KTF -f "$T/adir" < "$T/small.bin"'

# YAML: an alias bomb and deep nesting
if [ -n "${KTF_HAVE_YAML:-}" ]; then
	python3 - "$T/bomb.yaml" <<'EOF'
import sys
lines = ["version: 1", "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
for i in range(1, 12):
    lines.append("a%d: &a%d [%s]" % (i, i, ", ".join(["*a%d" % (i - 1)] * 10)))
lines.append("events: []")
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
EOF
	row "yaml: an alias bomb" 2 'bomb.yaml:[0-9]+:[0-9]+: ' - \
		'$KTF "$T/bomb.yaml" < "$T/small.bin"'
	python3 -c '
import sys
open(sys.argv[1], "w").write("version: 1\nevents: " + "[" * 100000 + "]" * 100000 + "\n")' \
		"$T/deep.yaml"
	row "yaml: 100000-deep nesting" 2 'deep.yaml:[0-9]+:[0-9]+: ' - \
		'$KTF "$T/deep.yaml" < "$T/small.bin"'
	printf 'version: 1\nevents:\n  - match: 0x00020002\n    format: "\000"\n' \
		>"$T/nul.yaml"
	row "yaml: a NUL byte" 2 'nul.yaml:[0-9]+:[0-9]+: ' - \
		'$KTF "$T/nul.yaml" < "$T/small.bin"'
else
	for s in "an alias bomb" "100000-deep nesting" "a NUL byte"; do
		n=$((n + 1))
		echo "ok $n - yaml: $s # SKIP built without yaml"
	done
fi

# ------------------------------------------------------------ uftrace
# the whole dump-like output of the intact directory: what odd sizes keep
$KTF "$fix/uftrace/plain" >"$T/uf.ref" 2>/dev/null
for extra in 1 5 15; do
	ufcopy
	head -c "$extra" /dev/zero >>"$T/uf/20618.dat"
	size=$((1088 + extra))
	row "uftrace: a .dat of $size bytes (not a multiple of 16)" 1 \
		"uf/20618.dat: offset 0x440: truncated record \\(16 bytes needed, $extra left\\)" \
		"$T/uf.ref" '$KTF "$T/uf"'
done
ufcopy
# the magic (bits 3-5 of the second word) of the record at 0x200: 5 -> 4
python3 -c '
import sys
d = bytearray(open(sys.argv[1], "rb").read()); d[0x208] ^= 0x08
open(sys.argv[1], "wb").write(d)' "$T/uf/20618.dat"
row "uftrace: a record with a bad magic" 1 \
	'uf/20618.dat: offset 0x200: ' - '$KTF "$T/uf"'
while read -r what line; do
	ufcopy
	{ head -n 8 "$fix/uftrace/plain/uftrace-demo.sym"; printf '%s\n' "$line";
	  tail -n +9 "$fix/uftrace/plain/uftrace-demo.sym"; } >"$T/uf/uftrace-demo.sym"
	row "uftrace: symbol file with $what" 1 'uf/uftrace-demo.sym:9: ' - \
		'$KTF "$T/uf"'
done <<'EOF'
an-address-of-40-digits ffffffffffffffffffffffffffffffffffffffff T big
no-name 0000000000001189 T
one-word x
a-size-past-2^64 0000000000001189 fffffffffffffffffffff T sized
a-type-word 0000000000001189 TTTT name
EOF
ufcopy
python3 -c '
import sys
lines = open(sys.argv[1]).read().split("\n")
lines.insert(8, "0000000000001189 T " + "n" * (1 << 20))
open(sys.argv[1], "w").write("\n".join(lines))' "$T/uf/uftrace-demo.sym"
row "uftrace: a symbol of 1 MiB (kept; not an error)" 0 '' - '$KTF "$T/uf"'
ufcopy
printf 'x\000y\n' >>"$T/uf/uftrace-demo.sym"
row "uftrace: a NUL byte in the symbol file" 1 'uf/uftrace-demo.sym:[0-9]+: ' - \
	'$KTF "$T/uf"'
ufcopy
rm "$T/uf/task.txt"
row "uftrace: missing task.txt" 1 'uf/task.txt' - '$KTF "$T/uf"'
ufcopy
rm "$T/uf/task.txt" && mkdir "$T/uf/task.txt"
row "uftrace: task.txt is a directory" 1 'uf/task.txt' - '$KTF "$T/uf"'
ufcopy
rm "$T/uf/20618.dat" && mkdir "$T/uf/20618.dat"
row "uftrace: a .dat that is a directory" 1 'uf/20618.dat' - '$KTF "$T/uf"'
ufcopy
rm "$T/uf/uftrace-demo.sym" && mkdir "$T/uf/uftrace-demo.sym"
row "uftrace: a .sym that is a directory" 1 'uf/uftrace-demo.sym' - \
	'$KTF "$T/uf"'
ufcopy
head -c 40 "$fix/uftrace/plain/info" >"$T/uf/info.cut" && mv "$T/uf/info.cut" "$T/uf/info"
row "uftrace: info cut at byte 40 (the header only)" 1 \
	"uf/info: offset 0x28: no 'exename' section, which the header announces" \
	"$T/uf.ref" '$KTF "$T/uf"'
# enum definitions uftrace cannot parse are skipped, as it skips them (an
# empty one is no qsort(NULL), LONG_MAX + 1 no overflow under UBSan:
# fuzz-uftrace found both);
# 300 000 names in one and 100 000 definitions load in linear time
rm -rf "$T/ue" && cp -R "$fix/uftrace/ktf-enum" "$T/ue"
python3 -c 'import sys
p = sys.argv[1]
s = open(p).read()
big = "E: enum big {" + ",".join("V%d" % i for i in range(300000)) + "}\n"
many = "".join("E: enum e%d {A,B=%d}\n" % (i, i) for i in range(100000))
junk = ("E: enum mode {RED=,=,GREEN=0x, ,\xff}\nE: enum\nE: enum x {\n"
        "E: enum y { A = -5 B }\nE: enum z {A,A,A,\nE: enum empty {}\n"
        "E: enum top {MAX=0x7fffffffffffffff,NEXT}\n")
open(p, "w").write(s.replace("E: enum mode", big + many + junk + "E: enum mode", 1))' "$T/ue/ktf-enum.dbg"
$KTF "$fix/uftrace/ktf-enum" >"$T/ue.ref" 2>/dev/null
row "uftrace: garbled and huge enum definitions in a .dbg" 0 '' "$T/ue.ref" \
	'$KTF "$T/ue"'
# an event whose data is shorter than its kind's: the name alone
rm -rf "$T/ud" && cp -R "$fix/uftrace/ktf-evdata" "$T/ud"
python3 -c 'import struct, sys
p = sys.argv[1]
d = bytearray(open(p, "rb").read())
off = 0
while off < len(d):
    w = struct.unpack_from("<Q", d, off + 8)[0]
    off += 16
    if w & 4:
        n = struct.unpack_from("<H", d, off)[0]
        if w >> 16 == 100001 and n == 24:
            struct.pack_into("<H", d, off, 23)
            break
        off += (n + 2 + 7) & ~7
open(p, "wb").write(bytes(d))' "$T/ud"/[0-9]*.dat
row "uftrace: event data shorter than its kind's" 0 '' - \
	'$KTF "$T/ud" | grep -A1 "length = 23" | grep -qx "  read:proc/statm"'

# uftrace record -k: kernel-cpuN.dat pages and kernel_header (through
# libtraceevent's kbuffer); a damaged file stops there, the others go on
if [ -n "${KTF_HAVE_TRACECMD:-}" ]; then
	kcopy() { rm -rf "$T/uk" && cp -R "$fix/uftrace-gen/kernel" "$T/uk"; }
	kpatch() {	# FILE OFFSET STRUCT-FORMAT VALUE
		python3 -c 'import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
struct.pack_into(sys.argv[3], d, int(sys.argv[2], 0), int(sys.argv[4], 0))
open(sys.argv[1], "wb").write(bytes(d))' "$@"
	}
	kcopy
	kpatch "$T/uk/kernel-cpu0.dat" 8 "<Q" 0xffff
	row "uftrace -k: a page that commits more than it holds" 1 \
		'uk/kernel-cpu0.dat: offset 0x8: ring-buffer page commits 65535 bytes' - \
		'$KTF "$T/uk"'
	kcopy
	kpatch "$T/uk/kernel-cpu0.dat" 0x1c "<H" 77
	row "uftrace -k: an event type kernel_header does not define" 1 \
		'uk/kernel-cpu0.dat: offset 0x18: kernel event of type 77' - \
		'$KTF "$T/uk"'
	kcopy
	sed -i 's/^PAGE_SIZE: 4096$/PAGE_SIZE: 3/' "$T/uk/kernel_header"
	row "uftrace -k: PAGE_SIZE 3" 1 'uk/kernel_header: offset 0x0: PAGE_SIZE 3' - \
		'$KTF "$T/uk"'
	kcopy
	sed -i 's/^\(TRACEFS: events\/header_page:\) .*/\1 99999/' "$T/uk/kernel_header"
	row "uftrace -k: a TRACEFS length past the end" 1 \
		'uk/kernel_header: offset 0x[0-9a-f]+: not a "TRACEFS' - '$KTF "$T/uk"'
	kcopy
	rm "$T/uk/kernel_header"
	row "uftrace -k: no kernel_header" 1 'uk/kernel_header: cannot read' - \
		'$KTF "$T/uk"'
	kfmt() {	# OLD NEW: in funcgraph_entry's format, its length kept right
		python3 -c 'import sys
p = sys.argv[1]
s = open(p).read()
a = s.index("TRACEFS: events/ftrace/funcgraph_entry/format: ")
n = int(s[a:].split("\n", 1)[0].rsplit(" ", 1)[1])
b = s.index("\n", a) + 1
fmt = s[b:b + n].replace(sys.argv[2], sys.argv[3])
s = s[:a] + "TRACEFS: events/ftrace/funcgraph_entry/format: %d\n" % len(fmt) + fmt + s[b + n:]
open(p, "w").write(s)' "$T/uk/kernel_header" "$@"
	}
	kcopy
	kfmt "$(printf 'func;\toffset:8;')" "$(printf 'func;\toffset:800;')"
	row "uftrace -k: a func field past the end of its event" 1 \
		'uk/kernel-cpu0.dat: offset 0x18: funcgraph_entry record of 24 bytes lacks' - \
		'$KTF "$T/uk"'
	kcopy
	kfmt "$(printf 'common_pid;\toffset:4;')" "$(printf 'common_pid;\toffset:60000;')"
	row "uftrace -k: common_pid past the event header" 1 \
		'uk/kernel_header: offset 0x[0-9a-f]+: the common_type or common_pid field of events/ftrace/funcgraph_entry/format' - \
		'$KTF "$T/uk"'
	# a last page cut short reads as a whole one, as uftrace's mmap does
	kcopy
	head -c 5000 "$fix/uftrace-gen/kernel/kernel-cpu0.dat" >"$T/uk/kernel-cpu0.dat"
	row "uftrace -k: a kernel-cpu0.dat of 5000 bytes" 0 '' \
		"$fix/uftrace-gen/kernel.dump" '$KTF "$T/uk"'
fi

# ------------------------------------------------------------ trace.dat
if [ -n "${KTF_HAVE_TRACECMD:-}" ]; then
	for f in host-kvm-v7-zstd host-kvm-v6 host-kvm-v7; do
		size=$(wc -c <"$fix/tracedat/$f.dat")
		step=$((size / 23))
		cut=10	# shorter: no magic, so the rule file (see kvmtrace above)
		while [ "$cut" -lt "$size" ]; do
			head -c "$cut" "$fix/tracedat/$f.dat" >"$T/cut.dat"
			row "trace.dat $f cut at byte $cut of $size" 1 \
				"cut.dat: .*(truncated|corrupt)" - \
				'$KTF "$T/cut.dat"'
			cut=$((cut + step + 1))
		done
	done
	# one byte of a zstd-compressed section changed: libtracecmd reads a
	# size from the inflated garbage and mallocs it (trace-cmd report
	# prints nothing, status 0); under ASan that allocation aborts, which
	# the child process takes (found by tests/fuzz/mutate.py)
	python3 tests/gen/mangle-tracedat.py byte:3371:50 \
		"$fix/tracedat/tc-syscalls.dat" "$T/absurd.dat"
	row "trace.dat: an absurd size inside a zstd section" 1 \
		'absurd.dat: (truncated or corrupt trace.dat \(version 7, 15441 bytes\)|corrupt trace.dat: libtracecmd crashes)' - \
		'$KTF "$T/absurd.dat"'
	# one byte of a v6 event format changed: libtraceevent dereferences
	# NULL (trace-cmd report segfaults)
	python3 tests/gen/mangle-tracedat.py 'replace:REC->irqchip:REC->irqXhip' \
		"$fix/tracedat/host-kvm-v6.dat" "$T/crash.dat"
	row "trace.dat: a format that crashes libtraceevent" 1 \
		'crash.dat: corrupt trace.dat: libtracecmd crashes reading its headers' - \
		'$KTF "$T/crash.dat"'
	# zlib files (no libtracecmd here reads them: an uncompressed copy is
	# read): a damaged zlib stream in the CPU data, and cuts
	mkdir -p "$T/tmp"
	python3 tests/gen/gen-tracedat-zlib.py "$fix/tracedat/host-kvm-v7.dat" \
		"$T/z.dat" 1
	python3 - "$T/z.dat" "$T/zbad.dat" <<'EOF'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
# the BUFFER option's first CPU with data: its first chunk's stream header
at = d.index(b"x86-tsc\0") + 8 + 8
n = struct.unpack_from("<I", d, at - 4)[0]
for i in range(n):
    cpu, off, size = struct.unpack_from("<IQQ", d, at + 20 * i)
    if size:
        d[off + 4 + 8] ^= 0xff
        break
open(sys.argv[2], "wb").write(d)
EOF
	row "trace.dat zlib: a damaged stream in the CPU data" 1 \
		'zbad.dat: corrupt trace.dat \(version 7\): the zlib-compressed .* does not decompress' - \
		'TMPDIR="$T/tmp" $KTF "$T/zbad.dat"'
	size=$(wc -c <"$T/z.dat")
	step=$((size / 11))
	cut=10
	while [ "$cut" -lt "$size" ]; do
		head -c "$cut" "$T/z.dat" >"$T/cut.dat"
		row "trace.dat zlib cut at byte $cut of $size" 1 \
			"cut.dat: .*(truncated|corrupt)" - \
			'TMPDIR="$T/tmp" $KTF "$T/cut.dat"'
		cut=$((cut + step + 1))
	done
	n=$((n + 1))
	if [ -z "$(ls -A "$T/tmp")" ]; then
		echo "ok $n - trace.dat zlib: no uncompressed copy left in TMPDIR"
	else
		fail=$((fail + 1))
		echo "not ok $n - trace.dat zlib: copies left in TMPDIR: $(ls "$T/tmp")"
	fi
else
	n=$((n + 1))
	echo "ok $n - trace.dat cuts # SKIP built without tracecmd"
fi

# ------------------------------------------------------------ trust
# -o naming a file the run reads is refused before anything is truncated:
# the file is intact afterwards (the row's command checks).
python3 tests/gen/ref_kvmtrace_format.py formats/kvmtrace <"$T/whole.bin" \
	>"$T/whole.ref"
cp "$T/whole.bin" "$T/o.bin"
intact='; rc=$?; cmp -s "$T/o.bin" "$T/whole.bin" || exit 99; exit $rc'
row "-o: the input itself" 2 \
	"-o $T/o.bin: that is an input \\($T/o.bin\\)" - \
	'$KTF -o "$T/o.bin" formats/kvmtrace "$T/o.bin"'"$intact"
ln -f "$T/o.bin" "$T/o-hard.bin"
row "-o: a hard link to an input" 2 'that is an input' - \
	'$KTF -o "$T/o-hard.bin" formats/kvmtrace "$T/o.bin"'"$intact"
ln -sf "$T/o.bin" "$T/o-sym.bin"
row "-o: a symbolic link to an input" 2 'that is an input' - \
	'$KTF -o "$T/o-sym.bin" formats/kvmtrace "$T/o.bin"'"$intact"
row "-o: /dev/fd/N of an input" 2 'that is an input' - \
	'$KTF -o /dev/fd/3 formats/kvmtrace "$T/o.bin" 3<"$T/o.bin"'"$intact"
row "-o: standard input" 2 'that is standard input' - \
	'$KTF -o "$T/o.bin" formats/kvmtrace < "$T/o.bin"'"$intact"
cp formats/kvmtrace "$T/o.formats"
row "-o: the rule file" 2 'that is the rule file' - \
	'$KTF -o "$T/o.formats" "$T/o.formats" "$T/whole.bin"; rc=$?; cmp -s formats/kvmtrace "$T/o.formats" || exit 99; exit $rc'
ufcopy
row "-o: a file of a uftrace data directory" 2 \
	'that is a file of the input directory' - \
	'$KTF -o "$T/uf/20618.dat" "$T/uf"; rc=$?; cmp -s "$T/uf/20618.dat" "tests/fixtures/uftrace/plain/20618.dat" || exit 99; exit $rc'
# closed standard streams: /dev/null holds their place
if [ -n "${KTF_VALGRIND_BIN:-}" ]; then
	# valgrind opens its --log-file first, and it lands on the closed 1
	n=$((n + 1))
	echo "ok $n - stdout closed, no -o # SKIP under valgrind, whose log file takes descriptor 1"
else
	row "stdout closed, no -o" 2 'standard output is closed; give -o' - \
		'$KTF formats/kvmtrace "$T/whole.bin" >&-'
fi
row "stdout closed, -o" 0 - "$T/whole.ref" \
	'$KTF -o "$T/closed.out" formats/kvmtrace "$T/whole.bin" >&- 2>&- <&- ; cat "$T/closed.out"'
# clocks: 1 kHz to 1 THz, else refused before any output
for v in 0.0000001 1e-300 1e300 2e6 -5 nan inf 0; do
	for o in -c --tsc-mhz; do
		row "$o $v" 2 "$o: .*(no clock's frequency|not a frequency)" - \
			'$KTF '"$o $v"' formats/kvmtrace "$T/whole.bin"'
	done
done
# streams: one open, the probe's bytes handed to the reader
row "kvmtrace through a pipe named /dev/stdin" 0 - "$T/whole.ref" \
	'cat "$T/whole.bin" | $KTF formats/kvmtrace /dev/stdin'
row "kvmtrace: standard input given as -" 0 - "$T/whole.ref" \
	'$KTF formats/kvmtrace - < "$T/whole.bin"'
rm -f "$T/fifo" && mkfifo "$T/fifo"
row "kvmtrace through a FIFO" 0 - "$T/whole.ref" \
	'cat "$T/whole.bin" >"$T/fifo" & $KTF formats/kvmtrace "$T/fifo"'
row "- given twice" 2 "'-' \\(standard input\\) is given 2 times" - \
	'$KTF formats/kvmtrace - - < "$T/whole.bin"'
# inputs by content; a missing one stops the run before any output
: >"$T/empty.ref"
row "a missing input among good ones" 2 "$T/nothere.bin: cannot open" \
	"$T/empty.ref" '$KTF formats/kvmtrace "$T/whole.bin" "$T/nothere.bin"'
row "a kvmtrace stream without magic as the only argument" 0 - \
	"$T/whole.ref" '$KTF "$T/whole.bin"'
row "- as the only argument" 0 - "$T/whole.ref" '$KTF - < "$T/whole.bin"'
row "a rule file given as an input" 2 \
	'formats/kvmtrace: this looks like a rule file \(text\), not a trace; put it first or give it with -f' \
	"$T/empty.ref" '$KTF -f formats/kvmtrace formats/kvmtrace'
row "a rule file on standard input" 2 \
	'<stdin>: this looks like a rule file' "$T/empty.ref" \
	'$KTF formats/kvmtrace < formats/kvmtrace'
row "--clock for a name that is no input" 2 \
	"--clock=nothere.bin=tsc: 'nothere.bin' is not an input" - \
	'$KTF --clock=nothere.bin=tsc formats/kvmtrace "$T/whole.bin"'
row "--tsc-offset 08 is decimal (not octal)" 0 - "$T/whole.ref" \
	'$KTF --tsc-offset 08 formats/kvmtrace "$T/whole.bin"'
# control bytes of option values and file names never reach the terminal
row "an escape sequence in an option value" 2 '\\x1b\[2J' - \
	'$KTF --vcpu="$(printf "\\033[2J0")" formats/kvmtrace "$T/whole.bin"'
row "an escape sequence in a file name" 2 'x\\x1b\[2Jy: cannot open' - \
	'$KTF formats/kvmtrace "x$(printf "\\033")[2Jy"'
# more than 1000 u64: names in one template (there was a limit of 1000)
if [ -n "${KTF_HAVE_YAML:-}" ]; then
	python3 - "$T/u64.yaml" "$T/u64one.yaml" <<'EOF'
import sys
n = 1500
head = ["version: 1", "events:", "  - match: 0x00010002", "    u64:"]
big = head + ["      j%d: [1, 2]" % i for i in range(n)]
big.append('    format: "%s"' % " ".join("%%(j%d)x" % i for i in range(n)))
open(sys.argv[1], "w").write("\n".join(big) + "\n")
one = head + ['      j0: [1, 2]', '    format: "%(j0)x"']
open(sys.argv[2], "w").write("\n".join(one) + "\n")
EOF
	# the VMEXIT of whole.bin: its exitcode and rip as one u64, 1500 times
	$KTF "$T/u64one.yaml" "$T/whole.bin" >"$T/u64.ref" 2>/dev/null
	# (an empty reference would let an empty output pass: fail the row)
	[ -s "$T/u64.ref" ] || echo "the rule meets no event" >"$T/u64.ref"
	row "yaml: 1500 u64: names in a template" 0 - "$T/u64.ref" \
		'$KTF "$T/u64.yaml" "$T/whole.bin" | cut -d" " -f1500'
else
	n=$((n + 1))
	echo "ok $n - yaml: 1500 u64: names # SKIP built without yaml"
fi
if [ -n "${KTF_HAVE_TRACECMD:-}" ]; then
	cp "$fix/tracedat/host-kvm-v6.dat.report" "$T/v6.ref"
	row "trace.dat through a pipe on standard input" 0 - "$T/v6.ref" \
		'cat "tests/fixtures/tracedat/host-kvm-v6.dat" | $KTF'
	row "trace.dat through a FIFO" 0 - "$T/v6.ref" \
		'cat "tests/fixtures/tracedat/host-kvm-v6.dat" >"$T/fifo" & $KTF "$T/fifo"'
	row "trace.dat, stdout closed, -o" 0 - "$T/v6.ref" \
		'$KTF -o "$T/closed.out" "tests/fixtures/tracedat/host-kvm-v6.dat" >&-; cat "$T/closed.out"'
	cp "$fix/tracedat/host-kvm-v6.dat" "$T/o.dat"
	ln -sf "$T/o.dat" "$T/o-sym.dat"
	row "-o: a symbolic link to a trace.dat input" 2 'that is an input' - \
		'$KTF -o "$T/o-sym.dat" "$T/o.dat"; rc=$?; cmp -s "$T/o.dat" "tests/fixtures/tracedat/host-kvm-v6.dat" || exit 99; exit $rc'
	row "a trace.dat given as the rule file" 2 \
		'host-kvm-v6.dat: this looks like a trace.dat file, not a rule file' \
		- '$KTF -f "tests/fixtures/tracedat/host-kvm-v6.dat" "tests/fixtures/tracedat/host-kvm-v6.dat"'
	# event formats that lie (tracedat-guard): every event before the bad
	# one printed, the bad one named, exit 1, no signal
	python3 tests/gen/mangle-tracedat.py \
		'replace:REC->port, REC->size, REC->count:REC->port/0,REC->size,REC->count' \
		"$fix/tracedat/host-kvm-v6.dat" "$T/div.dat"
	{ head -n 10 "$T/v6.ref"; sed -n 11p "$T/v6.ref" |
		sed 's/pio_write.*/[FAILED TO PARSE] rw=1 port=16 size=4 count=1 val=537682344/'; } \
		>"$T/div.ref"
	row "trace.dat: a print fmt that divides by zero (trace-cmd report: SIGFPE)" 1 \
		'div.dat: CPU 1: offset 0x19134: event kvm_pio: libtraceevent crashes \(SIGFPE' \
		"$T/div.ref" '$KTF "$T/div.dat"'
	python3 - "$fix/tracedat/host-kvm-v6.dat" "$T/short.dat" <<'EOF'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
old = b"unsigned int val;\toffset:24;"
i = d.find(old)
d[i:i + len(old)] = b"unsigned int val;\toffset:94;"
open(sys.argv[2], "wb").write(d)
EOF
	# each damaged record said and left out, every other event printed
	grep -v kvm_pio "$T/v6.ref" >"$T/short.ref"
	row "trace.dat: records shorter than their format" 1 \
		"short.dat: CPU 1: offset 0x19134: event kvm_pio: a record of 28 bytes, but its format puts field 'val' at bytes 94..97.*left out, reading goes on" \
		"$T/short.ref" '$KTF "$T/short.dat" >"$T/short.all"; rc=$?; grep -v kvm_pio "$T/short.all"; grep -q "short.dat: 60 damaged records left out" "$T/err" || exit 99; exit $rc'
	row "trace.dat: records shorter than their format, a rule asks for %s" 1 \
		"short.dat: CPU 1: offset 0x19134: event kvm_pio: a record of 28 bytes" \
		- '$KTF -f formats/trace-cmd-kvm.yaml "$T/short.dat"'
	# an event id of 2**31 - 1: no table sized by it (was 8 GB)
	python3 - "$fix/tracedat/host-kvm-v6.dat" "$T/hugeid.dat" <<'EOF'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
at = d.find(b"name: kvm_pio\nID: 110\n")
end = d.find(b"\nname: ", at + 1)
block = bytes(d[at:end])
new = block.replace(b"ID: 110\n", b"ID: 2147483647\n").replace(
    b'REC->count > 1 ? "(...)" : ""', b'""' + b" " * 20)
assert len(new) == len(block)
d[at:end] = new
open(sys.argv[2], "wb").write(d)
EOF
	# (the second run ends with the alignment report on stderr: only
	# checked for memory and sanitizer reports)
	row "trace.dat: an event id of 2**31 - 1" 0 - - \
		'$KTF "$T/hugeid.dat" >/dev/null && $KTF --tsc-offset auto "$T/hugeid.dat" --guest "$T/whole.bin" >/dev/null 2>"$T/hugeid.err" && ! grep -E "memory|Sanitizer|runtime error" "$T/hugeid.err"'
	# CPU 1's data 8 bytes off its page: libtracecmd cannot mmap it and
	# says so on standard error; the message names the file
	python3 - "$fix/tracedat/host-kvm-v6.dat" "$T/mmap.dat" <<'EOF'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
o = d.find(b"flyrecord\0") + 10 + 16
off, size = struct.unpack_from("<QQ", d, o)
struct.pack_into("<QQ", d, o, off + 8, size - 8)
open(sys.argv[2], "wb").write(d)
EOF
	row "trace.dat: libtracecmd's own words name the file" 0 - - \
		'$KTF "$T/mmap.dat" >/dev/null 2>"$T/mmap.err"; grep -q "^kvmtrace_format: $T/mmap.dat: libtracecmd: mmap: " "$T/mmap.err"'
else
	for s in "pipe" "FIFO" "stdout closed" "-o symlink" "as the rule file" \
		"divides by zero" "short records" "short records, %s" "huge id" \
		"mmap"; do
		n=$((n + 1))
		echo "ok $n - trace.dat $s # SKIP built without tracecmd"
	done
fi

# ------------------------------------------------------- trace.dat, round 2
if [ -n "${KTF_HAVE_TRACECMD:-}" ]; then
	# a trace.dat from a pipe is copied to a file with no name: nothing in
	# TMPDIR while the run goes (held up by a full FIFO), nor after SIGTERM
	# (valgrind's own files, under check-valgrind, are not counted)
	mkdir -p "$T/sp"
	rm -f "$T/spf" && mkfifo "$T/spf"
	printf '* %%(name)4000s\n' >"$T/wide"
	row "trace.dat from a pipe: its copy has no name, none left on SIGTERM" 0 - - \
		'{ cat tests/fixtures/tracedat/host-kvm-v6.dat | TMPDIR="$T/sp" $KTF -f "$T/wide" >"$T/spf" & } ; pid=$!; exec 3<"$T/spf"; head -c 4000 <&3 >/dev/null; a=$(ls -A "$T/sp" | grep -vc -e "^valgrind_" -e "^vgdb-"); kill -TERM $pid; wait $pid 2>/dev/null; exec 3<&-; b=$(ls -A "$T/sp" | grep -vc -e "^valgrind_" -e "^vgdb-"); [ "$a$b" = 00 ] || { echo "names in TMPDIR: $a while running, $b after SIGTERM" >&2; exit 99; }'
	# a trace.dat cut while it is read: libtracecmd maps the CPU data, and
	# a page past the new end raised SIGBUS (the lines rendered but not
	# written lost, the last one cut). The cut comes after 64 KiB of
	# output, while the run is held up by the full pipe and at most
	# 64 KiB + the pipe's + the output buffer's 256 KiB ahead: far before
	# the place it cuts (1 MiB, 900 KiB into 1.5 MB of CPU data; a line
	# per 40 bytes of it), so where the input stops does not depend on
	# timing. Every line before it is written whole, a prefix of the
	# whole run's output (made outside valgrind under check-valgrind).
	python3 tests/bench/gen-big-tracedat.py \
		tests/fixtures/tracedat/host-kvm-v6.dat "$T/shr.dat" 40000 1000 \
		>/dev/null
	${KTF_VALGRIND_BIN:-$KTF} "$T/shr.dat" >"$T/shr.full" 2>/dev/null
	cat >"$T/shrink.py" <<'EOF'
import os, shlex, subprocess, sys
ktf, dat, cut, out = sys.argv[1:5]
p = subprocess.Popen(shlex.split(ktf) + [dat], stdout=subprocess.PIPE)
first = p.stdout.read(65536)    # under way, held up by the pipe
os.truncate(dat, int(cut))
rest = p.stdout.read()
rc = p.wait()
open(out, "wb").write(first + rest)
sys.exit(rc if rc >= 0 else 128 - rc)
EOF
	row "trace.dat cut to 1 MiB while read (libtracecmd maps it: SIGBUS)" 1 \
		'shr.dat: truncated trace.dat: the file shrank while it was read \(libtracecmd maps it\): the data at offset 0x100000 is gone, the file now has 1048576 bytes; this input stops here' \
		- 'python3 "$T/shrink.py" "$KTF" "$T/shr.dat" 1048576 "$T/shr.out"; rc=$?; n=$(wc -c <"$T/shr.out"); head -c "$n" "$T/shr.full" | cmp -s - "$T/shr.out" && [ "$n" -gt 1000000 ] && [ "$(tail -c 1 "$T/shr.out" | od -An -tx1 | tr -d " ")" = 0a ] || { echo "kvmtrace_format: not a prefix of the whole output in whole lines ($n bytes)" >&2; exit 99; }; exit $rc'
	# compression bombs (tests/gen/gen-tracedat-bomb.py): refused before
	# the copy, with the numbers. Each runs under a file-size limit of
	# 64 MiB (dash counts 512-byte blocks; bash 1024: 128 MiB) and, where
	# the build allows it (not under a sanitizer or valgrind, which
	# reserve more), 2 GiB of address space, so that a regression stops
	# there instead of filling the disk or the memory of the machine.
	lim="ulimit -f 131072;"
	vlim=
	if (ulimit -v 2097152; $KTF --version) >/dev/null 2>&1; then
		vlim="ulimit -v 2097152;"
		lim="$lim $vlim"
	fi
	for k in overlap ratio section-ratio big big-zstd section-zstd \
		kallsyms-zstd sections-zstd; do
		python3 tests/gen/gen-tracedat-bomb.py "$k" "$T/bomb-$k.dat"
	done
	row "trace.dat bomb: 64 CPUs on one chunk of 16 MiB (a 1 GiB copy)" 1 \
		'bomb-overlap.dat: corrupt trace.dat \(version 7\): the data of CPUs 0 and 1 overlap at offset 0x571 of the flyrecord section at offset 0x561' \
		"$T/empty.ref" "$lim"' $KTF "$T/bomb-overlap.dat"'
	row "trace.dat bomb: a chunk claiming more than deflate can give" 1 \
		'bomb-ratio.dat: corrupt trace.dat \(version 7\): the chunk at offset 0x89 of CPU 0 claims 33554432 bytes from 1039 zlib-compressed ones, more than zlib can give' \
		"$T/empty.ref" "$lim"' $KTF "$T/bomb-ratio.dat"'
	row "trace.dat bomb: a section claiming more than deflate can give" 1 \
		'bomb-section-ratio.dat: corrupt trace.dat \(version 7\): the cmdlines section at offset 0xab claims 209715200 bytes from 1039 zlib-compressed ones' \
		"$T/empty.ref" "$lim"' $KTF "$T/bomb-section-ratio.dat"'
	row "trace.dat bomb: a 768 MiB copy, more than ulimit -f allows" 1 \
		'bomb-big.dat: its uncompressed copy needs 805310464 bytes \(768 MiB\), but the file-size limit \(ulimit -f\) allows [0-9]+' \
		"$T/empty.ref" "$lim"' $KTF "$T/bomb-big.dat"'
	row "trace.dat bomb: 64 CPUs on one chunk, no TMPDIR (no fall back to libtracecmd)" 1 \
		'bomb-overlap.dat: corrupt trace.dat \(version 7\): the data of CPUs 0 and 1 overlap' \
		"$T/empty.ref" "$lim"' TMPDIR=/nonexistent/ktf ${KTF_VALGRIND_BIN:-$KTF} "$T/bomb-overlap.dat"'
	row "trace.dat bomb: zstd, a 3 GiB copy, more than ulimit -f allows" 1 \
		'bomb-big-zstd.dat: its uncompressed copy needs 3221229568 bytes \(3072 MiB\), but the file-size limit \(ulimit -f\) allows [0-9]+' \
		"$T/empty.ref" "$lim"' $KTF "$T/bomb-big-zstd.dat"'
	# sections other than the CPU data within zstd's own bound, beyond
	# what any real trace holds (tracedat-int.h): refused before anything
	# is inflated, under 128 MiB of address space where the build allows
	# (the cmdlines bomb took 265 MB before)
	# (not under valgrind, whose own start needs more than 128 MiB)
	mlim="ulimit -f 131072;"
	if [ -n "$vlim" ] && [ -z "${KTF_VALGRIND_BIN:-}" ]; then
		mlim="$mlim ulimit -v 131072;"
	fi
	row "trace.dat bomb: zstd, a cmdlines section of 8 KiB claiming 256 MiB" 1 \
		'bomb-section-zstd.dat: corrupt trace.dat \(version 7\): the cmdlines section at offset 0xa1 claims 268435456 bytes \(256 MiB\) inflated, more than any real trace has \(at most 16 MiB here' \
		"$T/empty.ref" "$mlim"' $KTF "$T/bomb-section-zstd.dat"'
	row "trace.dat bomb: zstd, a kallsyms section claiming 96 MiB" 1 \
		'bomb-kallsyms-zstd.dat: corrupt trace.dat \(version 7\): the kallsyms section at offset 0xa1 claims 100663296 bytes \(96 MiB\) inflated, more than any real trace has \(at most 64 MiB here' \
		"$T/empty.ref" "$mlim"' $KTF "$T/bomb-kallsyms-zstd.dat"'
	row "trace.dat bomb: zstd, nine printk sections of 16 MiB, 144 MiB together" 1 \
		'bomb-sections-zstd.dat: corrupt trace.dat \(version 7\): its sections other than the CPU data claim more than 128 MiB inflated together \(the 9 compressed ones up to the one at offset 0x[0-9a-f]+\)' \
		"$T/empty.ref" "$mlim"' TMPDIR=/nonexistent/ktf ${KTF_VALGRIND_BIN:-$KTF} "$T/bomb-sections-zstd.dat"'
	if [ -n "$vlim" ]; then
		row "trace.dat bomb: zstd, 3 GiB for libtracecmd's memory (no TMPDIR), more than ulimit -v" 1 \
			'bomb-big-zstd.dat: no copy can be made, and libtracecmd would hold its 3221229568 uncompressed bytes \(3072 MiB\) in memory, but (the address space limit \(ulimit -v\)|the memory available) is [0-9]+' \
			"$T/empty.ref" "$lim"' TMPDIR=/nonexistent/ktf ${KTF_VALGRIND_BIN:-$KTF} "$T/bomb-big-zstd.dat"'
	else
		n=$((n + 1))
		echo "ok $n - trace.dat bomb: zstd, 3 GiB in memory # SKIP no ulimit -v for this build (a sanitizer or valgrind)"
	fi
	# issue 34, 16-17: formats that would make libtraceevent read past
	# their records (tests/gen/gen-tracedat-overread.py), under 128 MiB
	# of address space where the build allows: every good record printed
	for k in big past loc2; do
		python3 tests/gen/gen-tracedat-overread.py "$k" >"$T/overread-$k.dat"
	done
	row "trace.dat: a field declared 200 MB, records of 16 bytes" 1 \
		'overread-big.dat: CPU 0: offset 0x1060: event blob_load: its format declares field .load. at bytes 12..200000011, more than a record holds' \
		tests/cli/tracedat/overread-big.out \
		"$mlim"' cd "$T" && $KTF overread-big.dat'
	row "trace.dat: a zero-sized field starting past its record" 1 \
		'overread-past.dat: CPU 0: offset 0x1050: event tail_load: a record of 40 bytes, but its format puts field .load. at byte 60, past its end' \
		tests/cli/tracedat/overread-past.out \
		"$mlim"' cd "$T" && $KTF overread-past.dat'
	# a two-byte __data_loc past its record: libtraceevent's length
	# wraps; the two damaged lines are the only ones that differ from
	# trace-cmd report (which prints name= from byte 0 of the record):
	# [FAILED TO PARSE] and the fields from the record's own bytes
	row "trace.dat: a two-byte __data_loc pointing past its record" 1 \
		'overread-loc2.dat: CPU 0: offset 0x1064: event short_loc: field .name. points at bytes 7936\.\.7936 of a record of 24 bytes \(corrupt trace\.dat\): left out, reading goes on' \
		tests/cli/tracedat/overread-loc2.out \
		"$mlim"' cd "$T" && $KTF overread-loc2.dat'
else
	for s in "pipe copy" "cut while read" "bomb overlap" "bomb ratio" "bomb section" \
		"bomb big" "bomb no TMPDIR" "bomb zstd big" \
		"bomb zstd section" "bomb zstd kallsyms" "bomb zstd sections" \
		"bomb zstd memory" "overread big" "overread past" "overread loc2"; do
		n=$((n + 1))
		echo "ok $n - trace.dat $s # SKIP built without tracecmd"
	done
fi

# ------------------------------------------------- QEMU and --counters, round 3
# (issue 34, 8 to 15) inputs made by tests/gen/gen-qemu-hostile.py and
# gen-perfstat-hostile.py. Each run under 20 s of CPU (ulimit -t: a healthy
# run takes well under a second, under valgrind a few; the old code took
# 45 s and more) and, where the build allows it (not under a sanitizer or
# valgrind), 1 GiB of address space.
qb="ulimit -t 20;"
if (ulimit -v 1048576; $KTF --version) >/dev/null 2>&1; then
	qb="$qb ulimit -v 1048576;"
fi
qe=--qemu-events=tests/fixtures/qemu/trace-events
python3 tests/gen/gen-qemu-hostile.py collide "$T/q-collide.bin"
printf 'kvm_run_exit 0.000 pid=7 cpu_index=0x0 reason=0x2\nkvm_run_exit 1.000 pid=7 cpu_index=0x0 reason=0x2\n' \
	>"$T/q-collide.ref"
row "QEMU simple: 200 000 mapping ids chosen to share a hash slot" 0 - \
	"$T/q-collide.ref" "$qb"' $KTF '"$qe"' "$T/q-collide.bin"'
python3 tests/gen/gen-qemu-hostile.py split "$T/q-split.qlog"
row "QEMU log: four 1 MB lines that \"%s,%s;x\" cannot read back" 0 - \
	"$T/q-split.qlog" "$qb"' $KTF --qemu-events="$T/q-split.qlog.trace-events" --qemu-log "$T/q-split.qlog" 2>"$T/q-split.err"; rc=$?; grep -q "q-split.qlog: line 1 and 3 more lines cannot be read back" "$T/q-split.err" || exit 99; exit $rc'
python3 tests/gen/gen-qemu-hostile.py dropped "$T/q-dropped.bin"
printf 'kvm_run_exit 0.000 pid=7 cpu_index=0x1 reason=0x2\nkvm_run_exit 1.000 pid=7 cpu_index=0x1 reason=0x2\n' \
	>"$T/q-dropped.ref"
row "QEMU simple: a dropped-events record of 16 bytes" 1 \
	'q-dropped.bin: offset 0x68: a dropped-events record \(id 0xfffffffffffffffe\) with 16 bytes of arguments, not the 8 of its count' \
	"$T/q-dropped.ref" '$KTF '"$qe"' "$T/q-dropped.bin"'
for k in stamp stamp72; do
	python3 tests/gen/gen-qemu-hostile.py "$k" "$T/q-$k.qlog"
	head -n 1 "$T/q-$k.qlog" >"$T/q-$k.ref"
done
row "QEMU log: a stamp of the year 2600 (past 2^64 ns)" 1 \
	'q-stamp.qlog:2: the stamp 2600-01-01T00:00:00.000001Z is more nanoseconds since 1970 than 64 bits hold' \
	"$T/q-stamp.ref" '$KTF '"$qe"' "$T/q-stamp.qlog"'
row "QEMU log: a 7.2 stamp of 2*10^10 s (past 2^64 ns)" 1 \
	'q-stamp72.qlog:2: the stamp 4242@20000000000.000001 is more nanoseconds since 1970 than 64 bits hold' \
	"$T/q-stamp72.ref" '$KTF '"$qe"' "$T/q-stamp72.qlog"'
python3 tests/gen/gen-perfstat-hostile.py names "$T/c-names.txt"
row "--counters: 80 000 names" 0 - - "$qb"' n=$($KTF --stats=csv --counters="$T/c-names.txt" | grep -c "c-names.txt,counter0"); [ "$n" = 80000 ] || { echo "kvmtrace_format: $n rows" >&2; exit 99; }'
row "--counters: a pipe of 100 MB of NUL bytes" 1 \
	'/dev/stdin:1: a line longer than 65536 bytes: not perf stat output' - \
	"$qb"' head -c 100000000 /dev/zero | $KTF --stats --counters=/dev/stdin'
row "--counters: /dev/zero" 2 \
	'--counters: /dev/zero: a character device, not a file of perf stat -I output' - \
	"$qb"' $KTF --stats --counters=/dev/zero'

# ------------------------------------------------------------ perf.data
. tests/hostile-perf.sh

# ------------------------------------------------------------ trust, round 2
# (issue 26) -o naming a file the run reads, whatever way the run finds it
printf 'ffffffff81000000 T default_idle\nffffffff81000100 T native_safe_halt\n' \
	>"$T/gk.map"
cp "$T/gk.map" "$T/gk.txt"
row "-o: the --guest-syms file" 2 'that is the --guest-syms file' - \
	'$KTF --stats --guest-syms "$T/gk.txt" -o "$T/gk.txt" "$T/whole.bin"; rc=$?; cmp -s "$T/gk.txt" "$T/gk.map" || exit 99; exit $rc'
mkdir -p "$T/fpath"
cp formats/kvmtrace "$T/fpath/myfmt"
row "-o: the rule file -f NAME finds in \$KVMTRACE_FORMAT_PATH" 2 \
	"that is the rule file \\($T/fpath/myfmt\\)" - \
	'KVMTRACE_FORMAT_PATH="$T/fpath" $KTF -f myfmt -o "$T/fpath/myfmt" "$T/whole.bin"; rc=$?; cmp -s formats/kvmtrace "$T/fpath/myfmt" || exit 99; exit $rc'
# a rule file through a pipe with -f (as -f <(cat formats) gives one)
row "-f a pipe" 0 - "$T/whole.ref" \
	'cat formats/kvmtrace | $KTF -f /dev/stdin "$T/whole.bin"'
rm -f "$T/ffifo" && mkfifo "$T/ffifo"
row "-f a FIFO" 0 - "$T/whole.ref" \
	'cat formats/kvmtrace >"$T/ffifo" & $KTF -f "$T/ffifo" "$T/whole.bin"'
# a uftrace directory whose info is missing, damaged, empty or a FIFO:
# named for what it is (it was "is a directory, not a rule file")
ufcopy
rm "$T/uf/info"
row "uftrace: info missing" 2 \
	"$T/uf: a directory without a uftrace 'info' file \\($T/uf/info: No such file" \
	"$T/empty.ref" '$KTF "$T/uf"'
printf 'Xtrace!' | dd of="$T/uf/info" conv=notrunc 2>/dev/null
cat "$fix/uftrace/plain/info" >>"$T/uf/info"
row "uftrace: info without its magic" 2 \
	"$T/uf/info: offset 0x0: does not start with uftrace's magic" \
	"$T/empty.ref" '$KTF "$T/uf"'
: >"$T/uf/info"
row "uftrace: info empty" 2 "$T/uf/info: 0 bytes, shorter than uftrace's magic" \
	"$T/empty.ref" '$KTF "$T/uf"'
rm "$T/uf/info" && mkfifo "$T/uf/info"
row "uftrace: info a FIFO" 2 "$T/uf/info: not a regular file \\(a FIFO\\)" \
	"$T/empty.ref" '$KTF "$T/uf"'
# what is not a regular file where a file is required: refused, not read
# for ever or waited on; a text symbol file stops at its first NUL
row "--guest-syms /dev/zero" 2 '/dev/zero: a character device, not a symbol file' \
	- 'timeout 20 $KTF --stats --guest-syms /dev/zero "$T/whole.bin"'
row "--guest-syms a pipe of NUL bytes" 2 \
	'/dev/stdin: offset 0x0: a NUL byte: not a System.map or kallsyms text file' \
	- 'head -c 1000000 /dev/zero | timeout 20 $KTF --stats --guest-syms /dev/stdin "$T/whole.bin"'
{ cat "$T/gk.map"; printf 'ffffffff81000200 T x\000y\n'; } >"$T/gknul.map"
row "--guest-syms: a NUL byte in line 3" 2 \
	"gknul.map: offset 0x58: a NUL byte" - \
	'timeout 20 $KTF --stats --guest-syms "$T/gknul.map" "$T/whole.bin"'
ufcopy
rm "$T/uf/20634.dat" && mkfifo "$T/uf/20634.dat"
row "uftrace: a FIFO for a task's data" 1 \
	"$T/uf/20634.dat: not a regular file \\(a FIFO" - \
	'timeout 20 $KTF "$T/uf"'

# --tsc-mhz=1 and a stamp near 2**60: 2**70 ns do not fit 64 bits; the
# event is named, the input stops, the events before it are printed
python3 - "$T/bigts.bin" <<'EOF'
import struct, sys
recs = b""
for ts in (1000, 2000, 1 << 60, 3000):
    recs += struct.pack("<IIIQI", 0x00010002 | (1 << 28) | (1 << 31), 1, 0, ts, 7)
open(sys.argv[1], "wb").write(recs)
EOF
head -c 48 "$T/bigts.bin" >"$T/bigts2.bin"
$KTF --tsc-mhz=1 formats/kvmtrace "$T/bigts2.bin" >"$T/bigts.ref" 2>/dev/null
row "--tsc-mhz=1, a stamp of 2**60" 1 \
	'bigts.bin: event 2: time stamp 1152921504606846976 at --tsc-mhz=1 is more nanoseconds than 64 bits hold' \
	"$T/bigts.ref" '$KTF --tsc-mhz=1 formats/kvmtrace "$T/bigts.bin"'

# a refused run leaves the -o file as it was (it was emptied, then the run
# refused); one cut short by a file size limit too, with nothing left beside
mkdir -p "$T/keep"
printf 'keep me\n' >"$T/keep.orig"
cp "$T/keep.orig" "$T/keep/k.txt"
row "-o: a run refused after the rules (--chrome without a rate)" 2 \
	'--chrome: the timeline is the TSC' - \
	'$KTF -o "$T/keep/k.txt" --chrome "$T/whole.bin"; rc=$?; cmp -s "$T/keep/k.txt" "$T/keep.orig" || exit 99; exit $rc'
if [ -n "${KTF_VALGRIND_BIN:-}" ]; then
	n=$((n + 1))
	echo "ok $n - -o: a run cut by ulimit -f # SKIP under valgrind (its own files meet the limit)"
else
	row "-o: a run cut by ulimit -f" 0 - - \
		'sh -c "ulimit -f 8; \$KTF -o \"\$T/keep/k.txt\" formats/kvmtrace tests/fixtures/kvmtrace/sample.bin tests/fixtures/kvmtrace/sample.bin tests/fixtures/kvmtrace/sample.bin tests/fixtures/kvmtrace/sample.bin" 2>/dev/null; cmp -s "$T/keep/k.txt" "$T/keep.orig" || exit 99; [ "$(ls -A "$T/keep")" = k.txt ] || exit 98'
fi
row "-o: a whole run replaces the file, keeping its mode" 0 - "$T/whole.ref" \
	'chmod 600 "$T/keep/k.txt" && $KTF -o "$T/keep/k.txt" formats/kvmtrace "$T/whole.bin" && [ "$(stat -c %a "$T/keep/k.txt")" = 600 ] && [ "$(ls -A "$T/keep")" = k.txt ] && cat "$T/keep/k.txt"'

# more inputs than the soft open-file limit: it is raised to the hard one;
# more than the hard one: refused before any output, with the numbers
mkdir -p "$T/nofile"
i=0
while [ "$i" -lt 40 ]; do
	cp "$T/whole.bin" "$T/nofile/vm.kvmtrace.$i"
	i=$((i + 1))
done
$KTF -f formats/kvmtrace "$T"/nofile/vm.kvmtrace.* >"$T/nofile.ref" 2>/dev/null
if [ -n "${KTF_VALGRIND_BIN:-}" ]; then
	n=$((n + 2))
	echo "ok $((n - 1)) - 40 inputs, soft limit 24 # SKIP under valgrind (its own descriptors)"
	echo "ok $n - 40 inputs, hard limit 24 # SKIP under valgrind (its own descriptors)"
else
	row "40 inputs, soft limit 24 (raised to the hard one)" 0 - "$T/nofile.ref" \
		'ulimit -S -n 24 && $KTF -f formats/kvmtrace "$T"/nofile/vm.kvmtrace.*'
	row "40 inputs, hard limit 24" 2 \
		'40 inputs need about 4[0-9] open files at once, more than the limit of 24 \(ulimit -n; the hard limit is 24\)' \
		"$T/empty.ref" \
		'ulimit -n 24 && $KTF -f formats/kvmtrace "$T"/nofile/vm.kvmtrace.*'
fi

# a task that only enters functions (70 000 levels, past uftrace's own
# 65 535): the frames kept stop at 65 536 (1 MiB), said once; the key depth
# still counts, the exits after it go back up (the default output prints
# the depth the records hold, 1023 at most, as uftrace dump does)
ufcopy
python3 - "$T/uf/20634.dat" <<'EOF'
import struct, sys
d = open(sys.argv[1], "rb").read()
ts = struct.unpack_from("<Q", d, 0)[0]
out = []
def rec(ts, typ, depth, addr):
    w = typ | (5 << 3) | ((depth & 0x3ff) << 6) | ((addr & 0xffffffffffff) << 16)
    return struct.pack("<QQ", ts, w)
for i in range(70000):
    out.append(rec(ts + i, 0, min(i, 1023), 0x5557dd7491f8))
for i in range(3):
    out.append(rec(ts + 70000 + i, 1, 1023, 0x5557dd7491f8))
open(sys.argv[1], "wb").write(b"".join(out))
EOF
row "uftrace: a task 70 000 calls deep" 1 \
	"$T/uf/20634.dat: offset 0x[0-9a-f]+: task 20634: calls nested deeper than 65536 levels" - \
	'printf "* %%(type)s %%(symbol)s %%(depth)d\n" >"$T/deep.rules"; $KTF "$T/uf" >"$T/deep.out" 2>"$T/deep.err"; rc=$?; cat "$T/deep.err" >&2; [ "$(grep -c "nested deeper" "$T/deep.err")" = 1 ] || exit 98; grep -q "entry\\] fib(5557dd7491f8) depth: 1023$" "$T/deep.out" || exit 95; $KTF -f "$T/deep.rules" "$T/uf" >"$T/deep.out" 2>/dev/null; grep -q "^entry fib 69999$" "$T/deep.out" || exit 97; grep -q "^exit fib 69997$" "$T/deep.out" || exit 96; exit $rc'

# a big System.map for --guest-syms costs about its size (16 bytes a symbol
# and its name; one malloc'd name each took 2 to 3 times it): peak RSS
# against a 2-line map's, the difference under 1.5 times the file's size
# (no sanitizer, valgrind, or /usr/bin/time: skipped)
if [ -n "${KTF_VALGRIND_BIN:-}" ] || [ ! -x /usr/bin/time ] ||
   grep -q -a __asan_init "$KTF" 2>/dev/null; then
	n=$((n + 1))
	echo "ok $n - --guest-syms: a big System.map # SKIP sanitizer or valgrind build, or no /usr/bin/time"
else
	python3 - "$T/big.map" <<'EOF'
import random, sys
random.seed(1)
a = 0xffffffff81000000
lines = []
for i in range(400000):
    a += random.randint(16, 256)
    lines.append("%016x %s fn%06d\n" % (a, "tT"[i % 2], i))
open(sys.argv[1], "w").write("".join(lines))
EOF
	export T
	row "--guest-syms: a big System.map costs about its size" 0 - - \
		's=$(/usr/bin/time -f %M $KTF --stats --guest-syms "$T/gk.map" "$T/whole.bin" 2>&1 >/dev/null | tail -n 1); b=$(/usr/bin/time -f %M $KTF --stats --guest-syms "$T/big.map" "$T/whole.bin" 2>&1 >/dev/null | tail -n 1); f=$(($(wc -c <"$T/big.map") / 1024)); echo "peak RSS $s KiB, $b KiB with a $f KiB map" >"$T/bigmap.log"; [ $((b - s)) -lt $((f * 3 / 2)) ] || { cat "$T/bigmap.log" >&2; exit 1; }'
	sed 's/^/# /' "$T/bigmap.log" 2>/dev/null
fi

echo "1..$n"
[ "$fail" -eq 0 ]
