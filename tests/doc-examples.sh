#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The examples of the README, the man pages and formats/ as tests
# (tests/doc-examples.py tells how they are found and checked).
command -v python3 > /dev/null || { echo "1..0 # SKIP python3 not found"; exit 0; }
exec python3 "${KTF_SRCDIR:?}/tests/doc-examples.py"
