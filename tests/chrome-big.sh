#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# chrome-big.sh — --chrome past 256 MiB of JSON says so once on standard
# error (Chrome's viewer stops near there; --perfetto is smaller), and
# not below it (TAP). 2.1 M generated kvmtrace records make about 282 MB
# of JSON; the output goes to /dev/null.
set -u
: "${KTF:?}" "${KTF_BUILDDIR:?}"
gen=$KTF_BUILDDIR/tests/gen/gen-kvmtrace
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktf-chrome-big.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
"$gen" -n 2100000 -s 7 -r | "$KTF" --chrome -c 2400 > /dev/null 2> "$tmp/big.err"
r=$?
n=$(grep -c "past 256 MiB.*--perfetto" "$tmp/big.err")
if [ "$r" -eq 0 ] && [ "$n" -eq 1 ] && [ "$(wc -l < "$tmp/big.err")" -eq 1 ]; then
	echo "ok 1 - past 256 MiB: said once"
else
	echo "not ok 1 - past 256 MiB: exit $r, said $n times"
	sed 's/^/# /' "$tmp/big.err"
fi
"$gen" -n 100000 -s 7 -r | "$KTF" --chrome -c 2400 > /dev/null 2> "$tmp/small.err"
if [ ! -s "$tmp/small.err" ]; then
	echo "ok 2 - below 256 MiB: nothing said"
else
	echo "not ok 2 - below 256 MiB: something said"
	sed 's/^/# /' "$tmp/small.err"
fi
echo "1..2"
