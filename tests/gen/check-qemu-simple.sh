#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-qemu-simple.sh QEMU_SRC|SIMPLETRACE_PY — compare the expected
# output of the QEMU simple-trace cases with what QEMU's own
# scripts/simpletrace.py prints.
#
# QEMU_SRC is a QEMU source tree, or the argument names its
# scripts/simpletrace.py (with its tracetool/ beside it); it is read,
# never copied here. tests/cli/qemu/simple.out was made this way:
#
#   python3 "$QEMU_SRC/scripts/simpletrace.py" \
#       tests/fixtures/qemu/trace-events tests/fixtures/qemu/simple.bin
#
# The expected outputs are those of QEMU 8.2 and later (its Formatter2,
# whose lines of events without arguments end in a blank after pid=N);
# QEMU 7.2's script (Formatter) printed no such blank.
#
# The fixtures come from tests/gen/gen-qemu-simple.py.
set -u
qemu=${1:?usage: check-qemu-simple.sh QEMU_SRC|path/to/simpletrace.py}
case $qemu in
*.py) st=$qemu ;;
*) st=$qemu/scripts/simpletrace.py ;;
esac
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktf-qemu.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
python3 "$top/tests/gen/gen-qemu-simple.py" "$tmp" || exit 1
status=0
for f in simple simple-mono simple-extremes; do
	cmp -s "$tmp/$f.bin" "$top/tests/fixtures/qemu/$f.bin" ||
		{ echo "$f.bin: the generator writes another file"; status=1; }
	python3 "$st" \
		"$top/tests/fixtures/qemu/trace-events" \
		"$top/tests/fixtures/qemu/$f.bin" > "$tmp/$f.ref" || status=1
done
cmp "$tmp/simple.ref" "$top/tests/cli/qemu/simple.out" || status=1
cmp "$tmp/simple-extremes.ref" "$top/tests/cli/qemu/extremes.out" || status=1
# the cut file: simpletrace.py prints the same good records, then fails
head -n "$(wc -l < "$top/tests/cli/qemu/cut.out")" "$tmp/simple.ref" |
	cmp - "$top/tests/cli/qemu/cut.out" || status=1
[ "$status" = 0 ] && echo "check-qemu-simple: the expected outputs are simpletrace.py's"
exit "$status"
