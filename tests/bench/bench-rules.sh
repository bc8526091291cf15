#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench-rules.sh — the time to load a YAML rule file of MB megabytes
# (default 10) of the shapes of issue 13, item 9 (tests/gen/gen-big-yaml.py
# around formats/kvmtrace.yaml), beside the time libyaml alone takes to
# parse it (python3's yaml module when it is built on libyaml, else left
# out). Best of RUNS runs: wall and CPU (user + sys), peak RSS. The input is
# the 60-record kvmtrace fixture, so the figure is the load. Not a test.
# Run from the build directory or set KTF_SRCDIR and KTF_BUILDDIR.
set -eu
MB=${MB:-10}
RUNS=${RUNS:-3}
top=${KTF_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${KTF_BUILDDIR:-$(pwd)}
ktf=$build/kvmtrace_format
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktf-bench-rules.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

python3 "$top/tests/gen/gen-big-yaml.py" "$top/formats/kvmtrace.yaml" "$MB" > "$tmp/big.yaml"
echo "rules: $(wc -c < "$tmp/big.yaml") bytes of YAML"
best=
for i in $(seq "$RUNS"); do
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$ktf" "$tmp/big.yaml" \
		"$top/tests/fixtures/kvmtrace/sample.bin" > /dev/null
	row=$(awk '{ printf "%.2f s wall  %.2f s CPU  %d MiB\n", $1, $2 + $3, $4 / 1024 }' "$tmp/time")
	cpu=$(awk '{ printf "%d", ($2 + $3) * 100 }' "$tmp/time")
	if [ -z "$best" ] || [ "$cpu" -lt "$best" ]; then
		best=$cpu
		bestrow=$row
	fi
done
printf '%-28s %s\n' "kvmtrace_format (load)" "$bestrow"
if python3 -c 'import yaml; yaml.CParser' 2> /dev/null; then
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/time" python3 -c '
import sys, yaml
with open(sys.argv[1], "rb") as f:
    for _ in yaml.parse(f, Loader=yaml.CSafeLoader):
        pass' "$tmp/big.yaml"
	printf '%-28s %s\n' "libyaml events (python3)" "$(awk '{ printf "%.2f s wall  %.2f s CPU  %d MiB\n", $1, $2 + $3, $4 / 1024 }' "$tmp/time")"
fi
