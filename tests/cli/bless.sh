#!/bin/sh
# bless.sh CASE... — record the current output of CLI cases as expected
# (tests/cli/NAME.out/.err/.rc). Review every change with git diff before
# committing: a blessed wrong answer is a defect.
set -u
: "${KTF:?set KTF to the binary}"
top=$(cd "$(dirname "$0")/../.." && pwd)
KTF_SRCDIR=$top
KTF_BUILDDIR=${KTF_BUILDDIR:-$(dirname "$KTF")}
export KTF KTF_SRCDIR KTF_BUILDDIR
for c in "$@"; do
	c=${c%.cmd}
	cmd=$(grep -v '^#' "$c.cmd")
	(cd "$top" && eval "$cmd") > "$c.out" 2> "$c.err"
	rc=$?
	if [ "$rc" -ne 0 ]; then echo "$rc" > "$c.rc"; else rm -f "$c.rc"; fi
	[ -s "$c.out" ] || rm -f "$c.out"
	[ -s "$c.err" ] || rm -f "$c.err"
done
