#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# chrome-tracks.sh — each kvmtrace instant of --chrome on the track of its
# domain, pid and vCPU (TAP): tests/gen/chrome-tracks.py writes a host and
# a guest stream of the same pids and vCPUs and checks the tracks. Needs
# python3.
set -u
: "${KTF:?}" "${KTF_SRCDIR:?}"
command -v python3 > /dev/null || { echo "1..0 # SKIP python3 not found"; exit 77; }
exec python3 "$KTF_SRCDIR/tests/gen/chrome-tracks.py" "$KTF"
