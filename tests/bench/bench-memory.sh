#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench-memory.sh — peak memory where the input once set it (issue 26,
# item 7), with `uftrace dump` beside us where it reads the same input:
#   1. a uftrace task that only enters functions: ENTRIES entry records
#      (default 5 000 000) in the plain fixture's task 20634 (the stack
#      kept per task stops at 65536 frames; it grew to 81 MB);
#   2. --guest-syms with a System.map of SYSMAP_MB (default 300) MB of
#      short "ADDR T NAME" lines (it took three times its size).
# Prints peak RSS (/usr/bin/time -f %M) and wall seconds of each run.
#   KTF=… KTF_SRCDIR=… bash tests/bench/bench-memory.sh
set -eu
: "${KTF:?}" "${KTF_SRCDIR:?}"
ENTRIES=${ENTRIES:-5000000}
SYSMAP_MB=${SYSMAP_MB:-300}
[ -x /usr/bin/time ] || { echo "bench-memory: no /usr/bin/time"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktf-bench-mem.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# peak RSS in MiB and wall seconds of "$@" (output to /dev/null)
peak() {
	/usr/bin/time -o "$tmp/time" -f '%M %e' "$@" > /dev/null 2>&1 || true
	# (the last line: a failed command's status comes first)
	tail -n 1 "$tmp/time" |
		awk '{ printf "%9.1f MiB %8.2f s", $1 / 1024, $2 }'
}

# the lines "$@" prints
nlines() {
	"$@" 2> /dev/null | wc -l
}

cp -R "$KTF_SRCDIR/tests/fixtures/uftrace/plain" "$tmp/deep"
python3 - "$tmp/deep/20634.dat" "$ENTRIES" <<'PY'
import struct, sys
path, n = sys.argv[1], int(sys.argv[2])
ts = struct.unpack_from("<Q", open(path, "rb").read(), 0)[0]
w0 = 0 | (5 << 3) | (0x5557dd7491f8 << 16)
with open(path, "wb") as f:
    for base in range(0, n, 65536):
        k = min(65536, n - base)
        f.write(b"".join(struct.pack("<QQ", ts + base + i,
                                     w0 | (min(base + i, 1023) << 6))
                         for i in range(k)))
PY
echo "uftrace task of $ENTRIES entries without an exit ($(($(stat -c %s "$tmp/deep/20634.dat") >> 20)) MiB):"
printf '  %-34s %s %10s lines\n' "kvmtrace_format (dump lines)" \
	"$(peak "$KTF" "$tmp/deep")" "$(nlines "$KTF" "$tmp/deep")"
if command -v uftrace > /dev/null; then
	printf '  %-34s %s %10s lines\n' "uftrace dump" \
		"$(peak uftrace dump -d "$tmp/deep")" \
		"$(nlines uftrace dump -d "$tmp/deep")"
else
	printf '  %-34s %s\n' "uftrace dump" "(no uftrace)"
fi
rm -rf "$tmp/deep"

python3 - "$tmp/System.map" "$SYSMAP_MB" <<'PY'
import sys
path, mb = sys.argv[1], int(sys.argv[2])
a, i, size = 0xffffffff81000000, 0, 0
with open(path, "w") as f:
    while size < mb << 20:
        chunk = []
        for _ in range(100000):
            a += 16 + (i * 7919) % 240
            chunk.append("%016x %s fn%07d\n" % (a, "tT"[i & 1], i))
            i += 1
        s = "".join(chunk)
        f.write(s)
        size += len(s)
PY
printf '1 T x\n' > "$tmp/one.map"
lines=$(wc -l < "$tmp/System.map")
echo "--stats --guest-syms, System.map of $(($(stat -c %s "$tmp/System.map") >> 20)) MiB ($lines symbols):"
printf '  %-34s %s\n' "kvmtrace_format, a 1-line map" \
	"$(peak "$KTF" --stats --guest-syms "$tmp/one.map" "$KTF_SRCDIR/tests/fixtures/kvmtrace/sample.bin")"
printf '  %-34s %s\n' "kvmtrace_format, the big map" \
	"$(peak "$KTF" --stats --guest-syms "$tmp/System.map" "$KTF_SRCDIR/tests/fixtures/kvmtrace/sample.bin")"
printf '  %-34s %s\n' "(no other tool reads it; sort -u)" \
	"$(peak sort -u -o /dev/null "$tmp/System.map")"
