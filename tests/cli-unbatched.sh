#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# cli-unbatched.sh — every CLI case (tests/cli/*.t, through run.sh) once
# more with KTF_EVENT_AT_A_TIME=1 (main.c): run_events()'s loop, an event
# at a time, where the batched paths (run-batch.c) would take the run.
# The cases' expected output is the same both ways, messages and status
# included. tests/batch-diff.sh compares the two ways on larger inputs.
# TAP out, each case under its own name. Not under valgrind (big_tests).
set -u
: "${KTF:?}" "${KTF_SRCDIR:?}"
cd "$KTF_SRCDIR" || exit 99
T=$(mktemp -d "${TMPDIR:-/tmp}/ktf-cli-unbatched.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
KTF_EVENT_AT_A_TIME=1
export KTF_EVENT_AT_A_TIME
n=0
for g in tests/cli/*.t; do
	name=${g##*/}
	sh tests/cli/run.sh "$g" > "$T/$name.tap" 2>&1
	c=$(grep -c '^\(not \)\{0,1\}ok ' "$T/$name.tap")
	n=$((n + c))
done
echo "1..$n"
i=0
for g in tests/cli/*.t; do
	name=${g##*/}
	# renumbered; the comments (a failure's diff) kept
	while IFS= read -r l; do
		case $l in
		"ok "* | "not ok "*)
			i=$((i + 1))
			st=${l%% [0-9]*}
			rest=${l#"$st" }
			rest=${rest#* }
			# a directive (# SKIP ...) stays last
			desc=${rest%% \# *}
			echo "$st $i - ${desc#- } (an event at a time)${rest#"$desc"}" ;;
		"#"*) echo "$l" ;;
		esac
	done < "$T/$name.tap"
done
