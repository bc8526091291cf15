#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# chrome-ts.sh — --chrome's "ts" and "dur" text against the records' TSC
# (TAP): tests/gen/chrome-ts.py writes kvmtrace streams whose stamps step
# across the 100 µs boundaries whose digits the JSON encoder keeps from
# one stamp to the next, from 0, from below 100 µs and from past 2^52 ns,
# and checks every instant and slice in order. Needs python3.
set -u
: "${KTF:?}" "${KTF_SRCDIR:?}"
command -v python3 > /dev/null || { echo "1..0 # SKIP python3 not found"; exit 77; }
exec python3 "$KTF_SRCDIR/tests/gen/chrome-ts.py" "$KTF"
